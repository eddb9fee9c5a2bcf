import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "@/components/export-button";
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
  /**
   * Fetches the rows to export when a format is chosen (more than the screen shows, such as the
   * activity log's last 10,000 entries); `rows` then only decides whether there is anything.
   */
  loadRows?: () => Promise<readonly T[]>;
  /** Told when `loadRows` fails (the caller shows it). */
  onError?: (error: Error) => void;
  /** Names what is exported, for the button's accessible name. */
  label: string;
};

/** "Export" → CSV or JSON of the rows on screen, in the reader's format, with the export time. */
export function ExportMenu<T>({
  baseName,
  columns,
  rows,
  loadRows,
  onError,
  label,
}: ExportMenuProps<T>) {
  const { t, i18n } = useTranslation();
  const [loading, setLoading] = useState(false);
  const download = async (format: "csv" | "json") => {
    let exported = rows;
    if (loadRows) {
      setLoading(true);
      try {
        exported = await loadRows();
      } catch (error) {
        onError?.(error instanceof Error ? error : new Error(String(error)));
        return;
      } finally {
        setLoading(false);
      }
    }
    const now = new Date();
    exportRows(format, baseName, columns, exported, {
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
        <ExportButton label={label} disabled={rows.length === 0 || loading} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => void download("csv")}>{t("export.csv")}</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void download("json")}>
          {t("export.json")}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
