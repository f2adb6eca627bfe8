/**
 * The one door to bwip-js: symbols are encoded to module patterns (`raw`), never rendered by it,
 * so every output format draws the same bars and modules its own way.
 */
import bwipjs from "bwip-js";

export interface RawLinear {
  /** Alternating bar and space widths in modules, starting with a bar. */
  sbs: number[];
}

export interface RawGrid {
  /** Row-major module values (1 dark), or for MaxiCode the indices of the dark modules. */
  pixs: number[];
  pixx?: number;
  pixy?: number;
}

/** The BWIPP options labels use; `columns` (PDF417) and `mode` (MaxiCode) are BWIPP options bwip-js passes through. */
export interface EncodeOptions {
  bcid: "code128" | "datamatrix" | "pdf417" | "maxicode";
  text: string;
  parsefnc?: boolean;
  columns?: number;
  mode?: number;
}

export function encodeRaw(options: EncodeOptions): RawLinear | RawGrid {
  const symbol = bwipjs.raw(options as bwipjs.RawOptions)[0];
  if (!symbol) throw new Error(`bwip-js produced no ${options.bcid} symbol`);
  return symbol as RawLinear | RawGrid;
}
