/** The size of the test-label VOID marking, shared by the PDF and raster outputs. */
import { CAP_HEIGHT_EM, type VoidOverlayItem } from "../drawing.js";
import { textWidthIn } from "./text-metrics.js";

/** Outline width of the letters. */
export const VOID_STROKE_IN = 1.5 / 72;
/** Breathing room between the turned letters and the edges of the barcode they cover. */
const FILL = 0.92;

/** Font size in inches (1 em) at which the turned text just fits the item's box. */
export function voidTextSizeIn(item: VoidOverlayItem): number {
  const angle = (item.angleDeg * Math.PI) / 180;
  const cos = Math.abs(Math.cos(angle));
  const sin = Math.abs(Math.sin(angle));
  // Width of the text in em: textWidthIn at 72 pt measures em, since 72 pt is one inch.
  const widthEm = textWidthIn(item.text, 72, "bold");
  const byWidth = (item.width * FILL) / (widthEm * cos + CAP_HEIGHT_EM * sin);
  const byHeight = (item.height * FILL) / (widthEm * sin + CAP_HEIGHT_EM * cos);
  return Math.min(byWidth, byHeight);
}
