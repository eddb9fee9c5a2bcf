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
