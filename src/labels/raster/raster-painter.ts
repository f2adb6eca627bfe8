/**
 * Paints a label drawing into a grey bitmap at a given resolution. Everything slow (glyph
 * atlases, images, the VOID stamp) is fetched first and concurrently; painting is then plain
 * pixel work.
 */
import { placeBars } from "../barcodes/linear-symbol.js";
import { darkRuns, matrixSymbol, placeGrid } from "../barcodes/matrix-symbol.js";
import { maxiCodeGeometry } from "../barcodes/maxicode-geometry.js";
import { CAP_HEIGHT_EM, type DrawingItem, type LabelDrawing, type MatrixCodeItem, type TextItem } from "../drawing.js";
import { type GreyImage, greyImage } from "../images/label-image.js";
import { characterWidth, textWidthIn } from "../text/text-metrics.js";
import { type GlyphAtlas, glyphAtlas } from "./glyph-atlas.js";
import { GreyBitmap } from "./grey-bitmap.js";
import { hexagonInk } from "./hexagon-ink.js";
import { voidStamp } from "./void-stamp.js";

/** What an item needs that has to be rendered or decoded before painting. */
type Prepared = GlyphAtlases | GreyImage | Uint8Array | null;

/** A text item's glyphs at a whole-pixel and a half-pixel offset. */
type GlyphAtlases = readonly [GlyphAtlas, GlyphAtlas];

function prepare(item: DrawingItem, pixelsPerInch: number): Promise<Prepared> {
  const px = (inches: number) => Math.round(inches * pixelsPerInch);
  switch (item.kind) {
    case "text": {
      const sizePx = (item.sizePt / 72) * pixelsPerInch;
      return Promise.all([glyphAtlas(sizePx, item.weight, 0), glyphAtlas(sizePx, item.weight, 0.5)]);
    }
    case "image":
      return greyImage(item.base64, px(item.width), px(item.height));
    case "void-overlay":
      return voidStamp(item, px(item.width), px(item.height));
    default:
      return Promise.resolve(null);
  }
}

function paintText(page: GreyBitmap, item: TextItem, atlases: GlyphAtlases, pixelsPerInch: number): void {
  const atlas = atlases[0];
  // Advances at the item's true size (an atlas is rendered at a size rounded to half a pixel).
  const scale = ((item.sizePt / 72) * pixelsPerInch) / 1000;
  item.lines.forEach((line, index) => {
    const free = item.width - textWidthIn(line, item.sizePt, item.weight);
    const offset = item.align === "center" ? free / 2 : item.align === "right" ? free : 0;
    let pen = (item.x + offset) * pixelsPerInch;
    const baseline = Math.round((item.y + index * item.lineHeight) * pixelsPerInch + CAP_HEIGHT_EM * atlas.sizePx);
    for (const char of line) {
      // Whole pixel and fraction of the pen: a fraction near a half takes the half-pixel glyphs.
      const whole = Math.floor(pen);
      const fraction = pen - whole;
      const half = fraction >= 0.25 && fraction < 0.75;
      const glyphs = half ? atlases[1] : atlas;
      const cell = glyphs.cells.get(char) ?? glyphs.cells.get("?");
      if (cell) {
        const dx = (half || fraction < 0.25 ? whole : whole + 1) - glyphs.originX + cell.inkLeft;
        const dy = baseline - glyphs.baseline + cell.inkTop;
        const width = cell.inkRight - cell.inkLeft;
        const height = cell.inkBottom - cell.inkTop;
        page.stamp(glyphs, cell.x + cell.inkLeft, cell.y + cell.inkTop, width, height, dx, dy, item.reverse);
      }
      pen += characterWidth(char, item.weight) * scale;
    }
  });
}

function paintMatrixCode(page: GreyBitmap, item: MatrixCodeItem, pixelsPerInch: number): void {
  const symbol = matrixSymbol(item);
  if (symbol.kind === "grid") {
    const place = placeGrid(item, symbol, pixelsPerInch);
    for (const [column, row, length] of darkRuns(symbol)) {
      const x = place.x + column * place.moduleWidth;
      const y = place.y + row * place.moduleHeight;
      page.fillRect(x, y, x + length * place.moduleWidth, y + place.moduleHeight);
    }
    return;
  }
  const left = item.x * pixelsPerInch;
  const top = item.y * pixelsPerInch;
  const geometry = maxiCodeGeometry(symbol, item.width * pixelsPerInch);
  // Every module is the same hexagon: rasterised once, then stamped like a glyph.
  const hexagon = hexagonInk(geometry.hexagonRadius);
  const half = Math.floor(hexagon.width / 2);
  for (const [x, y] of geometry.centres) {
    page.stamp(hexagon, 0, 0, hexagon.width, hexagon.width, Math.round(left + x) - half, Math.round(top + y) - half);
  }
  page.fillRings(left + geometry.finderX, top + geometry.finderY, geometry.rings);
}

function paint(page: GreyBitmap, item: DrawingItem, prepared: Prepared, pixelsPerInch: number): void {
  const px = (inches: number) => inches * pixelsPerInch;
  switch (item.kind) {
    case "text":
      paintText(page, item, prepared as GlyphAtlases, pixelsPerInch);
      break;
    case "rect":
      page.fillRect(px(item.x), px(item.y), px(item.x + item.width), px(item.y + item.height));
      break;
    case "box":
      page.strokeRect(px(item.x), px(item.y), px(item.width), px(item.height), Math.round(px(item.thickness)));
      break;
    case "linear-barcode":
      page.fillBars(placeBars(item, pixelsPerInch).bars, px(item.y), px(item.y + item.height));
      break;
    case "matrix-code":
      paintMatrixCode(page, item, pixelsPerInch);
      break;
    case "image": {
      const image = prepared as GreyImage;
      page.darken(image.pixels, image.width, image.height, Math.round(px(item.x)), Math.round(px(item.y)));
      break;
    }
    case "void-overlay": {
      const width = Math.round(px(item.width));
      const height = Math.round(px(item.height));
      const ink = prepared as Uint8Array;
      page.stamp({ width, ink }, 0, 0, width, height, Math.round(px(item.x)), Math.round(px(item.y)));
      break;
    }
  }
}

export async function paintLabel(drawing: LabelDrawing, pixelsPerInch: number): Promise<GreyBitmap> {
  const prepared = await Promise.all(drawing.items.map((item) => prepare(item, pixelsPerInch)));
  const page = new GreyBitmap(
    Math.round(drawing.widthIn * pixelsPerInch),
    Math.round(drawing.heightIn * pixelsPerInch),
  );
  for (const [index, item] of drawing.items.entries()) paint(page, item, prepared[index] ?? null, pixelsPerInch);
  return page;
}
