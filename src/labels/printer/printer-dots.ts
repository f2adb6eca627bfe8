/** ZPL and EPL2 address the printhead in dots; both write for 203 dpi (8 dots/mm) printers. */
export const PRINTER_DPI = 203;

export function dots(inches: number): number {
  return Math.round(inches * PRINTER_DPI);
}

/** Font size in points as a printer font height in dots. */
export function fontDots(sizePt: number): number {
  return Math.max(1, Math.round((sizePt / 72) * PRINTER_DPI));
}
