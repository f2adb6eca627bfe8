/**
 * A text cell's first character that a spreadsheet may read as the start of a formula, or that
 * hides one behind it (docs/reports.md lists them): `=`, `+`, `-`, `@`, tab, carriage return,
 * line feed, space, `;` and `|`, and the full-width forms of `=`, `+`, `-`, `@`, `;` and `|`.
 */
const FORMULA_START = /^[=+\-@\t\r\n ;|＝＋－＠；｜]/u;

/**
 * CSV as RFC 4180 writes it. A text cell that could start a formula is neutralised: a leading
 * apostrophe and the cell quoted, since customer names are typed by users. Numbers
 * are written as numbers (a negative amount stays one).
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = Array.isArray(value) ? value.join(" ") : String(value);
  if (FORMULA_START.test(text)) return quoted(`'${text}`);
  return /[",\r\n]/.test(text) ? quoted(text) : text;
}

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

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
