/**
 * A stored label file as a PNG a browser shows: ZPL drawn as the printer would (zpl-renderer.ts,
 * which reads any ZPL II, the carriers' as well as Porter's own), EPL2 drawn the same way once
 * rewritten as ZPL (epl2-to-zpl.ts), rasters re-encoded.
 */
import type { LabelFormat } from "../label.js";
import { sharp } from "../sharp.js";
import { eplToZpl } from "./epl2-to-zpl.js";
import { drawZpl } from "./zpl-renderer.js";

/** The formats a preview can be drawn from; PDF shows in the browser as it is. */
export const PREVIEWABLE_FORMATS: readonly LabelFormat[] = ["zpl", "epl2", "png", "jpeg", "gif", "tiff"];

const MM_PER_INCH = 25.4;

export interface StoredLabel {
  bytes: Buffer;
  format: LabelFormat;
  widthIn: number;
  heightIn: number;
  dpi: number;
}

/**
 * The label as a PNG; only for PREVIEWABLE_FORMATS. The first label of a ZPL or EPL2 file holding
 * several. Rejects, never throws, on a printer program it cannot read.
 */
export async function labelPreviewPng(label: StoredLabel): Promise<Buffer> {
  if (label.format !== "zpl" && label.format !== "epl2") return sharp(label.bytes).png().toBuffer();
  const zpl = label.format === "zpl" ? label.bytes.toString("latin1") : eplToZpl(label.bytes, label.dpi);
  return drawZpl(zpl, label.widthIn * MM_PER_INCH, label.heightIn * MM_PER_INCH, Math.round(label.dpi / MM_PER_INCH));
}
