/** pdfkit ships the metrics of the 14 standard PDF fonts as subpath exports without type declarations. */
interface PdfkitStandardFontData {
  name: string;
  ascender: number;
  descender: number;
  capHeight: number;
  /** Space-separated glyph names: printable ASCII first, in character-code order. */
  glyphNames: string;
  /** Advance widths in 1/1000 em, one per glyph name. */
  glyphWidths: readonly number[];
}

declare module "pdfkit/standard-fonts/Helvetica" {
  const font: PdfkitStandardFontData;
  export default font;
}

declare module "pdfkit/standard-fonts/HelveticaBold" {
  const font: PdfkitStandardFontData;
  export default font;
}
