/**
 * The label font: raster labels draw the glyphs the PDF embeds, at the PDF's widths, with no two
 * glyphs touching and no text past its box or the label's edge, on a machine with no fonts.
 */
import { describe, expect, it } from "vitest";
import type { CarrierCode } from "../../../src/carriers/catalogue.js";
import { CAP_HEIGHT_EM, type FontWeight, type LabelDrawing, type TextItem } from "../../../src/labels/drawing.js";
import { LABEL_SIZES, type LabelSize } from "../../../src/labels/label.js";
import { labelFrame } from "../../../src/labels/label-frame.js";
import { layoutLabel } from "../../../src/labels/layout/layout-label.js";
import { writePdf } from "../../../src/labels/pdf/pdf-writer.js";
import { paintLabel } from "../../../src/labels/raster/raster-painter.js";
import { labelFont } from "../../../src/labels/text/label-font.js";
import { textWidthIn, wrapText } from "../../../src/labels/text/text-metrics.js";
import { labelRequest } from "./label-requests.js";
import { type GreyRaster, rasterisePdf } from "./label-tools.js";

const DPI = 203;
/** Darker than mid-grey is ink, as a scanner or an eye sees it. */
const INK = 128;
/**
 * Capitals and digits in words a label prints. Some pairs touch in the typeface itself at small
 * sizes, in the PDF as much as in a raster (AA, LA, VW, 43, as in Helvetica), and are left out.
 */
const SAMPLE =
  "SHIP TO JOHN RECEIVER 1600 MOUNTAIN VIEW CITY TX 78701 WEIGHT 2 LBS DIMS 10 8 6 BQXZ FEDEX PKG 1 OF 3 TRK # 7946 - 2/5";
const CARRIERS: CarrierCode[] = ["usps", "ups", "fed_ex", "dhl_express", "dhl_ecommerce"];

/** The sample wrapped onto as many lines as it takes at this size. */
function textDrawing(sizePt: number, weight: FontWeight): LabelDrawing {
  const lines = wrapText(SAMPLE, 3.8, sizePt, weight);
  const item: TextItem = {
    kind: "text",
    x: 0.1,
    y: 0.1,
    width: 3.8,
    lines,
    lineHeight: (sizePt / 72) * 1.2,
    sizePt,
    weight,
    align: "left",
  };
  return { widthIn: 4, heightIn: 0.2 + lines.length * item.lineHeight, items: [item] };
}

/**
 * The [left, right] pixel columns of each 8-connected patch of ink, left to right: one per glyph
 * when no two glyphs touch.
 */
function inkPatches(raster: GreyRaster): Array<[number, number]> {
  const { width, height, pixels } = raster;
  const seen = new Uint8Array(width * height);
  const patches: Array<[number, number]> = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || (pixels[start] ?? 255) >= INK) continue;
    let [left, right] = [width, 0];
    const stack = [start];
    seen[start] = 1;
    for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
      const x = at % width;
      const y = Math.floor(at / width);
      left = Math.min(left, x);
      right = Math.max(right, x);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          const next = ny * width + nx;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen[next] || (pixels[next] ?? 255) >= INK) continue;
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    patches.push([left, right]);
  }
  return patches.sort((a, b) => a[0] - b[0]);
}

async function rasterText(drawing: LabelDrawing): Promise<GreyRaster> {
  const page = await paintLabel(drawing, DPI);
  return { pixels: page.pixels, width: page.width, height: page.height };
}

describe("label font", () => {
  it("places the first baseline one cap height of the font below a text item's top", () => {
    for (const weight of ["regular", "bold"] as const) {
      expect(labelFont(weight).capHeight / 1000).toBeCloseTo(CAP_HEIGHT_EM, 3);
    }
  });

  it.each([
    [6, "regular"],
    [7, "regular"],
    [8, "bold"],
    [10, "bold"],
    [11, "bold"],
    [16, "bold"],
  ] as const)("raster text at %s pt %s: every glyph stands apart from its neighbours", async (sizePt, weight) => {
    const patches = inkPatches(await rasterText(textDrawing(sizePt, weight)));
    // Glyphs that touched would be fewer patches than glyphs (a hairline at 6 pt may fall apart).
    expect(patches.length).toBeGreaterThanOrEqual(SAMPLE.replace(/ /g, "").length);
  });

  it.each([
    [7, "regular"],
    [10, "bold"],
    [20, "bold"],
  ] as const)("raster text at %s pt %s puts each glyph where the PDF does", async (sizePt, weight) => {
    const wrapped = textDrawing(sizePt, weight);
    const first = wrapped.items[0] as TextItem;
    // One line, so that left to right is glyph order.
    const drawing = { ...wrapped, items: [{ ...first, lines: first.lines.slice(0, 1) }] };
    const raster = inkPatches(await rasterText(drawing));
    const pdf = inkPatches(rasterisePdf(await writePdf(drawing, 1), DPI));
    expect(raster).toHaveLength(pdf.length);
    raster.forEach(([left, right], index) => {
      const [pdfLeft, pdfRight] = pdf[index] as [number, number];
      // Glyph by glyph, the same place and width to a pixel (anti-aliasing differs at the edges).
      expect(Math.abs(left + right - pdfLeft - pdfRight) / 2).toBeLessThanOrEqual(1);
      expect(Math.abs(right - left - (pdfRight - pdfLeft))).toBeLessThanOrEqual(2);
    });
    // And the ink ends where the layout measured the text to end.
    const widest = Math.max(...(drawing.items[0] as TextItem).lines.map((line) => textWidthIn(line, sizePt, weight)));
    const measuredRight = (0.1 + widest) * DPI;
    expect(Math.max(...raster.map(([, right]) => right))).toBeLessThanOrEqual(Math.ceil(measuredRight));
  });

  it.each(CARRIERS.flatMap((carrier) => LABEL_SIZES.map((size) => [carrier, size] as [CarrierCode, LabelSize])))(
    "%s %s: with the longest address lines, no text runs past its box or the label's edge",
    async (carrier, size) => {
      const long = "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW";
      const address = { address1: long, address2: long, company: long, city: "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMM" };
      const request = labelRequest(carrier, { size, format: "png" });
      const frame = labelFrame(size);
      const drawing = layoutLabel({ ...request, to: { ...request.to, ...address } }, frame);
      const text = drawing.items.filter((item): item is TextItem => item.kind === "text");
      for (const item of text) {
        for (const line of item.lines)
          expect(textWidthIn(line, item.sizePt, item.weight)).toBeLessThanOrEqual(item.width + 1e-9);
        expect(item.x).toBeGreaterThanOrEqual(0);
        expect(item.x + item.width).toBeLessThanOrEqual(frame.pageWidthIn + 1e-9);
      }
      // Painted, the text alone leaves the label's outermost columns bare.
      const raster = await rasterText({ ...drawing, items: text.filter((item) => !item.reverse) });
      const patches = inkPatches(raster);
      expect(Math.min(...patches.map(([left]) => left))).toBeGreaterThan(0);
      expect(Math.max(...patches.map(([, right]) => right))).toBeLessThan(raster.width - 1);
    },
  );
});
