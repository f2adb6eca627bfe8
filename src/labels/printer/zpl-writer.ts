/**
 * ZPL II for Zebra printers: every drawing item becomes native commands, so the printer renders
 * text, bars and 2D symbols itself. Coordinates are dots at 203 dpi; ^CI28 makes field data UTF-8
 * and ^FH lets field data carry `_XX` hex escapes for control and command characters.
 */
import { placeBars } from "../barcodes/linear-symbol.js";
import { maxiCodeSecondaryMessage, pdf417Columns } from "../barcodes/matrix-symbol.js";
import type {
  ImageItem,
  LabelDrawing,
  LinearBarcodeItem,
  MatrixCodeItem,
  TextItem,
  VoidOverlayItem,
} from "../drawing.js";
import { greyImage, packBits } from "../images/label-image.js";
import { dots, fontDots, PRINTER_DPI } from "./printer-dots.js";

const JUSTIFICATION = { left: "L", center: "C", right: "R" } as const;
const PDF417_SECURITY_LEVEL = 3;

/** ^FH escapes: the escape character itself, command prefixes and control characters. */
export function fieldData(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    const escaped = code < 0x20 || code === 0x7f || char === "_" || char === "^" || char === "~";
    out += escaped ? `_${code.toString(16).padStart(2, "0").toUpperCase()}` : char;
  }
  return out;
}

/** Inside ^FB a backslash starts an escape (`\&` is a new line), so literal ones are doubled. */
function blockText(line: string): string {
  return fieldData(line).replace(/\\/g, "\\\\");
}

function text(item: TextItem): string {
  const height = fontDots(item.sizePt);
  const spacing = dots(item.lineHeight) - height;
  const block = `^FB${dots(item.width)},${item.lines.length},${spacing},${JUSTIFICATION[item.align]}`;
  const reverse = item.reverse ? "^FR" : "";
  return `^FO${dots(item.x)},${dots(item.y)}^A0N,${height},${height}${block}${reverse}^FH^FD${item.lines.map(blockText).join("\\&")}^FS`;
}

/** Filled when the border is as thick as the shorter side. */
function graphicBox(x: number, y: number, width: number, height: number, thickness: number): string {
  const w = Math.max(1, dots(width));
  const h = Math.max(1, dots(height));
  return `^FO${dots(x)},${dots(y)}^GB${w},${h},${Math.max(1, Math.min(dots(thickness), w, h))}^FS`;
}

/**
 * GS1-128 starts in subset C (`>;`) when every element is an even run of digits, else subset B
 * (`>:`); `>8` is FNC1. Plain Code 128 lets the printer pick subsets (mode A).
 */
function linearBarcode(item: LinearBarcodeItem): string {
  const { x, moduleWidth } = placeBars(item, PRINTER_DPI);
  const height = dots(item.height);
  const origin = `^FO${x},${dots(item.y)}^BY${moduleWidth}`;
  if (item.symbology === "code128") return `${origin}^BCN,${height},N,N,N,A^FH^FD${fieldData(item.data)}^FS`;
  return `${origin}^BCN,${height},N,N,N,N^FD${gs1Code128Data(item.elements)}^FS`;
}

/** ^BC field data (mode N) of GS1-128: each element after an FNC1. */
export function gs1Code128Data(elements: readonly string[]): string {
  const subsetC = elements.every((element) => /^(?:\d\d)+$/.test(element));
  return (subsetC ? ">;" : ">:") + elements.map((element) => `>8${element}`).join("");
}

function matrixCode(item: MatrixCodeItem): string {
  const origin = `^FO${dots(item.x)},${dots(item.y)}`;
  const moduleWidth = Math.max(1, dots(item.moduleWidth));
  switch (item.symbology) {
    case "datamatrix":
      return `${origin}^BXN,${moduleWidth},200^FH^FD${fieldData(item.data)}^FS`;
    case "pdf417": {
      const columns = pdf417Columns(item.width / item.moduleWidth);
      return `${origin}^BY${moduleWidth}^B7N,${3 * moduleWidth},${PDF417_SECURITY_LEVEL},${columns},,N^FH^FD${fieldData(item.data)}^FS`;
    }
    case "maxicode": {
      // High priority message: class of service, country, postal code; then the secondary message.
      const { mode, serviceClass, countryCode, postalCode } = item.message;
      const primary = `${serviceClass}${countryCode}${postalCode}`;
      return `${origin}^BD${mode},1,1^FH^FD${fieldData(primary + maxiCodeSecondaryMessage(item.message.fields))}^FS`;
    }
  }
}

async function image(item: ImageItem): Promise<string> {
  const grey = await greyImage(item.base64, dots(item.width), dots(item.height));
  const { bytesPerRow, data } = packBits(grey, 1);
  return `^FO${dots(item.x)},${dots(item.y)}^GFA,${data.length},${data.length},${bytesPerRow},${data.toString("hex").toUpperCase()}^FS`;
}

/** ZPL cannot rotate text freely: VOID prints level and reversed (^FR) over the barcode. */
function voidOverlay(item: VoidOverlayItem): string {
  const height = Math.min(dots(item.height * 0.8), Math.floor(dots(item.width) / (item.text.length * 0.9)));
  const top = dots(item.y) + Math.round((dots(item.height) - height) / 2);
  return `^FO${dots(item.x)},${top}^A0N,${height},${height}^FB${dots(item.width)},1,0,C^FR^FH^FD${fieldData(item.text)}^FS`;
}

export async function writeZpl(drawing: LabelDrawing): Promise<Buffer> {
  const commands = ["^XA", "^CI28", `^PW${dots(drawing.widthIn)}`, `^LL${dots(drawing.heightIn)}`, "^LH0,0"];
  for (const item of drawing.items) {
    switch (item.kind) {
      case "text":
        commands.push(text(item));
        break;
      case "rect":
        commands.push(graphicBox(item.x, item.y, item.width, item.height, Math.min(item.width, item.height)));
        break;
      case "box":
        commands.push(graphicBox(item.x, item.y, item.width, item.height, item.thickness));
        break;
      case "linear-barcode":
        commands.push(linearBarcode(item));
        break;
      case "matrix-code":
        commands.push(matrixCode(item));
        break;
      case "image":
        commands.push(await image(item));
        break;
      case "void-overlay":
        commands.push(voidOverlay(item));
        break;
    }
  }
  commands.push("^XZ");
  return Buffer.from(commands.join("\n"), "utf8");
}
