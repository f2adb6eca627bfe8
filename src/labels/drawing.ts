/**
 * The device-independent label drawing: what carrier layouts produce and every output format
 * converts. Coordinates and lengths are inches from the page's top-left corner; font sizes are
 * points. Nothing here knows about dots, PDF points or printer commands.
 */

export type FontWeight = "regular" | "bold";
export type TextAlign = "left" | "center" | "right";

/** One or more lines of text in a single font, aligned inside a box of `width`. */
export interface TextItem {
  kind: "text";
  x: number;
  /** Top of the first line; the first baseline sits one cap height below (CAP_HEIGHT_EM). */
  y: number;
  width: number;
  lines: readonly string[];
  /** Baseline-to-baseline distance in inches. */
  lineHeight: number;
  sizePt: number;
  weight: FontWeight;
  align: TextAlign;
  /** White text, drawn over a filled rectangle (service-level boxes). */
  reverse?: boolean;
}

/** A filled black rectangle; rules are thin rectangles. */
export interface RectItem {
  kind: "rect";
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An outlined rectangle whose border lies inside x/y/width/height. */
export interface BoxItem {
  kind: "box";
  x: number;
  y: number;
  width: number;
  height: number;
  thickness: number;
}

interface LinearBarcodePlacement {
  kind: "linear-barcode";
  /** The bars are centred horizontally in x…x+width, which includes the quiet zones. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Preferred narrow-bar width; outputs snap it to their dot grid and narrow it to fit `width`. */
  moduleWidth: number;
}

export interface Code128Item extends LinearBarcodePlacement {
  symbology: "code128";
  data: string;
}

/** GS1-128: FNC1 first, then element strings (AI + value) separated by FNC1, e.g. `420`+ZIP, then the IMpb PIC. */
export interface Gs1128Item extends LinearBarcodePlacement {
  symbology: "gs1-128";
  elements: readonly string[];
}

export type LinearBarcodeItem = Code128Item | Gs1128Item;

/** The UPS MaxiCode message (structured carrier message, ANSI MH10.8.3 transport format `96`). */
export interface MaxiCodeMessage {
  /** 2: numeric US postal code (ZIP+4); 3: alphanumeric postal code of up to 6 characters. */
  mode: 2 | 3;
  postalCode: string;
  /** ISO 3166 numeric country code, 3 digits. */
  countryCode: string;
  /** 3-digit class of service. */
  serviceClass: string;
  /** Secondary message fields after the header: tracking number, SCAC, shipper number, … */
  fields: readonly string[];
}

interface MatrixCodePlacement {
  kind: "matrix-code";
  /** Top-left corner; the symbol never grows past width × height. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Preferred module width (MaxiCode ignores it: its size is fixed). */
  moduleWidth: number;
}

export interface DataMatrixItem extends MatrixCodePlacement {
  symbology: "datamatrix";
  data: string;
}

export interface Pdf417Item extends MatrixCodePlacement {
  symbology: "pdf417";
  data: string;
}

export interface MaxiCodeItem extends MatrixCodePlacement {
  symbology: "maxicode";
  message: MaxiCodeMessage;
}

export type MatrixCodeItem = DataMatrixItem | Pdf417Item | MaxiCodeItem;

/** A caller's PNG or JPEG (label_contents), fitted inside the box keeping its aspect ratio. */
export interface ImageItem {
  kind: "image";
  x: number;
  y: number;
  width: number;
  height: number;
  base64: string;
}

/** The test-label marking drawn across a barcode: large outlined text at an angle. */
export interface VoidOverlayItem {
  kind: "void-overlay";
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
  /** Counter-clockwise rotation; printer languages that cannot rotate freely print it level. */
  angleDeg: number;
}

export type DrawingItem =
  | TextItem
  | RectItem
  | BoxItem
  | LinearBarcodeItem
  | MatrixCodeItem
  | ImageItem
  | VoidOverlayItem;

export interface LabelDrawing {
  /** Page size: the label stock, or the sheet the label is printed on. */
  widthIn: number;
  heightIn: number;
  /** Painted in order; later items cover earlier ones. */
  items: readonly DrawingItem[];
}

/**
 * The label font's cap height in em (Arimo's capitals stand 1409 of its 2048 units tall): where
 * the first baseline sits below a text item's `y`. A test holds it to the font file.
 */
export const CAP_HEIGHT_EM = 1409 / 2048;
