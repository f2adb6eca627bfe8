import { createRequire } from "node:module";
import type Sharp from "sharp";

let library: typeof Sharp | undefined;

/**
 * sharp, loaded with the first image it decodes or encodes instead of with the server: loading it
 * (and libvips) was a tenth of a second of start-up, and ZPL and most PDF labels never need it.
 */
export function sharp(...args: Parameters<typeof Sharp>): ReturnType<typeof Sharp> {
  library ??= createRequire(import.meta.url)("sharp") as typeof Sharp;
  return library(...args);
}
