/**
 * 2D symbols as module grids (DataMatrix, PDF417) or MaxiCode's list of dark hexagons, with the
 * data each symbology is given: the MaxiCode structured carrier message is assembled here.
 */
import type { MatrixCodeItem, MaxiCodeMessage } from "../drawing.js";
import { type EncodeOptions, encodeRaw, type RawGrid } from "./bwip.js";
import { maxiCodeDarkModules } from "./maxicode.js";

export interface ModuleGrid {
  kind: "grid";
  columns: number;
  rows: number;
  /** Row-major, 1 for a dark module. */
  dark: readonly number[];
  /** Module height in module widths: PDF417 rows are 3 modules tall. */
  rowHeight: number;
}

export interface MaxiCodeSymbol {
  kind: "maxicode";
  /** Indices (row × 30 + column) of the dark hexagons in the 33 × 30 grid. */
  darkModules: readonly number[];
}

export type MatrixSymbol = ModuleGrid | MaxiCodeSymbol;

const RS = "\x1e";
const GS = "\x1d";
const EOT = "\x04";
/** Transport format `96` of ANSI MH10.8.3, as UPS uses it. */
const MAXICODE_HEADER = `[)>${RS}01${GS}96`;
/** PDF417 rows: start, stop and two row indicators around the data columns. */
const PDF417_OVERHEAD_MODULES = 69;
const PDF417_CODEWORD_MODULES = 17;

/** The secondary (low priority) message: header, fields, end of transmission. */
export function maxiCodeSecondaryMessage(fields: readonly string[]): string {
  return `${MAXICODE_HEADER}${fields.join(GS)}${RS}${EOT}`;
}

/** The whole message; the encoder lifts postal code, country and class out of it. */
function maxiCodeText(message: MaxiCodeMessage): string {
  const primary = [message.postalCode, message.countryCode, message.serviceClass].join(GS);
  return `${MAXICODE_HEADER}${primary}${GS}${message.fields.join(GS)}${RS}${EOT}`;
}

/** As many data columns as fit the box at the preferred module width (1–30). */
export function pdf417Columns(widthModules: number): number {
  const columns = Math.floor((widthModules - PDF417_OVERHEAD_MODULES) / PDF417_CODEWORD_MODULES);
  return Math.min(30, Math.max(1, columns));
}

const encoded = new WeakMap<MatrixCodeItem, MatrixSymbol>();

function encode(item: MatrixCodeItem): MatrixSymbol {
  if (item.symbology === "maxicode") {
    return { kind: "maxicode", darkModules: maxiCodeDarkModules(maxiCodeText(item.message), item.message.mode) };
  }
  const options: EncodeOptions =
    item.symbology === "pdf417"
      ? { bcid: "pdf417", text: item.data, columns: pdf417Columns(item.width / item.moduleWidth) }
      : { bcid: "datamatrix", text: item.data };
  const raw = encodeRaw(options) as RawGrid;
  const columns = raw.pixx ?? 0;
  const rows = columns > 0 ? raw.pixs.length / columns : 0;
  return { kind: "grid", columns, rows, dark: raw.pixs, rowHeight: rows > 0 ? (raw.pixy ?? rows) / rows : 1 };
}

export function matrixSymbol(item: MatrixCodeItem): MatrixSymbol {
  const cached = encoded.get(item);
  if (cached) return cached;
  const symbol = encode(item);
  encoded.set(item, symbol);
  return symbol;
}

/** Dark runs of a grid row by row, as [column, row, length] — fewer rectangles to draw. */
export function darkRuns(grid: ModuleGrid): Array<[number, number, number]> {
  const runs: Array<[number, number, number]> = [];
  for (let row = 0; row < grid.rows; row++) {
    let start = -1;
    for (let column = 0; column <= grid.columns; column++) {
      const dark = column < grid.columns && grid.dark[row * grid.columns + column] === 1;
      if (dark && start < 0) start = column;
      if (!dark && start >= 0) {
        runs.push([start, row, column - start]);
        start = -1;
      }
    }
  }
  return runs;
}

export interface PlacedGrid {
  x: number;
  y: number;
  /** Module width and height in output units. */
  moduleWidth: number;
  moduleHeight: number;
}

/**
 * Where a grid lands in its box: the preferred module, narrowed until the symbol fits; with
 * `unitsPerInch` the module snaps to whole dots.
 */
export function placeGrid(item: MatrixCodeItem, grid: ModuleGrid, unitsPerInch?: number): PlacedGrid {
  const scale = unitsPerInch ?? 1;
  const fitting = Math.min((item.width * scale) / grid.columns, (item.height * scale) / (grid.rows * grid.rowHeight));
  const preferred = item.moduleWidth * scale;
  const moduleWidth =
    unitsPerInch === undefined
      ? Math.min(preferred, fitting)
      : Math.max(1, Math.min(Math.round(preferred), Math.floor(fitting)));
  const x = item.x * scale;
  const y = item.y * scale;
  return {
    x: unitsPerInch === undefined ? x : Math.round(x),
    y: unitsPerInch === undefined ? y : Math.round(y),
    moduleWidth,
    moduleHeight: moduleWidth * grid.rowHeight,
  };
}
