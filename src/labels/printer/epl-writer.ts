/**
 * EPL2 for Eltron/Zebra desktop printers: native text, lines, bar codes and 2D symbols in dots
 * at 203 dpi. EPL2 fonts are fixed-pitch bitmaps, so text is placed and fitted by counting cells.
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
import { asciiText } from "../text/label-text.js";
import { dots, fontDots, PRINTER_DPI } from "./printer-dots.js";

/** Resident fonts 1–4 at 203 dpi: cell height and character pitch (glyph plus gap) in dots. */
const FONTS = [
  { id: 1, height: 12, pitch: 10 },
  { id: 2, height: 16, pitch: 12 },
  { id: 3, height: 20, pitch: 14 },
  { id: 4, height: 24, pitch: 16 },
] as const;
const MULTIPLIERS = [1, 2, 3, 4, 5, 6, 8] as const;
/** An EPL2 cell is about 0.85 em of the Helvetica it stands in for. */
const CELL_TO_EM = 0.85;
/** Gap between labels on standard die-cut stock. */
const LABEL_GAP_DOTS = 24;

interface FontChoice {
  id: number;
  multiplier: number;
  pitch: number;
  height: number;
}

const CHOICES: readonly FontChoice[] = FONTS.flatMap((font) =>
  MULTIPLIERS.map((multiplier) => ({
    id: font.id,
    multiplier,
    pitch: font.pitch * multiplier,
    height: font.height * multiplier,
  })),
);
const SMALLEST = CHOICES[0] as FontChoice;

/** The font closest to the wanted height whose cells fit the width; else the smallest. */
function chooseFont(sizePt: number, characters: number, widthDots: number): FontChoice {
  const target = fontDots(sizePt) * CELL_TO_EM;
  const fitting = CHOICES.filter((choice) => choice.pitch * characters <= widthDots);
  const candidates = fitting.length > 0 ? fitting : [SMALLEST];
  return candidates.reduce((best, choice) =>
    Math.abs(choice.height - target) < Math.abs(best.height - target) ? choice : best,
  );
}

/** EPL2 quoted data: backslash and double quote are escaped with a backslash. */
function quoted(data: string): string {
  return `"${data.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

function text(item: TextItem): string[] {
  const width = dots(item.width);
  const lineHeight = dots(item.lineHeight);
  return item.lines.map((rawLine, index) => {
    const ascii = asciiText(rawLine);
    const font = chooseFont(item.sizePt, ascii.length, width);
    const line = ascii.slice(0, Math.max(1, Math.floor(width / font.pitch)));
    const lineWidth = line.length * font.pitch;
    const offset = item.align === "center" ? (width - lineWidth) / 2 : item.align === "right" ? width - lineWidth : 0;
    const x = dots(item.x) + Math.max(0, Math.round(offset));
    const y = dots(item.y) + index * lineHeight;
    const reverse = item.reverse ? "R" : "N";
    return `A${x},${y},0,${font.id},${font.multiplier},${font.multiplier},${reverse},${quoted(line)}`;
  });
}

/**
 * Bar code types: `1` Code 128 with automatic subsets, `1E` UCC/EAN-128. ⚠ EPL2 has no FNC1
 * separator inside the data, so GS1 elements are concatenated (same digits, no GS when decoded).
 */
function linearBarcode(item: LinearBarcodeItem): string {
  const { x, moduleWidth } = placeBars(item, PRINTER_DPI);
  const type = item.symbology === "code128" ? "1" : "1E";
  const data = item.symbology === "code128" ? item.data : item.elements.join("");
  // Code 128 ignores the wide-bar width, but EPL2 still wants it within 2–30.
  return `B${x},${dots(item.y)},0,${type},${moduleWidth},${Math.max(2, moduleWidth)},${dots(item.height)},N,${quoted(data)}`;
}

function matrixCode(item: MatrixCodeItem): string {
  const origin = `b${dots(item.x)},${dots(item.y)}`;
  const moduleWidth = Math.max(1, dots(item.moduleWidth));
  switch (item.symbology) {
    case "datamatrix":
      return `${origin},D,h${moduleWidth},${quoted(item.data)}`;
    case "pdf417": {
      const columns = pdf417Columns(item.width / item.moduleWidth);
      const size = `${dots(item.width)},${dots(item.height)}`;
      return `${origin},P,${size},f0,x${Math.max(2, moduleWidth)},y${3 * moduleWidth},l${columns},${quoted(item.data)}`;
    }
    case "maxicode": {
      const { mode, serviceClass, countryCode, postalCode } = item.message;
      const data = `${serviceClass},${countryCode},${postalCode},${maxiCodeSecondaryMessage(item.message.fields)}`;
      return `${origin},M,m${mode},${quoted(data)}`;
    }
  }
}

/** GW takes raw bitmap bytes, 0 bits printing black. */
async function image(item: ImageItem): Promise<Buffer> {
  const grey = await greyImage(item.base64, dots(item.width), dots(item.height));
  const { bytesPerRow, data } = packBits(grey, 0);
  const header = Buffer.from(`GW${dots(item.x)},${dots(item.y)},${bytesPerRow},${grey.height},`, "latin1");
  return Buffer.concat([header, data, Buffer.from("\n", "latin1")]);
}

/** EPL2 cannot rotate text freely: VOID prints level, white on black, over the barcode. */
function voidOverlay(item: VoidOverlayItem): string {
  const width = dots(item.width);
  const font = chooseFont((item.height * 0.8 * 72) / CELL_TO_EM, item.text.length, width);
  const x = dots(item.x) + Math.round((width - item.text.length * font.pitch) / 2);
  const y = dots(item.y) + Math.round((dots(item.height) - font.height) / 2);
  return `A${x},${y},0,${font.id},${font.multiplier},${font.multiplier},R,${quoted(asciiText(item.text))}`;
}

export async function writeEpl(drawing: LabelDrawing): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let commands = ["N", `q${dots(drawing.widthIn)}`, `Q${dots(drawing.heightIn)},${LABEL_GAP_DOTS}`];
  const flush = () => {
    chunks.push(Buffer.from(commands.map((command) => `${command}\n`).join(""), "latin1"));
    commands = [];
  };
  for (const item of drawing.items) {
    switch (item.kind) {
      case "text":
        commands.push(...text(item));
        break;
      case "rect":
        commands.push(
          `LO${dots(item.x)},${dots(item.y)},${Math.max(1, dots(item.width))},${Math.max(1, dots(item.height))}`,
        );
        break;
      case "box": {
        const right = dots(item.x + item.width);
        const bottom = dots(item.y + item.height);
        commands.push(`X${dots(item.x)},${dots(item.y)},${Math.max(1, dots(item.thickness))},${right},${bottom}`);
        break;
      }
      case "linear-barcode":
        commands.push(linearBarcode(item));
        break;
      case "matrix-code":
        commands.push(matrixCode(item));
        break;
      case "image":
        flush();
        chunks.push(await image(item));
        break;
      case "void-overlay":
        commands.push(voidOverlay(item));
        break;
    }
  }
  commands.push("P1");
  flush();
  return Buffer.concat(chunks);
}
