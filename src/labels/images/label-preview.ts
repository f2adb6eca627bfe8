/**
 * A stored label file as a PNG a browser shows: ZPL drawn as the printer would (zpl-renderer.ts,
 * which reads any ZPL II, the carriers' as well as Porter's own), rasters re-encoded.
 */
import type { LabelFormat } from "../label.js";
import { sharp } from "../sharp.js";
import { drawZpl } from "./zpl-renderer.js";

/** The formats a preview can be drawn from; PDF shows in the browser as it is, EPL2 has no renderer. */
export const PREVIEWABLE_FORMATS: readonly LabelFormat[] = ["zpl", "png", "jpeg", "gif", "tiff"];

const MM_PER_INCH = 25.4;

export interface StoredLabel {
  bytes: Buffer;
  format: LabelFormat;
  widthIn: number;
  heightIn: number;
  dpi: number;
}

/** The label as a PNG; only for PREVIEWABLE_FORMATS. The first label of a ZPL file holding several. */
export function labelPreviewPng(label: StoredLabel): Promise<Buffer> {
  if (label.format !== "zpl") return sharp(label.bytes).png().toBuffer();
  return drawZpl(
    label.bytes.toString("latin1"),
    label.widthIn * MM_PER_INCH,
    label.heightIn * MM_PER_INCH,
    Math.round(label.dpi / MM_PER_INCH),
  );
}
