import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { useFilterActions, useMoverOrder } from "../stores/filters-store";
import type { MoverOrder } from "../utils/trust";

const ORDERS: readonly MoverOrder[] = ["rank", "trust"];

/** The list's order: the server's ranking (default) or the trust score, kept in the address. */
export function OrderToggle({ className }: { className?: string }) {
  const { t } = useTranslation("dashboard");
  const order = useMoverOrder();
  const actions = useFilterActions();
  return (
    <div
      role="group"
      aria-label={t("trust.order.label")}
      className={cn("items-center gap-1", className)}
    >
      <span aria-hidden="true" className="mr-1 text-sm text-muted-foreground">
        {t("trust.order.label")}
      </span>
      {ORDERS.map((value) => (
        <Button
          key={value}
          type="button"
          size="sm"
          variant={order === value ? "default" : "outline"}
          aria-pressed={order === value}
          onClick={() => actions.setOrder(value)}
        >
          {t(`trust.order.${value}`)}
        </Button>
      ))}
    </div>
  );
}
