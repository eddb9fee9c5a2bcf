import { RadarIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card";

/** No movers yet: the scanner runs, live data will arrive. */
export function EmptyState() {
  const { t } = useTranslation("dashboard");
  return (
    <Card
      role="status"
      className="items-center gap-2 border-dashed px-6 py-10 text-center text-muted-foreground"
    >
      <RadarIcon className="size-8" aria-hidden="true" />
      <p className="font-medium text-foreground">{t("empty.title")}</p>
      <p className="text-sm">{t("empty.waiting")}</p>
      <p className="flex items-center gap-2 text-xs">
        <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-success" />
        {t("empty.scanner")}
      </p>
    </Card>
  );
}
