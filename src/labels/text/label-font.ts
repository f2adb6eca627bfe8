/**
 * The one typeface every label output draws with: Arimo (SIL Open Font License), shipped as
 * TrueType files by the `@expo-google-fonts/arimo` package, so every machine that ran `npm ci`
 * has it and nothing depends on the fonts a system happens to have installed. Arimo's advance
 * widths are Helvetica's and Arial's, the faces carriers print their labels in.
 *
 * Each weight is cut down once to the label repertoire (LABEL_CHARACTERS): that small font is
 * what PDFs embed (subset again per document), its glyph ids are what PDF text shows, and its
 * outlines are what the raster glyph atlas paints, so every output measures and draws the same
 * glyphs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as fontkit from "fontkit";
import type { FontWeight } from "../drawing.js";
import { LABEL_CHARACTERS } from "./label-text.js";

const FONT_FILES: Record<FontWeight, string> = {
  regular: "@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf",
  bold: "@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf",
};

export interface LabelGlyph {
  /** Glyph id in the repertoire font (`LabelFont.file`). */
  id: number;
  /** Advance width in 1/1000 em. */
  width: number;
  /** Outline as SVG path data in font units, y pointing up; empty for a space. */
  path: string;
}

export interface LabelFont {
  /** PostScript name, e.g. `Arimo-Bold`. */
  name: string;
  unitsPerEm: number;
  /** The label repertoire's glyphs by character. */
  glyphs: ReadonlyMap<string, LabelGlyph>;
  /** Advance width in 1/1000 em of every glyph id of the repertoire font (components included). */
  widths: readonly number[];
  /** Vertical metrics in 1/1000 em. */
  ascent: number;
  descent: number;
  capHeight: number;
  /** [xMin, yMin, xMax, yMax] in 1/1000 em. */
  bbox: readonly [number, number, number, number];
  italicAngle: number;
  /** The repertoire font as a TrueType file (glyf outlines, no cmap: text addresses glyphs by id). */
  file: Buffer;
}

function thousandths(value: number, unitsPerEm: number): number {
  return Math.round((value * 1000 * 1000) / unitsPerEm) / 1000;
}

/** The weight's whole TrueType file, for pdfkit (customs forms), which subsets fonts itself. */
export function labelFontPath(weight: FontWeight): string {
  return createRequire(import.meta.url).resolve(FONT_FILES[weight]);
}

function loadFont(weight: FontWeight): LabelFont {
  const path = labelFontPath(weight);
  // fontkit (and the decompressors it brings) is loaded with the first font, not with the server.
  const { create } = createRequire(import.meta.url)("fontkit") as typeof fontkit;
  const font = create(readFileSync(path)) as fontkit.Font;
  const em = font.unitsPerEm;
  // fontkit answers the glyph's id in the subset, and keeps the subset's glyphs in order (its
  // type declarations say a boolean and hide the list).
  const subset = font.createSubset() as unknown as {
    includeGlyph(glyph: fontkit.Glyph): number;
    encode(): Uint8Array;
    glyphs: number[];
  };
  const glyphs = new Map<string, LabelGlyph>();
  for (const char of LABEL_CHARACTERS) {
    const glyph = font.glyphForCodePoint(char.codePointAt(0) as number);
    const id = subset.includeGlyph(glyph);
    glyphs.set(char, { id, width: thousandths(glyph.advanceWidth, em), path: glyph.path.toSVG() });
  }
  const file = Buffer.from(subset.encode());
  // Composite glyphs (accented letters) pull their components into the subset after ours.
  const widths = subset.glyphs.map((sourceId) => thousandths(font.getGlyph(sourceId).advanceWidth, em));
  const capHeight = font.glyphForCodePoint(0x48).bbox.maxY;
  return {
    name: font.postscriptName,
    unitsPerEm: em,
    glyphs,
    widths,
    ascent: thousandths(font.ascent, em),
    descent: thousandths(font.descent, em),
    capHeight: thousandths(capHeight, em),
    bbox: [font.bbox.minX, font.bbox.minY, font.bbox.maxX, font.bbox.maxY].map((v) => thousandths(v, em)) as [
      number,
      number,
      number,
      number,
    ],
    italicAngle: font.italicAngle,
    file,
  };
}

const fonts: Partial<Record<FontWeight, LabelFont>> = {};

/** The weight's font, read and cut down on first use (a few milliseconds, once per process). */
export function labelFont(weight: FontWeight): LabelFont {
  let font = fonts[weight];
  if (!font) {
    font = loadFont(weight);
    fonts[weight] = font;
  }
  return font;
}
