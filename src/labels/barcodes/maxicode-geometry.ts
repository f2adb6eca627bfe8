/**
 * Where MaxiCode's hexagons and finder rings go (ISO/IEC 16023): 33 rows of 30 hexagons, odd
 * rows shifted half a module right, rows √3/2 of a module apart, and three dark rings around a
 * light centre on the middle row (16) at column 14. Lengths are in the caller's unit.
 */
import type { MaxiCodeSymbol } from "./matrix-symbol.js";

const COLUMNS = 30;
const ROW_PITCH = Math.sqrt(3) / 2;
/** Hexagons leave a small gap to their neighbours, as printed symbols do. */
const HEXAGON_FILL = 0.9;
/** Inner and outer radius of each dark finder ring, in module widths. */
const FINDER_RINGS: ReadonlyArray<readonly [number, number]> = [
  [0.583, 1.349],
  [2.126, 2.892],
  [3.658, 4.424],
];
const FINDER_ROW = 16;
const FINDER_COLUMN = 14;

export interface MaxiCodeGeometry {
  /** Centre of every dark hexagon, from the symbol's top-left corner. */
  centres: Array<[number, number]>;
  /** Circumradius of a (pointy-top) hexagon. */
  hexagonRadius: number;
  finderX: number;
  finderY: number;
  /** [inner, outer] radius of each dark ring. */
  rings: Array<[number, number]>;
}

/** Height of a symbol this wide: 32 row pitches plus one hexagon's height. */
export function maxiCodeHeight(symbolWidth: number): number {
  const pitch = symbolWidth / COLUMNS;
  return 32 * ROW_PITCH * pitch + (2 * pitch) / Math.sqrt(3);
}

export function maxiCodeGeometry(symbol: MaxiCodeSymbol, symbolWidth: number): MaxiCodeGeometry {
  const pitch = symbolWidth / COLUMNS;
  const circumradius = pitch / Math.sqrt(3);
  const centreX = (row: number, column: number) => (column + (row % 2 === 1 ? 1 : 0.5)) * pitch;
  const centreY = (row: number) => circumradius + row * ROW_PITCH * pitch;
  return {
    centres: symbol.darkModules.map((index) => {
      const row = Math.floor(index / COLUMNS);
      return [centreX(row, index % COLUMNS), centreY(row)];
    }),
    hexagonRadius: circumradius * HEXAGON_FILL,
    finderX: centreX(FINDER_ROW, FINDER_COLUMN),
    finderY: centreY(FINDER_ROW),
    rings: FINDER_RINGS.map(([inner, outer]) => [inner * pitch, outer * pitch]),
  };
}

/** The six corners of a pointy-top hexagon, clockwise from the top. */
export function hexagonCorners(x: number, y: number, radius: number): Array<[number, number]> {
  const half = (radius * Math.sqrt(3)) / 2;
  return [
    [x, y - radius],
    [x + half, y - radius / 2],
    [x + half, y + radius / 2],
    [x, y + radius],
    [x - half, y + radius / 2],
    [x - half, y - radius / 2],
  ];
}
