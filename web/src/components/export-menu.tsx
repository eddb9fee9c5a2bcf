import { DownloadIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { type ExportColumn, exportRows } from "@/lib/csv";
import { dateTimeFormat } from "@/lib/time-zone";

type ExportMenuProps<T> = {
  /** File name before the time stamp: `movers` gives `movers-2026-11-25T21-20-00.csv`. */
  baseName: string;
  columns: readonly ExportColumn<T>[];
  /** The rows as the reader sees them now (filtered and sorted). */
  rows: readonly T[];
  /** Names what is exported, for the button's accessible name. */
  label: string;
};

/** "Export" → CSV or JSON of the rows on screen, in the reader's format, with the export time. */
export function ExportMenu<T>({ baseName, columns, rows, label }: ExportMenuProps<T>) {
  const { t, i18n } = useTranslation();
  const download = (format: "csv" | "json") => {
    const now = new Date();
    exportRows(format, baseName, columns, rows, {
      header: t("export.exportedAt"),
      value: dateTimeFormat(i18n.resolvedLanguage ?? "en", {
        dateStyle: "medium",
        timeStyle: "medium",
      }).format(now),
      fileStamp: now.toISOString().slice(0, 19).replaceAll(":", "-"),
    });
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={label}
          disabled={rows.length === 0}
        >
          <DownloadIcon aria-hidden="true" />
          {t("export.button")}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => download("csv")}>{t("export.csv")}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => download("json")}>{t("export.json")}</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
