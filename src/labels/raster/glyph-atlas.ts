/**
 * Every label character rendered once per font size and weight into a grid of cells; painting
 * text is then copying cells. The glyphs are the label font's own outlines (label-font.ts), the
 * ones the PDF embeds, so raster text has the PDF's shapes and widths on any machine. Atlases are kept for the life of the process (a label uses a
 * handful of sizes; sizes are rounded to half pixels so the set stays small).
 */
import { BoundedMap } from "../../bounded-map.js";
import type { FontWeight } from "../drawing.js";
import { labelFont } from "../text/label-font.js";
import { LABEL_CHARACTERS } from "../text/label-text.js";
import { svgInk } from "./svg-raster.js";

const COLUMNS = 16;
const CACHE_LIMIT = 96;

export interface GlyphAtlas {
  sizePx: number;
  /** Baseline and left origin of a glyph inside its cell. */
  baseline: number;
  originX: number;
  width: number;
  ink: Uint8Array;
  cells: Map<string, GlyphCell>;
}

/** A character's cell in the atlas and, inside it, the box its ink covers (empty for a space). */
export interface GlyphCell {
  x: number;
  y: number;
  inkLeft: number;
  inkTop: number;
  inkRight: number;
  inkBottom: number;
}

const atlases = new BoundedMap<string, Promise<GlyphAtlas>>(CACHE_LIMIT);

function atlasSize(sizePx: number): number {
  return Math.max(4, Math.round(sizePx * 2) / 2);
}

/**
 * Pen positions fall between pixels; glyphs are rendered at two offsets, a whole and a half
 * pixel, so a glyph lands within a quarter pixel of where the PDF puts it and rounding never
 * pushes two neighbours a whole pixel together.
 */
export type GlyphPhase = 0 | 0.5;

async function renderAtlas(sizePx: number, weight: FontWeight, phase: GlyphPhase): Promise<GlyphAtlas> {
  // Room for the widest glyph (@ is 1.015 em), accents above capitals and descenders below.
  const pad = Math.ceil(sizePx * 0.15) + 1;
  const cellWidth = Math.ceil(sizePx * 1.05) + 2 * pad;
  const baseline = pad + Math.ceil(sizePx * 0.95);
  const cellHeight = baseline + Math.ceil(sizePx * 0.3) + pad;
  const rows = Math.ceil(LABEL_CHARACTERS.length / COLUMNS);
  const width = COLUMNS * cellWidth;
  const origins: Array<[string, number, number]> = [];
  const font = labelFont(weight);
  const scale = sizePx / font.unitsPerEm;
  let markup = '<g fill="#000">';
  LABEL_CHARACTERS.forEach((char, index) => {
    const x = (index % COLUMNS) * cellWidth;
    const y = Math.floor(index / COLUMNS) * cellHeight;
    origins.push([char, x, y]);
    const path = font.glyphs.get(char)?.path ?? "";
    // Font units point up: flip them into the picture's downward y about the baseline.
    if (path)
      markup += `<path transform="translate(${x + pad + phase} ${y + baseline}) scale(${scale} ${-scale})" d="${path}"/>`;
  });
  markup += "</g>";
  const ink = await svgInk(width, rows * cellHeight, markup);
  const cells = new Map(origins.map(([char, x, y]) => [char, inkBox(ink, width, x, y, cellWidth, cellHeight)]));
  return { sizePx, baseline, originX: pad, width, ink, cells };
}

/** Painting copies only the inked part of a cell; most of a cell is empty. */
function inkBox(ink: Uint8Array, atlasWidth: number, x: number, y: number, width: number, height: number): GlyphCell {
  let inkLeft = width;
  let inkTop = height;
  let inkRight = 0;
  let inkBottom = 0;
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      if ((ink[(y + row) * atlasWidth + x + column] ?? 0) === 0) continue;
      inkLeft = Math.min(inkLeft, column);
      inkRight = Math.max(inkRight, column + 1);
      inkTop = Math.min(inkTop, row);
      inkBottom = Math.max(inkBottom, row + 1);
    }
  }
  return { x, y, inkLeft, inkTop, inkRight: Math.max(inkLeft, inkRight), inkBottom: Math.max(inkTop, inkBottom) };
}

export function glyphAtlas(sizePx: number, weight: FontWeight, phase: GlyphPhase = 0): Promise<GlyphAtlas> {
  const size = atlasSize(sizePx);
  const key = `${weight}:${size}:${phase}`;
  let atlas = atlases.get(key);
  if (!atlas) {
    atlas = renderAtlas(size, weight, phase).catch((error: unknown) => {
      atlases.delete(key);
      throw error;
    });
    atlases.set(key, atlas);
  }
  return atlas;
}
