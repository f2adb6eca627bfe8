/**
 * Text widths from the label font (label-font.ts), so layouts can fit text before any output
 * format draws it. PDF and raster labels advance glyphs by exactly these widths; printer fonts
 * are narrower, so fitted text fits there too. No kerning: every output places glyphs the same way.
 */
import type { FontWeight } from "../drawing.js";
import { labelFont } from "./label-font.js";
import { printableText } from "./label-text.js";

/** Widths by character code up to U+00FF, the bulk of every label: layouts measure each line often. */
const latinWidths: Partial<Record<FontWeight, Float64Array>> = {};

function latinWidthsOf(weight: FontWeight): Float64Array {
  let widths = latinWidths[weight];
  if (!widths) {
    const { glyphs } = labelFont(weight);
    widths = Float64Array.from({ length: 0x100 }, (_, code) => glyphs.get(String.fromCharCode(code))?.width ?? -1);
    latinWidths[weight] = widths;
  }
  return widths;
}

/** Advance width of one character in 1/1000 em; outside the label repertoire, of what it prints as. */
export function characterWidth(char: string, weight: FontWeight): number {
  const code = char.charCodeAt(0);
  const latin = code < 0x100 ? (latinWidthsOf(weight)[code] ?? -1) : -1;
  if (latin >= 0) return latin;
  const glyph = labelFont(weight).glyphs.get(char);
  if (glyph) return glyph.width;
  let width = 0;
  for (const printed of printableText(char)) width += labelFont(weight).glyphs.get(printed)?.width ?? 0;
  return width;
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
