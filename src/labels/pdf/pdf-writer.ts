/**
 * PDF written directly, without a document library: the page is the label stock in points, text
 * is real Helvetica text (so it can be searched and copied), bars and modules are filled
 * rectangles and MaxiCode hexagons one form XObject placed many times. A label needs none of a
 * library's per-document font parsing and per-operator bookkeeping, which cost more than the
 * drawing itself.
 */
import { placeBars } from "../barcodes/linear-symbol.js";
import { darkRuns, type MaxiCodeSymbol, matrixSymbol, placeGrid } from "../barcodes/matrix-symbol.js";
import { hexagonCorners, maxiCodeGeometry } from "../barcodes/maxicode-geometry.js";
import {
  CAP_HEIGHT_EM,
  type ImageItem,
  type LabelDrawing,
  type LinearBarcodeItem,
  type MatrixCodeItem,
  type TextItem,
  type VoidOverlayItem,
} from "../drawing.js";
import { textWidthIn } from "../text/text-metrics.js";
import { VOID_STROKE_IN, voidTextSizeIn } from "../text/void-text.js";
import { labelDocument } from "./label-document.js";
import { circlePath, num, PageContent, polygonPath, rectanglePath, type XObject } from "./page-content.js";
import { type PdfImage, pdfImage } from "./pdf-image.js";

const POINTS_PER_INCH = 72;

function pt(inches: number): number {
  return inches * POINTS_PER_INCH;
}

/** The first baseline sits one cap height below the item's top. */
function text(page: PageContent, item: TextItem): void {
  const lines = item.lines.map((line, index) => {
    const free = item.width - textWidthIn(line, item.sizePt, item.weight);
    const x = item.x + (item.align === "center" ? free / 2 : item.align === "right" ? free : 0);
    const baseline = pt(item.y + index * item.lineHeight) + CAP_HEIGHT_EM * item.sizePt;
    return { x: pt(x), baseline, text: line };
  });
  page.text(lines, { weight: item.weight, sizePt: item.sizePt, white: item.reverse === true });
}

function linearBarcode(page: PageContent, item: LinearBarcodeItem): void {
  const bars = placeBars(item).bars.map(([left, width]) =>
    rectanglePath(pt(left), pt(item.y), pt(width), pt(item.height)),
  );
  page.fill(bars);
}

/** One hexagon as a form XObject: placing it costs a third of the bytes of writing each outline. */
function hexagonForm(radius: number): XObject {
  const box = [-radius, -radius, radius, radius].map(num).join(" ");
  return {
    entries: `/Type /XObject /Subtype /Form /BBox [${box}]`,
    data: Buffer.from(`0 g ${polygonPath(hexagonCorners(0, 0, radius))} f`, "latin1"),
  };
}

function maxiCode(page: PageContent, item: MatrixCodeItem, symbol: MaxiCodeSymbol): void {
  const geometry = maxiCodeGeometry(symbol, item.width);
  const hexagon = hexagonForm(pt(geometry.hexagonRadius));
  page.stamp(
    hexagon,
    geometry.centres.map(([x, y]) => [pt(item.x + x), pt(item.y + y)]),
  );
  const centreX = pt(item.x + geometry.finderX);
  const centreY = pt(item.y + geometry.finderY);
  const rings = geometry.rings.flatMap(([inner, outer]) => [
    circlePath(centreX, centreY, pt(outer)),
    circlePath(centreX, centreY, pt(inner)),
  ]);
  page.fill(rings, "f*");
}

function matrixCode(page: PageContent, item: MatrixCodeItem): void {
  const symbol = matrixSymbol(item);
  if (symbol.kind === "maxicode") {
    maxiCode(page, item, symbol);
    return;
  }
  const place = placeGrid(item, symbol);
  const runs = darkRuns(symbol).map(([column, row, length]) => rectanglePath(column, row, length, 1));
  page.fillIn([pt(place.moduleWidth), 0, 0, pt(place.moduleHeight), pt(place.x), pt(place.y)], runs);
}

/** Fitted inside the box keeping its aspect ratio, centred. */
function image(page: PageContent, item: ImageItem, embedded: PdfImage): void {
  const boxWidth = pt(item.width);
  const boxHeight = pt(item.height);
  const fit = Math.min(boxWidth / embedded.width, boxHeight / embedded.height);
  const width = embedded.width * fit;
  const height = embedded.height * fit;
  const x = pt(item.x) + (boxWidth - width) / 2;
  const y = pt(item.y) + (boxHeight - height) / 2;
  // An image fills the unit square with its first row at the top: flip it into the top-down space.
  page.paint(embedded.xobject, [width, 0, 0, -height, x, y + height]);
}

/** Outlined letters, so the bars stay visible under them. */
function voidOverlay(page: PageContent, item: VoidOverlayItem): void {
  const sizePt = pt(voidTextSizeIn(item));
  const width = pt(textWidthIn(item.text, sizePt, "bold"));
  const centreX = pt(item.x + item.width / 2);
  const centreY = pt(item.y + item.height / 2);
  page.isolated(() => {
    page.rotate(item.angleDeg, centreX, centreY);
    const line = { x: centreX - width / 2, baseline: centreY + (CAP_HEIGHT_EM * sizePt) / 2, text: item.text };
    page.text([line], { weight: "bold", sizePt, outlineWidth: pt(VOID_STROKE_IN) });
  });
}

async function draw(page: PageContent, drawing: LabelDrawing): Promise<void> {
  for (const item of drawing.items) {
    switch (item.kind) {
      case "text":
        text(page, item);
        break;
      case "rect":
        page.fill([rectanglePath(pt(item.x), pt(item.y), pt(item.width), pt(item.height))]);
        break;
      case "box": {
        // The border lies inside the box: stroke along the middle of its thickness.
        const inset = item.thickness / 2;
        page.strokeRectangle(
          pt(item.x + inset),
          pt(item.y + inset),
          pt(item.width - item.thickness),
          pt(item.height - item.thickness),
          pt(item.thickness),
        );
        break;
      }
      case "linear-barcode":
        linearBarcode(page, item);
        break;
      case "matrix-code":
        matrixCode(page, item);
        break;
      case "image":
        image(page, item, await pdfImage(item.base64));
        break;
      case "void-overlay":
        voidOverlay(page, item);
        break;
    }
  }
}

/** A drawing as one page's content, `scale` enlarging or shrinking it, with its size in points. */
export async function drawPage(
  drawing: LabelDrawing,
  scale = 1,
): Promise<{ widthPt: number; heightPt: number; content: PageContent }> {
  const widthPt = pt(drawing.widthIn) * scale;
  const heightPt = pt(drawing.heightIn) * scale;
  const content = new PageContent(heightPt, scale);
  await draw(content, drawing);
  return { widthPt, heightPt, content };
}

/** `scale` enlarges or shrinks the whole page (label_scale). */
export async function writePdf(drawing: LabelDrawing, scale: number): Promise<Buffer> {
  const { widthPt, heightPt, content } = await drawPage(drawing, scale);
  return labelDocument(widthPt, heightPt, content);
}
