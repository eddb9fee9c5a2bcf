import { useQuery } from "@tanstack/react-query";
import { RadioTowerIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card";
import { LiveIndicator } from "@/components/live-indicator";
import { useHydrated } from "@/hooks/use-hydrated";
import { landingQueries, MOVERS_TEASER_LIMIT } from "../api/queries";
import { useTeaserStream } from "../hooks/use-teaser-stream";
import { MoverCard } from "./mover-card";

export function LiveUpdatesSection() {
  const { t } = useTranslation("landing");
  const movers = useQuery(landingQueries.moversTeaser());
  const { status } = useTeaserStream();
  // The served landing page shows the strip loading. Hydration runs in a transition that yields
  // to the browser, so the teaser can answer before the strip is hydrated: it shows the rows only
  // once hydrated, or React would find other text than the served one and render the page anew.
  const hydrated = useHydrated();

  return (
    <section aria-labelledby="live-updates-title" className="mx-auto w-full max-w-6xl px-4 py-12">
      <div className="mb-6 flex items-center gap-3">
        <span className="relative flex size-3" aria-hidden="true">
          {status === "live" && (
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-60" />
          )}
          <span className="relative inline-flex size-3 rounded-full bg-success" />
        </span>
        <div>
          <h2 id="live-updates-title" className="text-2xl font-bold tracking-tight">
            {t("live.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("live.subtitle")}</p>
        </div>
        <LiveIndicator status={status} className="ml-auto" />
      </div>

      {movers.isPending || !hydrated ? (
        <div role="status" aria-live="polite" className="grid gap-4 md:grid-cols-3">
          <span className="sr-only">{t("live.loading")}</span>
          {Array.from({ length: MOVERS_TEASER_LIMIT }, (_, i) => (
            <Card key={i} className="h-32 animate-pulse bg-muted/50" aria-hidden="true" />
          ))}
        </div>
      ) : movers.isError || movers.data.length === 0 ? (
        <Card
          role="status"
          className="items-center gap-2 border-dashed px-6 text-center text-muted-foreground"
        >
          <RadioTowerIcon className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">{t("live.empty")}</p>
          <p className="text-sm">{t("live.emptyHint")}</p>
        </Card>
      ) : (
        <ul className="grid gap-4 md:grid-cols-3">
          {movers.data.map((mover) => (
            <li key={mover.id}>
              <MoverCard mover={mover} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
