/**
 * The test-label VOID marking as ink: outlined bold letters turned by the item's angle. Every
 * test label of a size has the same stamp, so stamps are kept.
 */
import { BoundedMap } from "../../bounded-map.js";
import { CAP_HEIGHT_EM, type VoidOverlayItem } from "../drawing.js";
import { labelFont } from "../text/label-font.js";
import { textWidthIn } from "../text/text-metrics.js";
import { VOID_STROKE_IN, voidTextSizeIn } from "../text/void-text.js";
import { svgInk } from "./svg-raster.js";

const CACHE_LIMIT = 16;
const stamps = new BoundedMap<string, Promise<Uint8Array>>(CACHE_LIMIT);

function render(item: VoidOverlayItem, width: number, height: number): Promise<Uint8Array> {
  const pixelsPerInch = width / item.width;
  const sizePx = voidTextSizeIn(item) * pixelsPerInch;
  const stroke = Math.max(1, VOID_STROKE_IN * pixelsPerInch);
  const cx = width / 2;
  const cy = height / 2;
  // The bold label font's outlines laid end to end by their advances, as the PDF draws them; the
  // stroke is widened by the glyphs' scale, which shrinks it with them.
  const font = labelFont("bold");
  const scale = sizePx / font.unitsPerEm;
  let pen = -(textWidthIn(item.text, 72, "bold") * sizePx) / 2;
  let glyphs = "";
  for (const char of item.text) {
    const glyph = font.glyphs.get(char);
    if (glyph?.path)
      glyphs += `<path transform="translate(${pen} 0) scale(${scale} ${-scale})" stroke-width="${stroke / scale}" d="${glyph.path}"/>`;
    pen += ((glyph?.width ?? 0) / 1000) * sizePx;
  }
  const markup =
    `<g transform="rotate(${-item.angleDeg} ${cx} ${cy}) translate(${cx} ${cy + (CAP_HEIGHT_EM * sizePx) / 2})" ` +
    `fill="none" stroke="#000">${glyphs}</g>`;
  return svgInk(width, height, markup);
}

/** Ink of the stamp for an item painted width × height pixels large. */
export function voidStamp(item: VoidOverlayItem, width: number, height: number): Promise<Uint8Array> {
  const key = `${item.text}:${item.angleDeg}:${width}x${height}`;
  let stamp = stamps.get(key);
  if (!stamp) {
    stamp = render(item, width, height).catch((error: unknown) => {
      stamps.delete(key);
      throw error;
    });
    stamps.set(key, stamp);
  }
  return stamp;
}
