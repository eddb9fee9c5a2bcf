import { SlidersHorizontalIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import {
  Sheet,
  SheetClose,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from "@/components/ui/sheet";

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
  return (
    <Sheet>
      <SheetTrigger asChild>
        <Button type="button" variant="outline" className="self-start md:hidden">
          <SlidersHorizontalIcon aria-hidden="true" />
          {activeCount > 0
            ? t("filterSheet.active", { count: activeCount })
            : t("filterSheet.open")}
        </Button>
      </SheetTrigger>
      <SheetContent
        side="bottom"
        closeLabel={t("analysis.close")}
        className="max-h-[85dvh] overflow-y-auto"
      >
        <SheetHeader>
          <SheetTitle>{t("filters.title")}</SheetTitle>
          <SheetDescription>{t("filterSheet.sheetDescription")}</SheetDescription>
        </SheetHeader>
        <div className="px-4">{children}</div>
        <div className="p-4">
          <SheetClose asChild>
            <Button type="button" className="w-full">
              {t("filterSheet.done")}
            </Button>
          </SheetClose>
        </div>
      </SheetContent>
    </Sheet>
  );
}
