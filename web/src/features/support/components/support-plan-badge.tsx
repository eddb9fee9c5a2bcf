import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import type { SupportPlan } from "../utils/ticket-values";

const PLAN_CLASSES: Record<SupportPlan, string> = {
  enterprise: "border-transparent bg-primary text-primary-foreground",
  pro: "border-primary text-primary",
  basic: "",
  none: "text-muted-foreground",
};

/** The plan a ticket is served under (its priority on the desk). */
export function SupportPlanBadge({ plan, className }: { plan: SupportPlan; className?: string }) {
  const { t } = useTranslation("support");
  return (
    <Badge
      variant="outline"
      data-testid="ticket-plan"
      data-plan={plan}
      className={cn(PLAN_CLASSES[plan], className)}
    >
      {t(`sla.plan.${plan}`)}
    </Badge>
  );
}
