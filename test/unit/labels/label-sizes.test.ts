import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { LabelSize } from "../../../src/labels/label.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { labelRequest, USPS_PIC } from "./label-requests.js";
import { pdfMediaBox, scanImage } from "./label-tools.js";

interface SizeCase {
  size: LabelSize;
  dpi: number;
  pixels: [number, number];
  points: [number, number];
  dots: [number, number];
}

const SIZES: SizeCase[] = [
  { size: "4x6", dpi: 203, pixels: [812, 1218], points: [288, 432], dots: [812, 1218] },
  { size: "4x8", dpi: 203, pixels: [812, 1624], points: [288, 576], dots: [812, 1624] },
  { size: "8x11", dpi: 300, pixels: [2400, 3300], points: [576, 792], dots: [1624, 2233] },
  { size: "8.5x11", dpi: 300, pixels: [2550, 3300], points: [612, 792], dots: [1726, 2233] },
  { size: "2 5/16x4", dpi: 203, pixels: [469, 812], points: [166.5, 288], dots: [469, 812] },
  { size: "3 7/16x5 3/16", dpi: 203, pixels: [698, 1053], points: [247.5, 373.5], dots: [698, 1053] },
];

describe("label sizes", () => {
  it.each(SIZES)("$size: PNG at $dpi dpi, PDF page and ZPL print area", async ({ size, dpi, pixels, points, dots }) => {
    const png = await renderLabel(labelRequest("usps", { size, format: "png" }));
    const metadata = await sharp(png.bytes).metadata();
    expect([metadata.width, metadata.height]).toEqual(pixels);
    expect(metadata.density).toBe(dpi);
    expect(png.dpi).toBe(dpi);

    const pdf = await renderLabel(labelRequest("usps", { size, format: "pdf" }));
    expect(pdfMediaBox(pdf.bytes)).toEqual([0, 0, ...points]);

    const zpl = (await renderLabel(labelRequest("usps", { size, format: "zpl" }))).bytes.toString("utf8");
    expect(zpl).toContain(`^PW${dots[0]}\n^LL${dots[1]}`);
  });

  it.each(SIZES)("$size: the IMpb still scans", async ({ size }) => {
    const png = await renderLabel(labelRequest("usps", { size, format: "png" }));
    expect(await scanImage(png.bytes)).toContainEqual({ symbology: "GS1-128", text: `42094043\x1d${USPS_PIC}` });
  });
});

describe("label_scale", () => {
  it("enlarges PNG output and keeps the printer resolution", async () => {
    const label = await renderLabel(labelRequest("ups", { format: "png", scale: 2 }));
    const metadata = await sharp(label.bytes).metadata();
    expect([metadata.width, metadata.height, metadata.density]).toEqual([1624, 2436, 203]);
    expect([label.widthIn, label.heightIn]).toEqual([8, 12]);
  });

  it("shrinks the PDF page", async () => {
    const label = await renderLabel(labelRequest("ups", { format: "pdf", scale: 0.5 }));
    expect(pdfMediaBox(label.bytes)).toEqual([0, 0, 144, 216]);
  });

  it("is ignored by ZPL and EPL2, which print at true size", async () => {
    const zpl = (await renderLabel(labelRequest("ups", { format: "zpl", scale: 2 }))).bytes.toString("utf8");
    expect(zpl).toContain("^PW812\n^LL1218");
    const epl = (await renderLabel(labelRequest("ups", { format: "epl2", scale: 2 }))).bytes.toString("latin1");
    expect(epl).toContain("q812\nQ1218,");
  });

  it("is refused outside 0.5–2", async () => {
    await expect(renderLabel(labelRequest("ups", { format: "png", scale: 3 }))).rejects.toThrow(RangeError);
    await expect(renderLabel(labelRequest("ups", { format: "pdf", scale: 0.25 }))).rejects.toThrow(RangeError);
  });
});
