/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; quotes doubled. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  // Spreadsheet formula injection: a leading =, +, - or @ is made inert.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: a header line, then one line per row, CRLF line ends (RFC 4180). */
export function toCsv<T>(
  columns: readonly { header: string; value: (row: T) => unknown }[],
  rows: readonly T[],
): string {
  const lines = [columns.map((column) => csvField(column.header)).join(",")];
  for (const row of rows)
    lines.push(columns.map((column) => csvField(column.value(row))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Offers a text as a file download. */
export function downloadText(
  fileName: string,
  text: string,
  type = "text/csv;charset=utf-8",
): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A column of an export: its header and its value, already in the reader's format. */
export type ExportColumn<T> = { header: string; value: (row: T) => unknown };

/**
 * Exports rows as CSV or JSON for download: the columns named in the header row, then an
 * "exported at" column holding the export time (the same in every row) so the file says when
 * it was taken. Values arrive formatted in the reader's language; CSV fields are guarded against
 * formula injection (`csvField`). JSON is an array of objects keyed by the same headers.
 */
export function exportRows<T>(
  format: "csv" | "json",
  baseName: string,
  columns: readonly ExportColumn<T>[],
  rows: readonly T[],
  exportedAt: { header: string; value: string; fileStamp: string },
): void {
  const all = [...columns, { header: exportedAt.header, value: () => exportedAt.value }];
  if (format === "csv") {
    downloadText(`${baseName}-${exportedAt.fileStamp}.csv`, toCsv(all, rows));
    return;
  }
  const objects = rows.map((row) =>
    Object.fromEntries(all.map((column) => [column.header, column.value(row) ?? null])),
  );
  downloadText(
    `${baseName}-${exportedAt.fileStamp}.json`,
    `${JSON.stringify(objects, null, 2)}\n`,
    "application/json;charset=utf-8",
  );
}
