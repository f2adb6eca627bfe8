/**
 * The one door to bwip-js, for the 2D symbols: they are encoded to module patterns (`raw`),
 * never rendered by it, so every output format draws the same modules its own way. (Code 128
 * has its own encoder, code128.ts.)
 */
import bwipjs from "bwip-js";

export interface RawGrid {
  /** Row-major module values (1 dark), or for MaxiCode the indices of the dark modules. */
  pixs: number[];
  pixx?: number;
  pixy?: number;
}

/** The BWIPP options labels use; `columns` (PDF417) and `mode` (MaxiCode) are BWIPP options bwip-js passes through. */
export interface EncodeOptions {
  bcid: "datamatrix" | "pdf417" | "maxicode";
  text: string;
  columns?: number;
  mode?: number;
}

export function encodeRaw(options: EncodeOptions): RawGrid {
  const symbol = bwipjs.raw(options as bwipjs.RawOptions)[0];
  if (!symbol) throw new Error(`bwip-js produced no ${options.bcid} symbol`);
  return symbol as RawGrid;
}
