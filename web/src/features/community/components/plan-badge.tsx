import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import type { Database } from "@/lib/database.types";

type Plan = Database["public"]["Enums"]["plan"];

/** Enterprise, Pro, Basic; nothing for other plans (spec section 2). */
export function PlanBadge({ plan }: { plan: Plan | null | undefined }) {
  const { t } = useTranslation("community");
  if (plan !== "enterprise" && plan !== "pro" && plan !== "basic") return null;
  return (
    <Badge variant={plan === "enterprise" ? "default" : "secondary"} className="px-1.5 py-0">
      {t(`plan.${plan}`)}
    </Badge>
  );
}
