import { windowLabel } from "@domain/plans";
import type { MoverEntry } from "@domain/realtime";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useShortcuts } from "@/hooks/use-shortcuts";
import { announce } from "@/lib/announce";
import { windowShortcut } from "../utils/window-shortcut";
import type { useChooseWindow, WindowProfile } from "./use-choose-window";

/** Marks the minimum-% field(s) `/` focuses (the visible one: the desktop card or the sheet). */
export const MIN_PERCENT_TARGET = "min-percent";
/** Marks a movers row (its instrument id) and, inside it, the control j/k focus. */
export const ROW_ATTRIBUTE = "data-mover-row";
export const ROW_FOCUS_ATTRIBUTE = "data-mover-row-focus";

function visible(element: Element): element is HTMLElement {
  return element instanceof HTMLElement && element.getClientRects().length > 0;
}

/** Focuses the visible row of `instrumentId` (the table's, or a phone's card) and shows it. */
function focusRow(instrumentId: number) {
  const rows = document.querySelectorAll(`[${ROW_ATTRIBUTE}="${instrumentId}"]`);
  for (const row of rows) {
    if (!visible(row)) continue;
    const control = row.querySelector(`[${ROW_FOCUS_ATTRIBUTE}]`);
    if (control instanceof HTMLElement) control.focus({ preventScroll: true });
    row.scrollIntoView({ block: "nearest" });
    return;
  }
}

/**
 * The dashboard's keys: 1–7 the window, `/` the minimum-% filter, j/k through the movers shown,
 * Enter or `a` the selected mover's analysis. Each says what it did in the live region.
 * Returns the selected mover's instrument id (the table marks its row).
 */
export function useDashboardShortcuts({
  profile,
  shown,
  choice,
  onAnalyse,
}: {
  profile: WindowProfile | null;
  shown: readonly MoverEntry[];
  choice: ReturnType<typeof useChooseWindow>;
  onAnalyse: (entry: MoverEntry) => void;
}): number | null {
  const { t } = useTranslation("dashboard");
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // Bumped on every j/k, so pressing at the first or last row focuses it again.
  const [moves, setMoves] = useState(0);

  useEffect(() => {
    if (selectedId !== null && moves > 0) focusRow(selectedId);
  }, [selectedId, moves]);

  const windowText = (minutes: number) => {
    const label = windowLabel(minutes);
    return t(`window.${label.unit}`, { count: label.count });
  };

  const pickWindow = (key: string) => () => {
    if (!profile) return;
    const outcome = windowShortcut(key, profile);
    if (!outcome) return;
    switch (outcome.kind) {
      case "fixed":
        announce(t("window.fixed"));
        return;
      case "inactive":
        announce(t("window.inactive"));
        return;
      case "notInPlan":
        announce(t("shortcuts.windowNotInPlan", { window: windowText(outcome.minutes) }));
        return;
      case "current":
        announce(t("shortcuts.window", { window: windowText(outcome.minutes) }));
        return;
      case "choose":
        choice.choose(outcome.minutes);
        announce(t("shortcuts.window", { window: windowText(outcome.minutes) }));
    }
  };

  const move = (step: 1 | -1) => () => {
    if (shown.length === 0) {
      announce(t("shortcuts.noRows"));
      return;
    }
    const index = shown.findIndex((entry) => entry.instrument_id === selectedId);
    const next = index < 0 ? 0 : Math.min(shown.length - 1, Math.max(0, index + step));
    const entry = shown[next]!;
    setSelectedId(entry.instrument_id);
    setMoves((n) => n + 1);
    announce(t("shortcuts.row", { position: next + 1, total: shown.length, symbol: entry.symbol }));
  };

  const analyse = () => {
    const entry = shown.find((e) => e.instrument_id === selectedId);
    if (entry) onAnalyse(entry);
    else announce(t(shown.length === 0 ? "shortcuts.noRows" : "shortcuts.noRowSelected"));
  };

  useShortcuts(
    {
      "1": pickWindow("1"),
      "2": pickWindow("2"),
      "3": pickWindow("3"),
      "4": pickWindow("4"),
      "5": pickWindow("5"),
      "6": pickWindow("6"),
      "7": pickWindow("7"),
      "/": () => {
        const field = [
          ...document.querySelectorAll(`[data-shortcut-target="${MIN_PERCENT_TARGET}"]`),
        ].find(visible);
        if (!field) return;
        field.focus();
        if (field instanceof HTMLInputElement) field.select();
      },
      j: move(1),
      k: move(-1),
      Enter: analyse,
      a: analyse,
    },
    profile !== null,
  );

  return shown.some((entry) => entry.instrument_id === selectedId) ? selectedId : null;
}
