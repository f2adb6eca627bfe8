/**
 * A PDF as carriers' software writes them (PDF 1.5 and later, PDF 32000-1 §7.5.7–7.5.8): the
 * catalog, page tree, page and font packed in a deflated object stream, a cross-reference stream
 * with the PNG Up predictor instead of a table, the page's size and resources inherited from the
 * page tree, and the content's length an indirect object. The document information stays a plain
 * object, so a test can find the title in the bytes.
 */
import { deflateSync } from "node:zlib";
import { pdfString } from "../../src/labels/pdf/pdf-string.js";

/** `/W [1 4 2]`: type, offset or object stream, generation or index. */
const WIDTHS = [1, 4, 2];

type Entry = { type: 1; offset: number } | { type: 2; container: number; index: number };

function field(value: number, width: number): number[] {
  return Array.from({ length: width }, (_, i) => (value >> (8 * (width - 1 - i))) & 0xff);
}

/** The entries' rows, each Up-predicted against the row above (`/Predictor 12`), deflated. */
function xrefRows(entries: Entry[]): Buffer {
  const rows = entries.map((entry) =>
    entry.type === 1
      ? [1, ...field(entry.offset, 4), ...field(0, 2)]
      : [2, ...field(entry.container, 4), ...field(entry.index, 2)],
  );
  const predicted = rows.flatMap((row, r) => [2, ...row.map((byte, i) => (byte - (rows[r - 1]?.[i] ?? 0)) & 0xff)]);
  return deflateSync(Buffer.from(predicted));
}

class Writer {
  readonly chunks: Buffer[] = [];
  length = 0;

  write(text: string | Buffer): void {
    const chunk = typeof text === "string" ? Buffer.from(text, "latin1") : text;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** Writes the object and answers where it starts. */
  object(num: number, body: string, data?: Buffer): number {
    const offset = this.length;
    this.write(`${num} 0 obj\r\n${body}`);
    if (data) {
      this.write("\r\nstream\r\n");
      this.write(data);
      this.write("\r\nendstream");
    }
    this.write("\r\nendobj\r\n");
    return offset;
  }

  xref(num: number, index: number[], entries: Entry[], trailer: string): void {
    const rows = xrefRows(entries);
    const offset = this.object(
      num,
      `<</Type/XRef/Size ${num + 1}/W[${WIDTHS.join(" ")}]/Index[${index.join(" ")}]${trailer}` +
        `/Filter/FlateDecode/DecodeParms<</Predictor 12/Columns ${WIDTHS.reduce((a, b) => a + b)}>>/Length ${rows.length}>>`,
      rows,
    );
    this.write(`startxref\r\n${offset}\r\n%%EOF\r\n`);
  }
}

function content(lines: readonly string[]): Buffer {
  const text = lines.map((line, i) => `1 0 0 1 72 ${720 - 20 * i} Tm ${pdfString(line)} Tj`).join("\n");
  return deflateSync(Buffer.from(`BT /F1 14 Tf\n${text}\nET`, "latin1"));
}

export interface CarrierPdfOptions {
  /** The page's lines of text; the title alone by default. */
  lines?: readonly string[];
  /** Lines an incremental update writes over the first ones: a new content object and a section with `/Prev`. */
  revisedLines?: readonly string[];
}

export function carrierPdf(title: string, options: CarrierPdfOptions = {}): Buffer {
  const out = new Writer();
  out.write("%PDF-1.5\r\n%\xe2\xe3\xcf\xd3\r\n");
  const packed = [
    "<</Type/Catalog/Pages 2 0 R>>",
    "<</Type/Pages/Kids[3 0 R]/Count 1/MediaBox[0 0 612 792]/Resources<</Font<</F1 4 0 R>>>>>>",
    "<</Type/Page/Parent 2 0 R/Contents 5 0 R>>",
    "<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>",
  ];
  let header = "";
  let body = "";
  packed.forEach((object, index) => {
    header += `${index + 1} ${body.length} `;
    body += `${object}\n`;
  });
  const objects = deflateSync(Buffer.from(header + body, "latin1"));
  const stream = content(options.lines ?? [title]);
  const offsets = [
    out.object(5, "<</Filter/FlateDecode/Length 6 0 R>>", stream),
    out.object(6, String(stream.length)),
    out.object(7, `<</Title ${pdfString(title)}/Producer(Carrier label software)>>`),
    out.object(8, `<</Type/ObjStm/N 4/First ${header.length}/Filter/FlateDecode/Length ${objects.length}>>`, objects),
  ];
  const xrefAt = out.length;
  const packedEntries = packed.map((_, index): Entry => ({ type: 2, container: 8, index }));
  const plainEntries = offsets.map((offset): Entry => ({ type: 1, offset }));
  // Object 0 and the stream itself are left out: two subsections, 1–4 and 5–8.
  out.xref(9, [1, 4, 5, 4], [...packedEntries, ...plainEntries], "/Root 1 0 R/Info 7 0 R");
  if (options.revisedLines) {
    const revised = content(options.revisedLines);
    const offset = out.object(5, `<</Filter/FlateDecode/Length ${revised.length}>>`, revised);
    out.xref(10, [5, 1], [{ type: 1, offset }], `/Root 1 0 R/Info 7 0 R/Prev ${xrefAt}`);
  }
  return Buffer.concat(out.chunks);
}
