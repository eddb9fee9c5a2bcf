import { SlidersHorizontalIcon } from "lucide-react";
import { lazy, type ReactNode, Suspense, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";

// The sheet (a dialog with its focus trap and scroll lock) loads on the first tap: most visits
// never open it, and desktops never do.
const FiltersSheetPanel = lazy(() =>
  import("./filters-sheet-panel").then((m) => ({ default: m.FiltersSheetPanel })),
);

type FiltersSheetProps = {
  /** How many filters narrow the list now (shown on the button). */
  activeCount: number;
  /** The filters themselves. */
  children: ReactNode;
};

/**
 * Phones: the filters folded into a sheet behind one button that says how many are active, so
 * the movers list starts on the first screen. Wider screens show the filters in place.
 */
export function FiltersSheet({ activeCount, children }: FiltersSheetProps) {
  const { t } = useTranslation("dashboard");
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={opener}
        type="button"
        variant="outline"
        className="self-start md:hidden"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <SlidersHorizontalIcon aria-hidden="true" />
        {activeCount > 0 ? t("filterSheet.active", { count: activeCount }) : t("filterSheet.open")}
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <FiltersSheetPanel open={open} onOpenChange={setOpen} opener={opener}>
            {children}
          </FiltersSheetPanel>
        </Suspense>
      )}
    </>
  );
}
