/**
 * PDF through pdfkit: the page is the label stock in points, text is real Helvetica text (so it
 * can be searched and copied), and bars, modules and hexagons are vector shapes.
 */
import PDFDocument from "pdfkit";
import { placeBars } from "../barcodes/linear-symbol.js";
import { darkRuns, matrixSymbol, placeGrid } from "../barcodes/matrix-symbol.js";
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

const POINTS_PER_INCH = 72;
const FONTS = { regular: "Helvetica", bold: "Helvetica-Bold" } as const;

type Document = PDFKit.PDFDocument;

function pt(inches: number): number {
  return inches * POINTS_PER_INCH;
}

function text(doc: Document, item: TextItem): void {
  doc
    .font(FONTS[item.weight])
    .fontSize(item.sizePt)
    .fillColor(item.reverse ? "white" : "black");
  item.lines.forEach((line, index) => {
    const free = item.width - textWidthIn(line, item.sizePt, item.weight);
    const x = item.x + (item.align === "center" ? free / 2 : item.align === "right" ? free : 0);
    // Without lineBreak pdfkit skips its line wrapper, which costs more than the text itself.
    doc.text(line, pt(x), pt(item.y + index * item.lineHeight), { lineBreak: false });
  });
  if (item.reverse) doc.fillColor("black");
}

/** Two decimals of a point are finer than any printer dot. */
function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function rectangle(x: number, y: number, width: number, height: number): string {
  return `${num(x)} ${num(y)} ${num(width)} ${num(height)} re`;
}

function polygon(corners: ReadonlyArray<readonly [number, number]>): string {
  return `${corners.map(([x, y], index) => `${num(x)} ${num(y)} ${index === 0 ? "m" : "l"}`).join(" ")} h`;
}

/**
 * Fills many shapes with one content-stream write: pdfkit's shape methods write (and convert to
 * bytes) every operator separately, which dominates the cost of a symbol's thousand shapes.
 * Coordinates are top-down points, the space pdfkit's own operators use.
 */
function fillShapes(doc: Document, shapes: readonly string[], rule: "f" | "f*" = "f"): void {
  if (shapes.length === 0) return;
  doc.fillColor("black");
  doc.addContent(`${shapes.join("\n")}\n${rule}`);
}

/**
 * One MaxiCode hexagon as a form XObject that every module places: a third of the bytes of
 * writing each outline, which pdfkit then converts and deflates.
 */
function hexagonForm(doc: Document, radius: number): string {
  const name = "MaxiCodeHexagon";
  const form = doc.ref({ Type: "XObject", Subtype: "Form", BBox: [-radius, -radius, radius, radius] });
  form.end(`0 g ${polygon(hexagonCorners(0, 0, radius))} f`);
  doc.page.xobjects[name] = form;
  return name;
}

function linearBarcode(doc: Document, item: LinearBarcodeItem): void {
  const bars = placeBars(item).bars.map(([left, width]) => rectangle(pt(left), pt(item.y), pt(width), pt(item.height)));
  fillShapes(doc, bars);
}

function matrixCode(doc: Document, item: MatrixCodeItem): void {
  const symbol = matrixSymbol(item);
  if (symbol.kind === "grid") {
    const place = placeGrid(item, symbol);
    const runs = darkRuns(symbol).map(([column, row, length]) =>
      rectangle(
        pt(place.x + column * place.moduleWidth),
        pt(place.y + row * place.moduleHeight),
        pt(length * place.moduleWidth),
        pt(place.moduleHeight),
      ),
    );
    fillShapes(doc, runs);
    return;
  }
  const geometry = maxiCodeGeometry(symbol, item.width);
  const hexagon = hexagonForm(doc, pt(geometry.hexagonRadius));
  const placements = geometry.centres.map(
    ([x, y]) => `q 1 0 0 1 ${num(pt(item.x + x))} ${num(pt(item.y + y))} cm /${hexagon} Do Q`,
  );
  doc.addContent(placements.join("\n"));
  const centreX = pt(item.x + geometry.finderX);
  const centreY = pt(item.y + geometry.finderY);
  for (const [inner, outer] of geometry.rings)
    doc.circle(centreX, centreY, pt(outer)).circle(centreX, centreY, pt(inner));
  doc.fill("black", "even-odd");
}

function image(doc: Document, item: ImageItem): void {
  try {
    doc.image(Buffer.from(item.base64, "base64"), pt(item.x), pt(item.y), {
      fit: [pt(item.width), pt(item.height)],
      align: "center",
      valign: "center",
    });
  } catch (error) {
    throw new RangeError(`label_contents image could not be decoded: ${(error as Error).message}`);
  }
}

/** Outlined letters, so the bars stay visible under them. */
function voidOverlay(doc: Document, item: VoidOverlayItem): void {
  const sizePt = pt(voidTextSizeIn(item));
  const width = pt(textWidthIn(item.text, sizePt, "bold"));
  const centreX = pt(item.x + item.width / 2);
  const centreY = pt(item.y + item.height / 2);
  doc.save();
  doc.rotate(-item.angleDeg, { origin: [centreX, centreY] });
  doc.font(FONTS.bold).fontSize(sizePt).lineWidth(pt(VOID_STROKE_IN)).strokeColor("black");
  doc.text(item.text, centreX - width / 2, centreY - (CAP_HEIGHT_EM * sizePt) / 2, {
    lineBreak: false,
    stroke: true,
    fill: false,
  });
  doc.restore();
}

function draw(doc: Document, drawing: LabelDrawing): void {
  for (const item of drawing.items) {
    switch (item.kind) {
      case "text":
        text(doc, item);
        break;
      case "rect":
        fillShapes(doc, [rectangle(pt(item.x), pt(item.y), pt(item.width), pt(item.height))]);
        break;
      case "box": {
        const inset = item.thickness / 2;
        doc
          .lineWidth(pt(item.thickness))
          .rect(
            pt(item.x + inset),
            pt(item.y + inset),
            pt(item.width - item.thickness),
            pt(item.height - item.thickness),
          )
          .stroke("black");
        break;
      }
      case "linear-barcode":
        linearBarcode(doc, item);
        break;
      case "matrix-code":
        matrixCode(doc, item);
        break;
      case "image":
        image(doc, item);
        break;
      case "void-overlay":
        voidOverlay(doc, item);
        break;
    }
  }
}

/** `scale` enlarges or shrinks the whole page (label_scale). */
export function writePdf(drawing: LabelDrawing, scale: number): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [pt(drawing.widthIn) * scale, pt(drawing.heightIn) * scale],
    margin: 0,
    info: { Title: "Shipping label", Producer: "Porter", Creator: "Porter" },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  try {
    if (scale !== 1) doc.scale(scale);
    draw(doc, drawing);
  } finally {
    doc.end();
  }
  return done;
}
