import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { mergedPdf } from "../../../src/labels/manifest/merged-labels.js";
import { decodeStream } from "../../../src/labels/pdf/pdf-filters.js";
import { readPages } from "../../../src/labels/pdf/pdf-reader.js";
import { dictOf, PdfLexer, writeValue } from "../../../src/labels/pdf/pdf-syntax.js";
import { readPdf } from "./label-tools.js";

const dict = (text: string) => {
  const value = dictOf(new PdfLexer(Buffer.from(text, "latin1")).value(0).value);
  if (!value) throw new Error(`not a dictionary: ${text}`);
  return value;
};

/**
 * A PDF with a classic table as older or sloppier writers make them: CR LF line ends, a comment,
 * a nested page tree passing its rotation down, a stream whose `/Length` is wrong, a string that
 * looks like a reference, a name with an escaped space, and a hybrid section whose table leaves
 * the font to a cross-reference stream (`/XRefStm`).
 */
function classicPdf(): Buffer {
  const parts: string[] = ["%PDF-1.4\r\n% written by hand\r\n"];
  const offsets = new Map<number, number>();
  const at = () => Buffer.byteLength(parts.join(""), "latin1");
  const object = (num: number, body: string) => {
    offsets.set(num, at());
    parts.push(`${num} 0 obj\r\n${body}\r\nendobj\r\n`);
  };
  const content = "BT /F#20One 14 Tf 72 720 Td (Invoice \\(3 0 R\\) 42) Tj ET";
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 /Rotate 90 /MediaBox [0 0 612 792] >>");
  object(3, "<< /Type /Pages /Parent 2 0 R /Kids [5 0 R] /Count 1 >>");
  object(4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  object(
    5,
    "<< /Type /Page /Parent 3 0 R /Resources << /Font << /F#20One 4 0 R >> >> /Contents 6 0 R /Note (see 1 0 R) >>",
  );
  object(6, `<< /Length 999 >>\r\nstream\r\n${content}\r\nendstream`);
  const rows = Buffer.from([1, ...[0, 0, 0, 0], 0]);
  rows.writeUInt32BE(offsets.get(4) ?? 0, 1);
  const hidden = at();
  parts.push(
    `7 0 obj\r\n<< /Type /XRef /Size 8 /W [1 4 1] /Index [4 1] /Length ${rows.length} >>\r\nstream\r\n`,
    rows.toString("latin1"),
    "\r\nendstream\r\nendobj\r\n",
  );
  const table = at();
  const entry = (num: number) => `${String(offsets.get(num)).padStart(10, "0")} 00000 n\r\n`;
  parts.push(
    "xref\r\n0 4\r\n0000000000 65535 f\r\n",
    entry(1),
    entry(2),
    entry(3),
    "5 2\r\n",
    entry(5),
    entry(6),
    `trailer\r\n<< /Size 8 /Root 1 0 R /XRefStm ${hidden} >>\r\nstartxref\r\n${table}\r\n%%EOF\r\n`,
  );
  return Buffer.from(parts.join(""), "latin1");
}

describe("PDF reader", () => {
  it("undoes each PNG predictor row type: None, Sub, Up, Average, Paeth", () => {
    const rows = [
      [0, 10, 20, 30],
      [1, 5, 1, 1],
      [2, 1, 1, 1],
      [3, 0, 0, 0],
      [4, 1, 1, 1],
    ];
    const decoded = decodeStream(
      dict("<< /Filter /FlateDecode /DecodeParms << /Predictor 15 /Columns 3 >> >>"),
      deflateSync(Buffer.from(rows.flat())),
      (value) => value,
    );
    expect([...decoded]).toEqual([10, 20, 30, 5, 6, 7, 6, 7, 8, 3, 5, 6, 4, 6, 7]);
  });

  it("reads a hand-written classic file: inherited rotation and size, a wrong length, a hybrid section", () => {
    const { pages, objects } = readPages(classicPdf());
    expect(pages).toHaveLength(1);
    const page = pages[0]?.dict.entries;
    expect(page?.has("Parent")).toBe(false);
    expect(writeValue(page?.get("Rotate") ?? { kind: "atom", text: "none" }, () => "")).toBe("90");
    expect(writeValue(page?.get("MediaBox") ?? { kind: "atom", text: "none" }, () => "")).toBe("[0 0 612 792]");
    expect([...objects.keys()].sort()).toEqual([4, 6]);
    expect(objects.get(6)?.stream?.toString("latin1")).toBe(
      "BT /F#20One 14 Tf 72 720 Td (Invoice \\(3 0 R\\) 42) Tj ET",
    );
  });

  it("copies that file into a sound merged PDF, strings and names as they were", async () => {
    async function* documents() {
      yield { fileName: "invoice.pdf", bytes: classicPdf(), format: "pdf", widthIn: 8.5, heightIn: 11 };
    }
    const parts: Buffer[] = [];
    for await (const chunk of mergedPdf(documents())) parts.push(chunk);
    const merged = Buffer.concat(parts);
    expect(merged.toString("latin1")).toContain("/Note (see 1 0 R)");
    const reading = readPdf(merged);
    expect(reading.warnings).toEqual([]);
    expect(reading.pageSizes).toEqual([[792, 612]]);
    expect(reading.text).toContain("Invoice (3 0 R) 42");
    expect(reading.fonts.map((font) => font.name)).toEqual(["Helvetica"]);
  });
});
