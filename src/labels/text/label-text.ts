/**
 * The character repertoire labels print: printable ASCII, Latin-1 and a few WinAnsi punctuation
 * marks. It is what the PDF standard fonts (WinAnsi) and the raster glyph atlas cover; ZPL prints
 * it as UTF-8 and EPL2 falls back to ASCII.
 */

const EXTRA_PUNCTUATION = "–—‘’“”…•€";
const ASCII_FALLBACK: Record<string, string> = {
  "–": "-",
  "—": "-",
  "‘": "'",
  "’": "'",
  "“": '"',
  "”": '"',
  "…": "...",
  "•": "*",
  "€": "EUR",
  "\u00a0": " ",
};
const COMBINING_MARKS = /[\u0300-\u036f]/g;
/** Letters with a stroke rather than an accent: Unicode does not decompose them. */
const STROKED_LETTERS: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i" };

function isLabelCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || EXTRA_PUNCTUATION.includes(char);
}

/** Every character a label can print, in code order; the raster glyph atlas renders these. */
export const LABEL_CHARACTERS: readonly string[] = [
  ...Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)),
  ...Array.from({ length: 0xff - 0xa0 + 1 }, (_, i) => String.fromCharCode(0xa0 + i)),
  ...EXTRA_PUNCTUATION,
];

/** Control characters become spaces; letters outside the repertoire lose their accents or become `?`. */
export function printableText(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    if (isLabelCharacter(char)) out += char;
    else if (char.charCodeAt(0) < 0x20 || char === "\u007f") out += " ";
    else {
      const base = STROKED_LETTERS[char] ?? char.normalize("NFD").replace(COMBINING_MARKS, "");
      out += base.length > 0 && [...base].every(isLabelCharacter) ? base : "?";
    }
  }
  return out;
}

/** For printer languages without a reliable code page (EPL2): plain ASCII. */
export function asciiText(text: string): string {
  let out = "";
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) out += char;
    else {
      const fallback = ASCII_FALLBACK[char] ?? char.normalize("NFD").replace(COMBINING_MARKS, "");
      out += /^[\x20-\x7e]+$/.test(fallback) ? fallback : "?";
    }
  }
  return out;
}
