/**
 * CSV as RFC 4180 writes it. A text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`
 * first) is written with a leading apostrophe: customer names are typed by users.
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  let text = Array.isArray(value) ? value.join(" ") : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(cell).join(",")}\r\n`;
}

/** A header line, then each batch's rows as one chunk: a stream pulls the next batch when it has room. */
export async function* csvChunks<Row>(
  columns: readonly string[],
  batches: AsyncIterable<Row[]>,
  present: (row: Row) => Record<string, unknown>,
): AsyncGenerator<string> {
  yield csvLine(columns);
  for await (const batch of batches) {
    let chunk = "";
    for (const row of batch) {
      const shown = present(row);
      chunk += csvLine(columns.map((column) => shown[column]));
    }
    yield chunk;
  }
}
