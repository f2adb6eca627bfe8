/**
 * The test-label VOID marking as ink: outlined bold letters turned by the item's angle. Every
 * test label of a size has the same stamp, so stamps are kept.
 */
import { CAP_HEIGHT_EM, type VoidOverlayItem } from "../drawing.js";
import { VOID_STROKE_IN, voidTextSizeIn } from "../text/void-text.js";
import { escapeXml, SANS_FONT_FAMILIES, svgInk } from "./svg-raster.js";

const CACHE_LIMIT = 16;
const stamps = new Map<string, Promise<Uint8Array>>();

function render(item: VoidOverlayItem, width: number, height: number): Promise<Uint8Array> {
  const pixelsPerInch = width / item.width;
  const sizePx = voidTextSizeIn(item) * pixelsPerInch;
  const stroke = Math.max(1, VOID_STROKE_IN * pixelsPerInch);
  const cx = width / 2;
  const cy = height / 2;
  const markup =
    `<text x="${cx}" y="${cy + (CAP_HEIGHT_EM * sizePx) / 2}" text-anchor="middle" font-family="${SANS_FONT_FAMILIES}" ` +
    `font-weight="700" font-size="${sizePx}" fill="none" stroke="#000" stroke-width="${stroke}" ` +
    `transform="rotate(${-item.angleDeg} ${cx} ${cy})">${escapeXml(item.text)}</text>`;
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
    if (stamps.size > CACHE_LIMIT) stamps.delete(stamps.keys().next().value as string);
  }
  return stamp;
}
