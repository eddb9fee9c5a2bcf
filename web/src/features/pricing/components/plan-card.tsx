import { PLAN_CURRENCY } from "@domain/plans";
import { CheckIcon, ClockIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import type { PlanCard as PlanCardData } from "../utils/plan-catalogue";

/**
 * What the card's button does: `start` (checkout, no subscription yet), `current` (nothing),
 * `keep` (the current plan while a downgrade waits: cancel it), `upgrade` (at once),
 * `downgrade` (at the end of the period), `scheduled` (the waiting downgrade's target).
 */
export type PlanCardAction = "start" | "current" | "keep" | "upgrade" | "downgrade" | "scheduled";

type PlanCardProps = {
  plan: PlanCardData;
  action: PlanCardAction;
  isActivating: boolean;
  disabled: boolean;
  /** When the waiting downgrade starts (for `scheduled`), already formatted. */
  scheduledDate?: string;
  onChoose: () => void;
};

export function PlanCard({
  plan,
  action,
  isActivating,
  disabled,
  scheduledDate,
  onChoose,
}: PlanCardProps) {
  const isCurrent = action === "current" || action === "keep";
  const { t, i18n } = useTranslation("pricing");
  const price = new Intl.NumberFormat(i18n.resolvedLanguage, {
    style: "currency",
    currency: PLAN_CURRENCY,
    maximumFractionDigits: 0,
  }).format(plan.priceEur);

  return (
    <Card
      data-testid={`plan-card-${plan.id}`}
      className={cn(
        "relative h-full",
        plan.popular && "border-primary shadow-lg ring-1 ring-primary md:-my-2 md:py-8",
        isCurrent && "border-success ring-1 ring-success",
      )}
    >
      {(plan.popular || isCurrent) && (
        <div className="absolute -top-3 left-1/2 flex -translate-x-1/2 gap-2">
          {plan.popular && <Badge>{t("mostPopular")}</Badge>}
          {isCurrent && (
            <Badge variant="outline" className="border-success bg-background text-success">
              {t("currentPlan")}
            </Badge>
          )}
        </div>
      )}
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">{t(`plans.${plan.id}.name`)}</h2>
        </CardTitle>
        <CardDescription>{t(`plans.${plan.id}.description`)}</CardDescription>
        <p className="mt-4 flex items-baseline gap-1">
          <span className="text-4xl font-extrabold tracking-tight">{price}</span>
          <span className="text-sm text-muted-foreground">{t("perMonth")}</span>
        </p>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm font-medium">
          <ClockIcon className="size-4 shrink-0 text-primary" aria-hidden="true" />
          {t(`plans.${plan.id}.window`)}
        </p>
        <ul className="flex flex-col gap-2 text-sm">
          {plan.featureKeys.map((key) => (
            <li key={key} className="flex gap-2">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
              <span>{t(key)}</span>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter className="flex flex-col gap-2">
        {action === "current" || action === "scheduled" ? (
          <Button variant="outline" className="w-full" disabled>
            {action === "current"
              ? t("currentPlan")
              : t("change.scheduledFrom", { date: scheduledDate ?? "" })}
          </Button>
        ) : (
          <Button
            className="w-full"
            variant={
              action === "upgrade" || (action === "start" && plan.popular) ? "default" : "outline"
            }
            disabled={disabled}
            onClick={onChoose}
          >
            {isActivating && <Spinner />}
            {isActivating
              ? t(action === "start" ? "activating" : "change.changing")
              : action === "start"
                ? t("startNow")
                : action === "keep"
                  ? t("change.keepPlan", { plan: t(`plans.${plan.id}.name`) })
                  : t(`change.${action}`)}
          </Button>
        )}
        {(action === "upgrade" || action === "downgrade") && (
          <p className="text-center text-xs text-muted-foreground">
            {t(action === "upgrade" ? "change.upgradeHint" : "change.downgradeHint")}
          </p>
        )}
      </CardFooter>
    </Card>
  );
}
