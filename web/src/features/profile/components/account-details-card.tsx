import { CreditCardIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { FunctionCallError } from "@/lib/functions";
import { useOpenBillingPortal } from "@/lib/billing-portal";
import { assignLocation } from "@/lib/browser-location";
import type { PlanId } from "@domain/plans";

type AccountDetailsCardProps = {
  email: string;
  plan: PlanId;
  /** Paid plan with `subscription_active`. */
  subscribed: boolean;
};

/** E-mail, plan and subscription; upgrade when not subscribed, else the billing portal. */
export function AccountDetailsCard({ email, plan, subscribed }: AccountDetailsCardProps) {
  const { t } = useTranslation("profile");
  const portal = useOpenBillingPortal();

  function onManage() {
    portal.mutate(undefined, {
      onSuccess: (url) => {
        if (url === null) toast.error(t("account.manageFailed"));
        else assignLocation(url);
      },
      onError: (error) => {
        const description = error instanceof FunctionCallError ? error.serverMessage : null;
        toast.error(t("account.manageFailed"), { description: description ?? undefined });
      },
    });
  }

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
          <dt className="text-muted-foreground">{t("account.subscription")}</dt>
          <dd>
            <Badge variant={subscribed ? "default" : "secondary"}>
              {subscribed ? t("account.active") : t("account.inactive")}
            </Badge>
          </dd>
        </dl>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        {subscribed ? (
          <Button type="button" variant="outline" onClick={onManage} disabled={portal.isPending}>
            {portal.isPending ? <Spinner /> : <CreditCardIcon aria-hidden="true" />}
            {portal.isPending ? t("account.opening") : t("account.manage")}
          </Button>
        ) : (
          <Button asChild>
            <Link to="/pricing">{t("account.upgrade")}</Link>
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
