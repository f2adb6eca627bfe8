/**
 * The one door to bwip-js, for DataMatrix and PDF417: they are encoded to module patterns
 * (`raw`), never rendered by it, so every output format draws the same modules its own way.
 * Code 128 and MaxiCode, on every UPS and most other labels, have faster encoders of their own
 * (code128.ts, maxicode.ts), tested against bwip-js.
 */
import { createRequire } from "node:module";
import type bwipjs from "bwip-js";

let library: typeof bwipjs | undefined;

export interface RawGrid {
  /** Row-major module values (1 dark), or for MaxiCode the indices of the dark modules. */
  pixs: number[];
  pixx?: number;
  pixy?: number;
}

/** The BWIPP options labels use; `columns` (PDF417) is a BWIPP option bwip-js passes through. */
export interface EncodeOptions {
  bcid: "datamatrix" | "pdf417";
  text: string;
  columns?: number;
}

export function encodeRaw(options: EncodeOptions): RawGrid {
  // Loaded with the first DataMatrix or PDF417 symbol, not with the server: its 2 MB of source stayed
  // in the idle process's heap (docs/performance.md, "Start-up").
  library ??= createRequire(import.meta.url)("bwip-js") as typeof bwipjs;
  const symbol = library.raw(options as bwipjs.RawOptions)[0];
  if (!symbol) throw new Error(`bwip-js produced no ${options.bcid} symbol`);
  return symbol as RawGrid;
}
