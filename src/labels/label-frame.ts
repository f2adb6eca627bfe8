/**
 * Where a label sits on its stock, and at what resolution raster formats print it. Thermal stock
 * is printed at 203 dpi; sheets at 300 dpi with the label in the 4×6 area at the top left (inset
 * by a printer margin, with a cut line around it).
 */
import type { LabelSize } from "./label.js";

const THERMAL_DPI = 203;
const SHEET_DPI = 300;

/** The design every layout is drawn for; other sizes scale it. */
const DESIGN_WIDTH_IN = 4;
const DESIGN_HEIGHT_IN = 6;
/** Laser and inkjet printers cannot print to the sheet edge. */
const SHEET_MARGIN_IN = 0.25;

/** The label's own drawing area, in the label's coordinates (inches). */
export interface LabelArea {
  widthIn: number;
  heightIn: number;
  /** Lengths and font sizes relative to the 4×6 design. */
  scale: number;
  /** Small stock: layouts leave out secondary lines (phones, dimensions, …). */
  compact: boolean;
}

export interface LabelFrame {
  pageWidthIn: number;
  pageHeightIn: number;
  /** Top-left corner of the label area on the page. */
  originXIn: number;
  originYIn: number;
  area: LabelArea;
  /** Dots per inch of PNG, JPEG, GIF and TIFF output. */
  rasterDpi: number;
  /** Sheets draw a cut line around the label area. */
  sheet: boolean;
}

interface StockSize {
  widthIn: number;
  heightIn: number;
  sheet: boolean;
  compact: boolean;
}

const STOCK: Record<LabelSize, StockSize> = {
  "4x6": { widthIn: 4, heightIn: 6, sheet: false, compact: false },
  "4x8": { widthIn: 4, heightIn: 8, sheet: false, compact: false },
  "8x11": { widthIn: 8, heightIn: 11, sheet: true, compact: false },
  "8.5x11": { widthIn: 8.5, heightIn: 11, sheet: true, compact: false },
  "2 5/16x4": { widthIn: 2 + 5 / 16, heightIn: 4, sheet: false, compact: true },
  "3 7/16x5 3/16": { widthIn: 3 + 7 / 16, heightIn: 5 + 3 / 16, sheet: false, compact: true },
};

export function labelFrame(size: LabelSize): LabelFrame {
  const stock = STOCK[size];
  if (stock.sheet) {
    return {
      pageWidthIn: stock.widthIn,
      pageHeightIn: stock.heightIn,
      originXIn: SHEET_MARGIN_IN,
      originYIn: SHEET_MARGIN_IN,
      area: { widthIn: DESIGN_WIDTH_IN, heightIn: DESIGN_HEIGHT_IN, scale: 1, compact: false },
      rasterDpi: SHEET_DPI,
      sheet: true,
    };
  }
  const scale = Math.min(stock.widthIn / DESIGN_WIDTH_IN, stock.heightIn / DESIGN_HEIGHT_IN, 1);
  return {
    pageWidthIn: stock.widthIn,
    pageHeightIn: stock.heightIn,
    originXIn: 0,
    originYIn: 0,
    area: { widthIn: stock.widthIn, heightIn: stock.heightIn, scale, compact: stock.compact },
    rasterDpi: THERMAL_DPI,
    sheet: false,
  };
}
