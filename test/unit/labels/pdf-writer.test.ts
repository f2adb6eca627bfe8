import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { CarrierCode } from "../../../src/carriers/catalogue.js";
import type { LabelContent, LabelRequest } from "../../../src/labels/label.js";
import { pdfString } from "../../../src/labels/pdf/pdf-string.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { labelRequest } from "./label-requests.js";
import { pdfGreyAt, readPdf } from "./label-tools.js";

async function pdfLabel(overrides: Partial<LabelRequest> = {}, carrier: CarrierCode = "usps"): Promise<Buffer> {
  return (await renderLabel(labelRequest(carrier, { ...overrides, format: "pdf" }))).bytes;
}

/** Checks the file's own bookkeeping: the xref offsets, the trailer's pointer to them and every stream's length. */
function expectSoundStructure(pdf: Buffer): void {
  const text = pdf.toString("latin1");
  expect(text.startsWith("%PDF-1.4\n")).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  const table = /^xref\n0 (\d+)\n/.exec(text.slice(startxref));
  expect(table).not.toBeNull();
  const count = Number(table?.[1]);
  const entries = text.slice(startxref + (table?.[0].length ?? 0)).match(/\d{10} \d{5} [fn] \n/g) ?? [];
  expect(entries).toHaveLength(count);
  entries.slice(1).forEach((entry, index) => {
    expect(text.startsWith(`${index + 1} 0 obj\n`, Number(entry.slice(0, 10)))).toBe(true);
  });
  for (const stream of text.matchAll(/\/Length (\d+) >>\nstream\n/g)) {
    const end = stream.index + stream[0].length + Number(stream[1]);
    expect(text.startsWith("\nendstream", end)).toBe(true);
  }
}

/** A 40 × 40 PNG: a black 20 × 20 square in the middle, transparent around it. */
async function squareWithTransparentMargin(): Promise<string> {
  const square = await sharp({ create: { width: 20, height: 20, channels: 4, background: "#000000ff" } })
    .png()
    .toBuffer();
  const png = await sharp({ create: { width: 40, height: 40, channels: 4, background: "#00000000" } })
    .composite([{ input: square, left: 10, top: 10 }])
    .png()
    .toBuffer();
  return png.toString("base64");
}

/** A black JPEG that stands upright 40 wide and 80 tall, stored either so or turned by EXIF orientation 6. */
async function portraitJpeg(orientation: 1 | 6): Promise<string> {
  const [width, height] = orientation === 1 ? [40, 80] : [80, 40];
  const jpeg = await sharp({ create: { width, height, channels: 3, background: "#000" } })
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();
  return jpeg.toString("base64");
}

describe("PDF writer", () => {
  it.each(["usps", "ups", "fed_ex"] as const)(
    "%s: a sound PDF 1.4, whose cross-reference offsets, trailer and stream lengths add up",
    async (carrier) => {
      expectSoundStructure(await pdfLabel({ testMode: true }, carrier));
    },
  );

  it.each([
    [1, [288, 432]],
    [2, [576, 864]],
    [0.5, [144, 216]],
  ])("at label_scale %s a reader draws one page of %s without complaint", async (scale, size) => {
    const pdf = readPdf(await pdfLabel({ scale, testMode: true }));
    expect(pdf.pageCount).toBe(1);
    expect(pdf.pageSizes).toEqual([size]);
    expect(pdf.title).toBe("Shipping label");
    expect(pdf.warnings).toEqual([]);
  });

  it("embeds the label font, cut down to the glyphs the label shows, so every viewer draws it alike", async () => {
    const pdf = await pdfLabel();
    const { fonts, warnings } = readPdf(pdf);
    expect(warnings).toEqual([]);
    expect(fonts).toEqual([
      {
        name: expect.stringMatching(/^[A-Z]{6}\+Arimo-Regular$/),
        subtype: "Type0",
        encoding: "Identity-H",
        embedded: true,
      },
      {
        name: expect.stringMatching(/^[A-Z]{6}\+Arimo-Bold$/),
        subtype: "Type0",
        encoding: "Identity-H",
        embedded: true,
      },
    ]);
    // Both weights of the whole repertoire would be over 20 KB; a label's glyphs are a fraction.
    expect(pdf.length).toBeLessThan(20_000);
  });

  it("writes the same bytes for the same label (the subset's name follows from its glyphs)", async () => {
    expect((await pdfLabel()).equals(await pdfLabel())).toBe(true);
  });

  it("keeps text searchable, with ( ) \\ and accented and typographic characters", async () => {
    const contents: LabelContent[] = [{ type: "text", text: "Zoë (B\\B) – “5 €” Łódź", x: 0.5, y: 3.6 }];
    const { text } = readPdf(await pdfLabel({ contents }));
    expect(text).toContain("Zoë (B\\B) – “5 €” Lódz");
  });

  it("lets a PNG's transparent pixels show the label beneath (soft mask)", async () => {
    const contents: LabelContent[] = [
      { type: "image", base64Image: await squareWithTransparentMargin(), x: 3, y: 3, width: 0.8, height: 0.8 },
    ];
    const pdf = await pdfLabel({ contents });
    expect(pdf.toString("latin1")).toContain("/SMask");
    const grey = pdfGreyAt(pdf, 100);
    expect(grey(3.4, 3.4)).toBeLessThan(64);
    expect(grey(3.1, 3.4)).toBeGreaterThan(192);
  });

  it("embeds an upright JPEG as it is", async () => {
    const contents: LabelContent[] = [{ type: "image", base64Image: await portraitJpeg(1), x: 3, y: 3 }];
    expect((await pdfLabel({ contents })).toString("latin1")).toContain("/Filter /DCTDecode");
  });

  it.each([1, 6] as const)(
    "fits a JPEG with EXIF orientation %s upright and centred in its box",
    async (orientation) => {
      const contents: LabelContent[] = [
        { type: "image", base64Image: await portraitJpeg(orientation), x: 3, y: 3, width: 0.8, height: 0.8 },
      ];
      const grey = pdfGreyAt(await pdfLabel({ contents }), 100);
      // 0.4 in wide and 0.8 in tall: dark in the middle, white either side of it in the box.
      expect(grey(3.4, 3.4)).toBeLessThan(64);
      expect(grey(3.1, 3.4)).toBeGreaterThan(192);
      expect(grey(3.7, 3.4)).toBeGreaterThan(192);
    },
  );
});

describe("PDF strings", () => {
  it("escapes the string delimiters and the backslash", () => {
    expect(pdfString("a(b)c\\d")).toBe("(a\\(b\\)c\\\\d)");
  });

  it("writes WinAnsi bytes: Latin-1 as it is, typographic marks at 0x80–0x9f", () => {
    expect(pdfString("é–€”")).toBe("(\xe9\x96\x80\x94)");
  });

  it("brings characters outside WinAnsi into the label repertoire", () => {
    expect(pdfString("Łódź 東")).toBe("(L\xf3dz ?)");
  });
});
