import type { ReactNode, RefObject } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import {
  Sheet,
  SheetClose,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from "@/components/ui/sheet";

type FiltersSheetPanelProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened the sheet: focus goes back to it on close. */
  opener: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
};

/** The phone's filters sheet itself, loaded on the first tap of "Filters". */
export function FiltersSheetPanel({
  open,
  onOpenChange,
  opener,
  children,
}: FiltersSheetPanelProps) {
  const { t } = useTranslation("dashboard");
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side="bottom"
        closeLabel={t("analysis.close")}
        className="max-h-[85dvh] overflow-y-auto"
        onCloseAutoFocus={(event) => {
          if (!opener.current) return;
          event.preventDefault();
          opener.current.focus();
        }}
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
