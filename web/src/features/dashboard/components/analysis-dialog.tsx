import * as DialogPrimitive from "@radix-ui/react-dialog";
import { computeAnalysis, type Trend } from "@domain/analysis";
import {
  CANDLE_BUCKET_MS,
  estimateIntervalVolumes,
  toCandles,
  withLiveQuote,
} from "@domain/candles";
import { bollinger, ema } from "@domain/indicators";
import type { Candle } from "@domain/candles";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangleIcon, XIcon } from "lucide-react";
import { type ReactNode, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { type ChartLine, PriceChart } from "@/components/charts/price-chart";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { dashboardQueries } from "../api/queries";
import { ROW_ATTRIBUTE, ROW_FOCUS_ATTRIBUTE } from "../hooks/use-dashboard-shortcuts";
import { AnalysisDetails } from "./analysis-details";
import { AnalysisTrust } from "./analysis-trust";
import { trustOf, type TrustEntry } from "../utils/trust";
import { ProAnalysis } from "./pro-analysis";

const trendClass: Record<Trend, string> = {
  bullish: "border-transparent bg-success text-success-foreground",
  bearish: "border-transparent bg-destructive text-destructive-foreground",
  neutral: "",
};

type AnalysisDialogProps = {
  /**
   * The mover to analyse, as the live feed has it now (its quote becomes the chart's live
   * candle); null closes the dialog.
   */
  entry: TrustEntry | null;
  onClose: () => void;
  /** Actions on the symbol from other features (the route adds alerts' "Mute alerts"). */
  symbolActions?: (symbol: string) => ReactNode;
};

/**
 * The per-symbol analysis: the last 3 hours of price history as 5-minute candles (with the
 * live quote as the newest candle, EMA 9/21 and Bollinger 20/2 over them, the volume beneath)
 * and the analysis computed from them in the browser (`computeAnalysis`), with the disclaimer.
 */
export function AnalysisDialog({ entry, onClose, symbolActions }: AnalysisDialogProps) {
  const { t } = useTranslation("dashboard");
  // The dialog has no Radix Trigger (rows open it), so Radix would return focus to nothing
  // (the page) on close: remember the button that opened it and give focus back to it.
  const opener = useRef<HTMLElement | null>(null);
  const openedFor = useRef<number | null>(null);
  return (
    <DialogPrimitive.Root open={entry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
        <DialogPrimitive.Content
          onOpenAutoFocus={() => {
            opener.current =
              document.activeElement instanceof HTMLElement ? document.activeElement : null;
            openedFor.current = entry?.instrument_id ?? null;
          }}
          onCloseAutoFocus={(event) => {
            // A live scan may have re-drawn the opener's row meanwhile: then the same
            // instrument's button takes the focus back.
            const target = opener.current?.isConnected
              ? opener.current
              : openedFor.current === null
                ? null
                : document.querySelector<HTMLElement>(
                    `[${ROW_ATTRIBUTE}="${openedFor.current}"] [${ROW_FOCUS_ATTRIBUTE}]`,
                  );
            if (target) {
              event.preventDefault();
              target.focus();
            }
          }}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-3xl -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-lg border bg-background p-4 shadow-lg sm:p-6"
        >
          {entry && <AnalysisBody entry={entry} symbolActions={symbolActions} />}
          <DialogPrimitive.Close
            className="absolute top-4 right-4 rounded-xs opacity-70 transition-opacity hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            aria-label={t("analysis.close")}
          >
            <XIcon className="size-4" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function AnalysisBody({
  entry,
  symbolActions,
}: {
  entry: TrustEntry;
  symbolActions?: (symbol: string) => ReactNode;
}) {
  const poolName = trustOf(entry).pool_name;
  const { t } = useTranslation("dashboard");
  const history = useQuery(dashboardQueries.history(entry.instrument_id));
  const rows = history.data;
  const historyCandles = useMemo(
    () =>
      rows
        ? toCandles(
            estimateIntervalVolumes(
              rows.map(({ ts, price, volume_24h }) => ({ ts, price, volume: volume_24h })),
            ),
            CANDLE_BUCKET_MS,
          )
        : [],
    [rows],
  );
  const candles = useMemo(
    () => withLiveQuote(historyCandles, { ts: entry.ts, price: entry.price }),
    [historyCandles, entry.ts, entry.price],
  );
  const lines = useOverlays(candles);
  const analysis = useMemo(() => {
    if (!rows) return null;
    const volume24h = rows.findLast((row) => row.volume_24h !== null)?.volume_24h;
    return computeAnalysis(
      rows.map(({ ts, price }) => ({ ts, price })),
      { volume24h: volume24h ?? entry.volume_24h },
    );
  }, [rows, entry.volume_24h]);
  const trend: Trend = analysis?.trend ?? "neutral";

  return (
    <>
      <div className="flex flex-col gap-1 pr-8">
        <DialogPrimitive.Title className="flex flex-wrap items-center gap-2 text-lg font-semibold">
          {entry.symbol}
          {analysis && (
            <Badge variant="outline" className={cn(trendClass[trend])}>
              {t(`analysis.trend.${trend}`)}
            </Badge>
          )}
        </DialogPrimitive.Title>
        <DialogPrimitive.Description className="text-sm text-muted-foreground">
          {t("analysis.description", {
            symbol: entry.symbol,
            exchange: poolName ? `${entry.exchange} · ${poolName}` : entry.exchange,
          })}
        </DialogPrimitive.Description>
        {symbolActions && <div className="mt-1">{symbolActions(entry.symbol)}</div>}
      </div>

      <div
        role="note"
        className="flex gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm"
      >
        <AlertTriangleIcon className="mt-0.5 size-4 shrink-0 text-amber-500" aria-hidden="true" />
        <div>
          <p className="font-medium">{t("analysis.disclaimerTitle")}</p>
          <p className="text-muted-foreground">{t("analysis.disclaimer")}</p>
        </div>
      </div>

      {history.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label={t("analysis.loading")} className="size-6" />
        </div>
      ) : history.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {t("analysis.failed")}
        </p>
      ) : (
        <>
          <Card className="gap-2 px-4 py-3">
            <div className="flex items-baseline justify-between gap-2">
              <h3 className="font-semibold">{t("analysis.chartTitle")}</h3>
              <span className="text-xs text-muted-foreground">
                {t("analysis.dataPoints", { count: history.data.length })}
              </span>
            </div>
            <PriceChart
              candles={candles}
              lines={lines}
              label={t("analysis.chartLabel", { symbol: entry.symbol, count: candles.length })}
            />
          </Card>
          {analysis ? (
            <AnalysisDetails analysis={analysis} />
          ) : (
            <p role="status" className="rounded-md border border-dashed p-4 text-center text-sm">
              {t("analysis.notEnoughData")}
            </p>
          )}
        </>
      )}
      {/* After the chart (which keeps its place at the top), before Pro's sections. */}
      <AnalysisTrust entry={entry} />
      <ProAnalysis instrumentId={entry.instrument_id} symbol={entry.symbol} />
    </>
  );
}

/** EMA 9 and 21 and Bollinger Bands (20, 2) of the candles' closes, as chart overlays. */
function useOverlays(candles: readonly Candle[]): ChartLine[] {
  const { t } = useTranslation("dashboard");
  return useMemo(() => {
    const closes = candles.map((candle) => candle.close);
    const line = (values: readonly (number | null)[]) =>
      candles.map((candle, i) => ({ time: candle.start, value: values[i] ?? null }));
    const bands = bollinger(closes, 20, 2);
    return [
      {
        id: "ema9",
        label: t("analysis.overlays.ema9"),
        color: "#f59e0b",
        points: line(ema(closes, 9)),
      },
      {
        id: "ema21",
        label: t("analysis.overlays.ema21"),
        color: "#3b82f6",
        points: line(ema(closes, 21)),
      },
      {
        id: "bbUpper",
        label: t("analysis.overlays.bbUpper"),
        color: "#a855f7",
        points: line(bands.upper),
        dashed: true,
      },
      {
        id: "bbMiddle",
        label: t("analysis.overlays.bbMiddle"),
        color: "#a855f7",
        points: line(bands.middle),
      },
      {
        id: "bbLower",
        label: t("analysis.overlays.bbLower"),
        color: "#a855f7",
        points: line(bands.lower),
        dashed: true,
      },
    ];
  }, [candles, t]);
}
