/** Code 128 and GS1-128 symbols as bar patterns, encoded once per drawing item. */
import type { LinearBarcodeItem } from "../drawing.js";
import { code128Widths, gs1128Widths } from "./code128.js";

export interface LinearSymbol {
  /** Total width in modules, quiet zones excluded. */
  modules: number;
  /** Alternating bar and space widths in modules, starting with a bar. */
  widths: readonly number[];
}

const encoded = new WeakMap<LinearBarcodeItem, LinearSymbol>();

export function linearSymbol(item: LinearBarcodeItem): LinearSymbol {
  const cached = encoded.get(item);
  if (cached) return cached;
  const widths = item.symbology === "code128" ? code128Widths(item.data) : gs1128Widths(item.elements);
  const symbol = { modules: widths.reduce((sum, width) => sum + width, 0), widths };
  encoded.set(item, symbol);
  return symbol;
}

export interface PlacedBars {
  /** Left edge of the first bar. */
  x: number;
  moduleWidth: number;
  /** [left, width] of every bar, in the same unit as x. */
  bars: Array<[number, number]>;
}

/**
 * Bars centred in the item's box. With `unitsPerInch` the module snaps to whole dots (never
 * wider than preferred, never narrower than one dot); without, lengths stay in inches.
 */
export function placeBars(item: LinearBarcodeItem, unitsPerInch?: number): PlacedBars {
  const symbol = linearSymbol(item);
  const scale = unitsPerInch ?? 1;
  const boxWidth = item.width * scale;
  const fitting = boxWidth / symbol.modules;
  const preferred = item.moduleWidth * scale;
  const moduleWidth =
    unitsPerInch === undefined
      ? Math.min(preferred, fitting)
      : Math.max(1, Math.min(Math.round(preferred), Math.floor(fitting)));
  const left = item.x * scale + (boxWidth - symbol.modules * moduleWidth) / 2;
  const x = unitsPerInch === undefined ? left : Math.round(left);
  const bars: Array<[number, number]> = [];
  let offset = 0;
  symbol.widths.forEach((width, index) => {
    if (index % 2 === 0) bars.push([x + offset * moduleWidth, width * moduleWidth]);
    offset += width;
  });
  return { x, moduleWidth, bars };
}
