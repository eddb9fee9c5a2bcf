import { RadarIcon, SlidersHorizontalIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

/** Where the user chooses their exchanges (`profiles.selected_exchanges`). */
const SETTINGS_PATH = "/dashboard/settings";

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

/**
 * There are entries, but none from the user's exchanges (`profiles.selected_exchanges`): say so
 * and lead to the settings, where the selection is made.
 */
export function ExchangesEmptyState({ noneSelected }: { noneSelected: boolean }) {
  const { t } = useTranslation("dashboard");
  return (
    <div
      role="status"
      className="flex flex-col items-center gap-3 rounded-md border border-dashed p-6 text-center text-sm"
    >
      <p>{noneSelected ? t("empty.exchanges.none") : t("empty.exchanges.excluded")}</p>
      <Button asChild variant="outline" size="sm">
        <Link to={SETTINGS_PATH}>
          <SlidersHorizontalIcon aria-hidden="true" />
          {t("empty.exchanges.link")}
        </Link>
      </Button>
    </div>
  );
}
