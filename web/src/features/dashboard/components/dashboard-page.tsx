import type { MoverEntry } from "@domain/realtime";
import { InfoIcon, RefreshCwIcon } from "lucide-react";
import {
  lazy,
  type ReactNode,
  startTransition,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router-dom";
import { toast } from "sonner";
import { ExportButton } from "@/components/export-button";
import { LiveIndicator } from "@/components/live-indicator";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { useTransitionQuery } from "@/hooks/use-transition-query";
import { BREAKPOINTS, useMediaQuery } from "@/hooks/use-media-query";
import { exchangeSelectionsOf } from "@/lib/exchange-selection";
import { LOGIN_PATH } from "@/lib/redirect";
import { dashboardQueries } from "../api/queries";
import { useAnalysisFromLink } from "../hooks/use-analysis-link";
import { useCheckoutSuccessToast } from "../hooks/use-checkout-success";
import { useChooseWindow } from "../hooks/use-choose-window";
import { useDashboardShortcuts } from "../hooks/use-dashboard-shortcuts";
import { useVenueConfirmations } from "../hooks/use-venue-confirmations";
import { useMoversStream } from "../hooks/use-movers-stream";
import { shownWindow, useWindowParam } from "../hooks/use-window-param";
import { rememberWindow, windowHint } from "../utils/window-hint";
import { rowFormatSteps, runStepsWhenIdle } from "../utils/warm-formats";
import { whenIdle } from "@/lib/when-idle";
import {
  useDirection,
  useMinPercent,
  useMoverOrder,
  useSelection,
  useThresholdOff,
  useTrustSwitch,
} from "../stores/filters-store";
import {
  explainEmpty,
  filterMovers,
  inSelectedExchanges,
  optionCounts,
} from "../utils/filter-movers";
import {
  applyTrustFilters,
  groupByAsset,
  sortGroups,
  type TrustEntry,
  visibleRows,
} from "../utils/trust";
import {
  EmptyState,
  ExchangesEmptyState,
  FilteredEmptyState,
  ThresholdOffNote,
} from "./empty-state";
import { FiltersSheet } from "./filters-sheet";
import { MoverCards } from "./mover-cards";

// The analysis (candles, indicators) is loaded on the first "Analysis" click, then stays mounted.
const AnalysisDialog = lazy(() =>
  import("./analysis-dialog").then((m) => ({ default: m.AnalysisDialog })),
);
// The export menu (a dropdown) follows the list a moment later: it is not needed to read it.
const MoversExport = lazy(() =>
  import("./movers-export").then((m) => ({ default: m.MoversExport })),
);
// The trading signals sit beside or below the movers and follow them a moment later.
const SignalsCard = lazy(() => import("./signals-card").then((m) => ({ default: m.SignalsCard })));
import { MoverFilters } from "./mover-filters";
import { MoversTable } from "./movers-table";
import { SourceHealth } from "./source-health";
import { WindowSelector, WindowSelectorPlaceholder } from "./window-selector";
import { OrderToggle } from "./order-toggle";
import { TrustHiddenNote } from "./trust-hidden-note";

const NO_ENTRIES: MoverEntry[] = [];
/** Cards on a phone before "Show more". */
const PHONE_PAGE_SIZE = 20;
/** Cards committed per idle step until the page's cards are in (decision 0095). */
const CARDS_PER_STEP = 4;
/** New movers without a sparkline trigger a new read of all sparklines at most this often. */
const SPARKLINES_MIN_REFRESH_MS = 15_000;

/** Idle steps of the page's start wait at most this long for the browser to be idle. */
const IDLE_TIMEOUT_MS = 2000;
const soonIdle = (run: () => void) => whenIdle(run, IDLE_TIMEOUT_MS);

/** /dashboard (subscribers only; the route guard sees to that). */
/**
 * /dashboard. `symbolActions` are other features' actions on a symbol, shown in its analysis;
 * the route composes them (app/routes/dashboard-route.tsx), since features do not import each other.
 */
export function DashboardPage({
  symbolActions,
}: {
  symbolActions?: (symbol: string) => ReactNode;
} = {}) {
  const { t, i18n } = useTranslation("dashboard");
  const { user, profile, isPending } = useCurrentUser();
  useCheckoutSuccessToast();

  // The address's window when the plan offers it, else the stored one (decision 0045). Before the
  // profile is read, the likely one (windowHint): its feed is fetched together with the profile,
  // not after it (decision 0070). What the feed answers is the database's to decide.
  const [searchParams, showWindow] = useWindowParam();
  const windowMinutes = profile
    ? shownWindow(searchParams, profile.plan, profile.selected_window_minutes)
    : windowHint(searchParams);
  const signedIn = user !== null;
  // Its answers (and the stream's updates of it) re-render the page at transition priority
  // (decision 0109), as do the sparklines'.
  const feed = useTransitionQuery({ ...dashboardQueries.feed(windowMinutes), enabled: signedIn });
  // Every row's last 30 minutes in one request (not one per row), refreshed every minute.
  // (After the profile: the rows are drawn without them first, so a guessed window's request
  // would be one more for nothing when the guess was wrong.)
  const sparklines = useTransitionQuery({
    ...dashboardQueries.sparklines(windowMinutes),
    enabled: profile !== null,
  });
  useEffect(() => {
    if (profile) rememberWindow(windowMinutes);
  }, [profile, windowMinutes]);
  // The stream is joined once the first rows are rendered and the browser is idle (decision
  // 0095): its socket, its join and its first message come after the rows' render, not in it.
  const [streamWanted, setStreamWanted] = useState(false);
  const { status } = useMoversStream(windowMinutes, {
    enabled: profile !== null && streamWanted,
  });
  // Each venue's confirmed-through time (decision 0079), read with the Sources line.
  const confirmations = useVenueConfirmations();
  const [analysed, setAnalysed] = useState<MoverEntry | null>(null);
  const [analysisWanted, setAnalysisWanted] = useState(false);
  if (analysed && !analysisWanted) setAnalysisWanted(true);
  const [refreshing, setRefreshing] = useState(false);

  const direction = useDirection();
  const minPercent = useMinPercent();
  const sources = useSelection("sources");
  const networks = useSelection("networks");
  const venues = useSelection("venues");
  const showThin = useTrustSwitch("showThin");
  const confirmedOnly = useTrustSwitch("confirmedOnly");
  const grouped = useTrustSwitch("groupByAsset");
  const order = useMoverOrder();
  // Only what the width shows is rendered: the filters in place from `md` (a sheet below it), the
  // table from `lg` and the cards below it (both were rendered, CSS showing one: twice the first
  // render's work on every screen; decision 0070).
  const wide = useMediaQuery(BREAKPOINTS.md);
  const desktop = useMediaQuery(BREAKPOINTS.lg);
  // Rows fetched before the profile wait for it: its threshold and exchanges filter them.
  const liveEntries = (profile && feed.data) || NO_ENTRIES;
  // The list follows the feed at transition priority: the feed's arrivals re-render this page in
  // a transition (decision 0109), and a render for anything else (a filter, the profile) draws
  // the rows it had, the new rows (the first ones, then every live scan's) following in slices
  // that yield to the browser, not in one long task of twenty cards (decision 0095). Until the
  // first rows are rendered the placeholder stays.
  const entries = useDeferredValue(liveEntries);
  const listPending =
    profile === null || feed.isPending || (entries === NO_ENTRIES && liveEntries !== NO_ENTRIES);
  // Once the feed's rows are the ones rendered (they follow the feed in a transition).
  useAnalysisFromLink(entries, !listPending && feed.isSuccess, setAnalysed);
  // While the rows are read, the formats their cards use are made in idle moments (decision 0095).
  const locale = i18n.resolvedLanguage ?? "en";
  const formatsWanted = listPending;
  useEffect(() => {
    if (!formatsWanted) return;
    return runStepsWhenIdle(rowFormatSteps(locale, t), soonIdle);
  }, [formatsWanted, locale, t]);
  const thresholdOff = useThresholdOff();
  const userThreshold = profile?.user_threshold ?? 0;
  const threshold = thresholdOff ? 0 : userThreshold;
  const storedExchanges = profile?.selected_exchanges;
  const selectedExchanges = useMemo(() => exchangeSelectionsOf(storedExchanges), [storedExchanges]);
  const filters = useMemo(
    () => ({ direction, minPercent, threshold, selectedExchanges, sources, networks, venues }),
    [direction, minPercent, threshold, selectedExchanges, sources, networks, venues],
  );
  const filtered = useMemo(() => filterMovers(entries, filters), [entries, filters]);
  // Issue 26: thin moves hidden unless asked for (and counted), confirmed only on request, then
  // one row per asset (its most liquid venue leads) in the server's ranking or by trust.
  const trusted = useMemo(
    () => applyTrustFilters<TrustEntry>(filtered, { showThin, confirmedOnly }),
    [filtered, showThin, confirmedOnly],
  );
  const groups = useMemo(
    () => sortGroups(groupByAsset(trusted.kept, grouped), order),
    [trusted.kept, grouped, order],
  );
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  // Stable, so the memoised rows keep their props across live updates.
  const toggleGroup = useCallback(
    (asset: string) =>
      setExpanded((open) => {
        const next = new Set(open);
        if (!next.delete(asset)) next.add(asset);
        return next;
      }),
    [],
  );
  // The rows on screen, top to bottom: what j/k walk through and what the export writes.
  const shown = useMemo(() => visibleRows(groups, expanded), [groups, expanded]);
  const activeFilters =
    (direction !== "all" ? 1 : 0) +
    (minPercent > 0 ? 1 : 0) +
    [sources, networks, venues].filter((list) => list.length > 0).length +
    (showThin ? 1 : 0) +
    (confirmedOnly ? 1 : 0) +
    (grouped ? 0 : 1);
  // Phones show the first 20 cards and more on demand: a live scan never lengthens the page.
  const [cardLimit, setCardLimit] = useState(PHONE_PAGE_SIZE);
  // The first page of cards is committed a few at a time, one step per idle moment, each at
  // transition priority: one commit of twenty cards was the page's longest task after 0095's
  // first changes. What is below the first screen comes in while nothing else is to be done.
  const [cardsCommitted, setCardsCommitted] = useState(CARDS_PER_STEP);
  const cardsWanted = Math.min(cardLimit, groups.length);
  const cardsPending = !listPending && !desktop && cardsCommitted < cardsWanted;
  useEffect(() => {
    if (!cardsPending) return;
    return soonIdle(() =>
      startTransition(() => setCardsCommitted((count) => count + CARDS_PER_STEP)),
    );
  }, [cardsPending, cardsCommitted]);
  // The stream after the rows and the first page of cards (see streamWanted above).
  useEffect(() => {
    if (streamWanted || listPending || cardsPending) return;
    return soonIdle(() => setStreamWanted(true));
  }, [streamWanted, listPending, cardsPending]);
  // The user's exchanges alone hide every entry: the other filters are not to blame.
  const noneFromSelectedExchanges = useMemo(
    () => !entries.some((entry) => inSelectedExchanges(entry, selectedExchanges)),
    [entries, selectedExchanges],
  );
  // Counts only (the summary line): no sorted lists of names.
  const counts = useMemo(() => optionCounts(entries), [entries]);
  // A mover that entered the list since the sparklines were read: read them again (one request
  // for all rows, at most every 15 s), so every row gets its line.
  const sparklinesMissing =
    sparklines.data !== undefined &&
    entries.some((entry) => !sparklines.data.has(entry.instrument_id));
  const sparklinesAt = sparklines.dataUpdatedAt;
  const refetchSparklines = sparklines.refetch;
  useEffect(() => {
    if (!sparklinesMissing) return;
    const wait = Math.max(0, sparklinesAt + SPARKLINES_MIN_REFRESH_MS - Date.now());
    const timer = setTimeout(() => void refetchSparklines(), wait);
    return () => clearTimeout(timer);
  }, [sparklinesMissing, sparklinesAt, refetchSparklines]);
  // The analysed mover as the live feed has it now: its quote is the chart's live candle.
  const analysedLive = useMemo(
    () =>
      analysed
        ? (entries.find((entry) => entry.instrument_id === analysed.instrument_id) ?? analysed)
        : null,
    [analysed, entries],
  );
  const simulated = entries.some((entry) => entry.source === "simulated");
  // 1–7, /, j/k, Enter/a (the help overlay, `?`, lists them); the selector shows their window.
  // A chosen window goes into the address (a new history entry) and is saved as the last choice.
  const savedChoice = useChooseWindow(profile);
  const windowChoice = {
    ...savedChoice,
    choose: (next: number) => {
      if (next !== windowMinutes) showWindow(windowMinutes, next);
      savedChoice.choose(next);
    },
  };
  const selectedId = useDashboardShortcuts({
    // "Current" is the window on screen, which the address may have chosen.
    profile: profile && { ...profile, selected_window_minutes: windowMinutes },
    shown,
    choice: windowChoice,
    onAnalyse: setAnalysed,
  });

  // While the session and the profile are read (the route guards let this page draw its frame
  // meanwhile, decision 0070), the frame is on screen with placeholders where the plan goes.
  if (!isPending && !profile) return <Navigate to={LOGIN_PATH} replace />;

  const refresh = async () => {
    setRefreshing(true);
    const result = await feed.refetch();
    setRefreshing(false);
    if (result.isError) {
      toast.error(t("refreshFailed.title"), { description: t("refreshFailed.description") });
    } else {
      toast.success(t("refreshed.title"), {
        description: t("refreshed.description", { count: result.data?.length ?? 0 }),
      });
    }
  };

  return (
    <div className="container mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h1>
            {profile ? (
              <Badge variant="secondary">
                {t("planBadge", { plan: t(`plans.${profile.plan}`) })}
              </Badge>
            ) : (
              <span aria-hidden="true" className="h-[22px] w-20 rounded-md bg-secondary" />
            )}
          </div>
          <p className="text-muted-foreground">{t("description")}</p>
        </div>
        {profile ? (
          <WindowSelector profile={profile} shown={windowMinutes} choice={windowChoice} />
        ) : (
          <WindowSelectorPlaceholder />
        )}
      </header>

      <SourceHealth />

      {/* Rendered for the width that shows it only (phones have the sheet below). */}
      {wide && (
        <Card className="flex px-4 py-4">
          <MoverFilters
            entries={entries}
            threshold={threshold}
            selectedExchanges={selectedExchanges}
          />
        </Card>
      )}
      <FiltersSheet activeCount={activeFilters}>
        <MoverFilters
          entries={entries}
          threshold={threshold}
          selectedExchanges={selectedExchanges}
        />
      </FiltersSheet>

      <div className="grid gap-6 xl:grid-cols-[1fr_20rem]">
        <section aria-labelledby="top-gainers" className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex flex-col gap-1">
              <h2 id="top-gainers" className="text-xl font-semibold">
                {t("topGainers")}
              </h2>
              {/* The indicator has a line of its own on phones, its height kept while the stream
                  is idle: "Connecting…" appearing no longer wraps the summary and moves the
                  list down (a layout shift; decision 0081). */}
              <div className="flex flex-col items-start gap-1 text-sm text-muted-foreground sm:flex-row sm:flex-wrap sm:items-center sm:gap-2">
                <span data-testid="live-indicator-slot" className="flex min-h-[22px] items-center">
                  <LiveIndicator status={status} />
                </span>
                <span data-testid="live-summary">
                  {t("live.summary", {
                    entries: entries.length,
                    shown: shown.length,
                    sources: counts.exchanges,
                    networks: counts.networks,
                  })}
                </span>
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {/* Phones choose the order in the filters sheet, so the list starts higher. */}
              <OrderToggle className="hidden md:flex" />
              {/* The menu's own button, disabled, while its code loads: the Refresh button
                  beside it does not move when the menu arrives. */}
              <Suspense fallback={<ExportButton label={t("list.export")} disabled />}>
                <MoversExport entries={shown} windowMinutes={windowMinutes} />
              </Suspense>
              <Button
                type="button"
                variant="outline"
                onClick={() => void refresh()}
                disabled={refreshing || listPending}
              >
                {refreshing ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
                {t("refresh")}
              </Button>
            </div>
          </div>

          {thresholdOff && userThreshold > 0 && <ThresholdOffNote threshold={userThreshold} />}
          {/* Here, not above the filters: it arrives with the list, in the place of its skeleton,
              so nothing on screen moves down when it appears (decision 0065). */}
          {simulated && (
            <div
              role="note"
              className="flex items-center gap-2 rounded-md border border-sky-500/40 bg-sky-500/10 px-3 py-2 text-sm"
            >
              <InfoIcon className="size-4 shrink-0 text-sky-500" aria-hidden="true" />
              {t("simulated")}
            </div>
          )}
          {!listPending && (
            <TrustHiddenNote
              hiddenThin={trusted.hiddenThin}
              hiddenUnconfirmed={trusted.hiddenUnconfirmed}
            />
          )}

          {listPending ? (
            // As tall as the list's first screen: what follows it stays below the fold until the
            // rows arrive, instead of being pushed down by them (decision 0065).
            <div
              // A key of its own: the list's wrapper is a new element, not this one moved down
              // under the notes that arrive with the rows (decision 0081).
              key="movers-pending"
              data-testid="movers-pending"
              className="flex min-h-[75svh] justify-center rounded-lg border border-dashed py-10"
            >
              <Spinner label={t("loading")} className="size-6" />
            </div>
          ) : feed.isError && entries.length === 0 ? (
            <p role="alert" className="rounded-md border border-destructive/40 p-4 text-sm">
              {t("loadFailed")}
            </p>
          ) : entries.length === 0 ? (
            <EmptyState />
          ) : noneFromSelectedExchanges ? (
            <ExchangesEmptyState noneSelected={selectedExchanges.length === 0} />
          ) : filtered.length === 0 ? (
            <FilteredEmptyState
              reason={explainEmpty(entries, filters)}
              threshold={userThreshold}
              minPercent={minPercent}
            />
          ) : shown.length === 0 ? null : desktop ? (
            <MoversTable
              groups={groups}
              expanded={expanded}
              onToggle={toggleGroup}
              order={order}
              windowMinutes={windowMinutes}
              onAnalyse={setAnalysed}
              sparklines={sparklines.data}
              selectedId={selectedId}
              confirmations={confirmations}
            />
          ) : (
            <div>
              <MoverCards
                groups={groups.slice(0, Math.min(cardLimit, cardsCommitted))}
                expanded={expanded}
                onToggle={toggleGroup}
                windowMinutes={windowMinutes}
                onAnalyse={setAnalysed}
                sparklines={sparklines.data}
                confirmations={confirmations}
              />
              <div className="mt-3 flex flex-col items-center gap-2 text-sm text-muted-foreground">
                <span>
                  {t("list.shownOf", {
                    shown: Math.min(cardLimit, groups.length),
                    total: groups.length,
                  })}
                </span>
                {groups.length > cardLimit && (
                  <Button
                    type="button"
                    variant="outline"
                    onClick={() => {
                      // Asked for: the next page at once, not step by step.
                      setCardsCommitted(cardLimit + PHONE_PAGE_SIZE);
                      setCardLimit((limit) => limit + PHONE_PAGE_SIZE);
                    }}
                  >
                    {t("list.showMore", {
                      count: Math.min(PHONE_PAGE_SIZE, groups.length - cardLimit),
                    })}
                  </Button>
                )}
              </div>
            </div>
          )}
        </section>

        <Suspense fallback={<Spinner label={t("signals.loading")} className="size-5" />}>
          <SignalsCard />
        </Suspense>
      </div>

      {analysisWanted && (
        <Suspense fallback={null}>
          <AnalysisDialog
            entry={analysedLive}
            onClose={() => setAnalysed(null)}
            symbolActions={symbolActions}
          />
        </Suspense>
      )}
    </div>
  );
}
