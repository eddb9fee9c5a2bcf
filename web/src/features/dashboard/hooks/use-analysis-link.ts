import type { MoverEntry } from "@domain/realtime";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { toast } from "sonner";

/**
 * An alert's link, `/dashboard?symbol=<symbol>`, opens that symbol's analysis once the feed is
 * in: the symbol's strongest move among the entries (a symbol can move on several venues).
 * When the symbol is not among the movers any more, a note says so. The parameter is removed
 * either way, so a reload or the back button does not open it again.
 */
export function useAnalysisFromLink(
  entries: readonly MoverEntry[],
  ready: boolean,
  open: (entry: MoverEntry) => void,
) {
  const { t } = useTranslation("dashboard");
  const [params, setParams] = useSearchParams();
  const handled = useRef(false);
  const symbol = params.get("symbol");

  useEffect(() => {
    if (!symbol || !ready || handled.current) return;
    handled.current = true;
    const next = new URLSearchParams(params);
    next.delete("symbol");
    setParams(next, { replace: true });
    const matches = entries.filter((e) => e.symbol.toUpperCase() === symbol.toUpperCase());
    const strongest = matches.reduce<MoverEntry | null>(
      (best, e) => (best === null || Math.abs(e.pct) > Math.abs(best.pct) ? e : best),
      null,
    );
    if (strongest) open(strongest);
    else toast.info(t("alertLink.notInFeed", { symbol }));
  }, [symbol, ready, entries, params, setParams, open, t]);
}
