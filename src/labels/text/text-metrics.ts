/**
 * Text widths from the Helvetica metrics pdfkit ships, so layouts can fit text before any output
 * format draws it. PDF prints Helvetica itself and the raster atlas advances glyphs by the same
 * widths; printer fonts are narrower, so fitted text fits there too. No kerning: every output
 * places glyphs the same way.
 */
import helvetica from "pdfkit/standard-fonts/Helvetica";
import helveticaBold from "pdfkit/standard-fonts/HelveticaBold";
import type { FontWeight } from "../drawing.js";

const FIRST_ASCII = 0x20;
const LAST_ASCII = 0x7e;
/** Widths of the WinAnsi punctuation that has no ASCII base letter, in 1/1000 em. */
const PUNCTUATION_WIDTHS: Record<string, number> = {
  "–": 556,
  "—": 1000,
  "‘": 222,
  "’": 222,
  "“": 333,
  "”": 333,
  "…": 1000,
  "•": 350,
  "€": 556,
};
const COMBINING_MARKS = /[\u0300-\u036f]/g;
/** Latin-1 symbols are about as wide as a digit. */
const DEFAULT_WIDTH = 556;

function asciiWidths(font: PdfkitStandardFontData): Float64Array {
  return Float64Array.from(font.glyphWidths.slice(0, LAST_ASCII - FIRST_ASCII + 1));
}

const ASCII_WIDTHS: Record<FontWeight, Float64Array> = {
  regular: asciiWidths(helvetica),
  bold: asciiWidths(helveticaBold),
};

/** Advance width of one character in 1/1000 em; accented letters are as wide as their base letter. */
export function characterWidth(char: string, weight: FontWeight): number {
  const code = char.charCodeAt(0);
  const widths = ASCII_WIDTHS[weight];
  if (code >= FIRST_ASCII && code <= LAST_ASCII) return widths[code - FIRST_ASCII] ?? DEFAULT_WIDTH;
  const punctuation = PUNCTUATION_WIDTHS[char];
  if (punctuation !== undefined) return punctuation;
  const base = char.normalize("NFD").replace(COMBINING_MARKS, "").charCodeAt(0);
  return base >= FIRST_ASCII && base <= LAST_ASCII ? (widths[base - FIRST_ASCII] ?? DEFAULT_WIDTH) : DEFAULT_WIDTH;
}

export function textWidthIn(text: string, sizePt: number, weight: FontWeight): number {
  let em = 0;
  for (const char of text) em += characterWidth(char, weight);
  return (em / 1000) * (sizePt / 72);
}

export interface FittedText {
  text: string;
  sizePt: number;
}

/** Shrinks text to fit `widthIn`, down to `minSizePt`; below that it is cut short. */
export function fitText(
  text: string,
  widthIn: number,
  sizePt: number,
  minSizePt: number,
  weight: FontWeight,
): FittedText {
  const natural = textWidthIn(text, sizePt, weight);
  if (natural <= widthIn) return { text, sizePt };
  const shrunk = Math.max(minSizePt, Math.floor(((sizePt * widthIn) / natural) * 10) / 10);
  let fitted = text;
  while (fitted.length > 0 && textWidthIn(fitted, shrunk, weight) > widthIn) fitted = fitted.slice(0, -1);
  return { text: fitted.trimEnd(), sizePt: shrunk };
}

/** Breaks text at spaces into lines no wider than `widthIn`; a single over-long word is left to fitText. */
export function wrapText(text: string, widthIn: number, sizePt: number, weight: FontWeight): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    const candidate = line.length === 0 ? word : `${line} ${word}`;
    if (line.length > 0 && textWidthIn(candidate, sizePt, weight) > widthIn) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}
