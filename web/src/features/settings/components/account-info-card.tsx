import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { PlanId } from "@domain/plans";

type AccountInfoCardProps = {
  email: string;
  plan: PlanId;
  subscriptionActive: boolean;
};

/** E-mail, plan and subscription status of the signed-in user. */
export function AccountInfoCard({ email, plan, subscriptionActive }: AccountInfoCardProps) {
  const { t } = useTranslation("settings");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("account.title")}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="text-muted-foreground">{t("account.email")}</dt>
          <dd className="font-medium break-all">{email}</dd>
          <dt className="text-muted-foreground">{t("account.plan")}</dt>
          <dd className="font-medium">{t(`plans.${plan}`)}</dd>
          <dt className="text-muted-foreground">{t("account.status")}</dt>
          <dd>
            <Badge variant={subscriptionActive ? "default" : "secondary"}>
              {subscriptionActive ? t("account.active") : t("account.inactive")}
            </Badge>
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
