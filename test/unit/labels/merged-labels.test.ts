import { describe, expect, it } from "vitest";
import { mergedPdf, type StoredDocument } from "../../../src/labels/manifest/merged-labels.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { carrierPdf } from "../../stand-ins/carrier-pdf.js";
import { labelRequest } from "./label-requests.js";
import { rasterisePdf, readPdf, resavePdf, scanPdf, scanRaster } from "./label-tools.js";

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

const pdfDocument = (fileName: string, bytes: Buffer): StoredDocument => ({
  fileName,
  bytes,
  format: "pdf",
  widthIn: 4,
  heightIn: 6,
});

async function merged(documents: StoredDocument[]): Promise<{ pdf: Buffer; leftOut: string[] }> {
  const leftOut: string[] = [];
  async function* stored() {
    yield* documents;
  }
  const pdf = await collect(mergedPdf(stored(), (fileName) => leftOut.push(fileName)));
  return { pdf, leftOut };
}

describe("merged batch file", () => {
  it("copies a carrier's PDF 1.5 (object streams, a cross-reference stream, an inherited page size and font)", async () => {
    const label = carrierPdf("USPS label 9400100000000000000001", {
      lines: ["USPS GROUND ADVANTAGE", "9400 1000 0000 0000 0000 01"],
    });
    const { pdf, leftOut } = await merged([pdfDocument("label.pdf", label)]);
    expect(leftOut).toEqual([]);
    const reading = readPdf(pdf);
    expect(reading.warnings).toEqual([]);
    expect(reading.pageCount).toBe(1);
    expect(reading.pageSizes).toEqual([[612, 792]]);
    expect(reading.text).toContain("USPS GROUND ADVANTAGE");
    expect(reading.text).toContain("9400 1000 0000 0000 0000 01");
    expect(reading.fonts.map((font) => font.name)).toEqual(["Helvetica"]);
  });

  it("copies the newest version of a page after an incremental update", async () => {
    const form = carrierPdf("SCAN form", { lines: ["DRAFT"], revisedLines: ["PS Form 5630 final"] });
    const { pdf } = await merged([pdfDocument("form.pdf", form)]);
    const reading = readPdf(pdf);
    expect(reading.warnings).toEqual([]);
    expect(reading.text).toContain("PS Form 5630 final");
    expect(reading.text).not.toContain("DRAFT");
  });

  it("copies labels saved by another PDF writer page for page, their barcodes still scanning", async () => {
    const label = (await renderLabel(labelRequest("usps", { format: "pdf" }))).bytes;
    const symbols = await scanPdf(label);
    expect(symbols.length).toBeGreaterThan(0);
    const objectStreams = resavePdf(label, "compress,objstms");
    expect(objectStreams.toString("latin1")).toMatch(/\/Type\s*\/ObjStm/);
    expect(objectStreams.toString("latin1")).not.toMatch(/\bxref\s/);
    const compactTable = resavePdf(label, "compress");
    const { pdf, leftOut } = await merged([
      pdfDocument("porter.pdf", label),
      pdfDocument("object-streams.pdf", objectStreams),
      pdfDocument("compact-table.pdf", compactTable),
    ]);
    expect(leftOut).toEqual([]);
    const reading = readPdf(pdf);
    expect(reading.warnings).toEqual([]);
    expect(reading.pageCount).toBe(3);
    expect(reading.pageSizes).toEqual([
      [288, 432],
      [288, 432],
      [288, 432],
    ]);
    for (let page = 0; page < 3; page++) expect(await scanRaster(rasterisePdf(pdf, 300, page))).toEqual(symbols);
  });

  it("leaves out a file that cannot be read and names it, keeping the others", async () => {
    const good = carrierPdf("Good label");
    const cutShort = good.subarray(0, good.length / 2);
    const notAPdf = Buffer.from("%PDF-1.7\n% a label that is only a comment\n%%EOF\n", "latin1");
    const { pdf, leftOut } = await merged([
      pdfDocument("cut-short.pdf", cutShort),
      pdfDocument("good.pdf", good),
      pdfDocument("not-a-pdf.pdf", notAPdf),
    ]);
    expect(leftOut).toEqual(["cut-short.pdf", "not-a-pdf.pdf"]);
    const reading = readPdf(pdf);
    expect(reading.warnings).toEqual([]);
    expect(reading.pageCount).toBe(1);
    expect(reading.text).toContain("Good label");
  });
});
