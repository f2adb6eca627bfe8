/**
 * Text as PDF literal strings in WinAnsiEncoding, the encoding the standard fonts are declared
 * with: one byte per character, Latin-1 as it is, the typographic marks at their 0x80–0x9f codes.
 */
import { printableText } from "../text/label-text.js";

/** The label repertoire's characters that WinAnsi keeps below 0xa0 rather than at their Unicode value. */
const PUNCTUATION_CODES: Record<string, number> = {
  "€": 0x80,
  "…": 0x85,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
};

/** The WinAnsi byte of a character, or undefined outside the set. */
function winAnsiCode(char: string): number | undefined {
  const code = char.charCodeAt(0);
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return PUNCTUATION_CODES[char];
}

/** One byte per character, backslash-escaped where the string syntax needs it. */
function escaped(code: number): string {
  const byte = String.fromCharCode(code);
  return byte === "(" || byte === ")" || byte === "\\" ? `\\${byte}` : byte;
}

/**
 * `(…)` with the text's WinAnsi bytes, as a latin1 JavaScript string. Layouts already keep text
 * to the label repertoire; anything else is brought into it the way layouts do (accents dropped,
 * else `?`).
 */
export function pdfString(text: string): string {
  let bytes = "";
  for (const char of text) {
    const code = winAnsiCode(char);
    if (code !== undefined) {
      bytes += escaped(code);
      continue;
    }
    for (const replacement of printableText(char)) bytes += escaped(winAnsiCode(replacement) ?? 0x3f);
  }
  return `(${bytes})`;
}
