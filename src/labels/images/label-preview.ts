/**
 * A stored label file as a PNG a browser shows: printer languages drawn as the printer would,
 * rasters re-encoded. ZPL is drawn by Zebrash (compiled to WebAssembly, the `zpl-renderer-js`
 * package), which reads any ZPL II, the carriers' as well as Porter's own.
 */
import type { LabelFormat } from "../label.js";
import { sharp } from "../sharp.js";

/** The formats a preview can be drawn from; PDF shows in the browser as it is, EPL2 has no renderer. */
export const PREVIEWABLE_FORMATS: readonly LabelFormat[] = ["zpl", "png", "jpeg", "gif", "tiff"];

const MM_PER_INCH = 25.4;

interface ZplRenderer {
  zplToBase64Async(zpl: string, widthMm?: number, heightMm?: number, dpmm?: number): Promise<string>;
}

let renderer: Promise<ZplRenderer> | undefined;

/** Loaded with the first ZPL preview, not with the server: the module is 9 MB of WebAssembly. */
function zplRenderer(): Promise<ZplRenderer> {
  renderer ??= import("zpl-renderer-js").then(async (module) => (await module.ready).api);
  return renderer;
}

export interface StoredLabel {
  bytes: Buffer;
  format: LabelFormat;
  widthIn: number;
  heightIn: number;
  dpi: number;
}

/** The label as a PNG; only for PREVIEWABLE_FORMATS. The first page of a multi-label ZPL file. */
export async function labelPreviewPng(label: StoredLabel): Promise<Buffer> {
  if (label.format !== "zpl") return sharp(label.bytes).png().toBuffer();
  const api = await zplRenderer();
  const png = await api.zplToBase64Async(
    label.bytes.toString("latin1"),
    label.widthIn * MM_PER_INCH,
    label.heightIn * MM_PER_INCH,
    Math.round(label.dpi / MM_PER_INCH),
  );
  return Buffer.from(png, "base64");
}
