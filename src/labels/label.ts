import type { CarrierCode } from "../carriers/catalogue.js";

/** The file formats and sizes eHub accepts (`label_format`, `label_size`). */
export const LABEL_FORMATS = ["pdf", "png", "jpeg", "gif", "tiff", "zpl", "epl2"] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

/** How each label format is served and stored. */
export const LABEL_FILE_TYPES: Record<LabelFormat, { contentType: string; extension: string }> = {
  pdf: { contentType: "application/pdf", extension: "pdf" },
  png: { contentType: "image/png", extension: "png" },
  jpeg: { contentType: "image/jpeg", extension: "jpg" },
  gif: { contentType: "image/gif", extension: "gif" },
  tiff: { contentType: "image/tiff", extension: "tiff" },
  zpl: { contentType: "application/zpl", extension: "zpl" },
  epl2: { contentType: "application/epl2", extension: "epl" },
};

export const LABEL_SIZES = ["4x6", "4x8", "8x11", "8.5x11", "2 5/16x4", "3 7/16x5 3/16"] as const;
export type LabelSize = (typeof LABEL_SIZES)[number];

export interface LabelAddress {
  name: string | null;
  company: string | null;
  address1: string;
  address2: string | null;
  /** A third street line (eHub's `address3`); absent where a caller has none. */
  address3?: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  phone: string | null;
}

/** Custom text or a base64 image placed on the label at x/y (inches from the top left). */
export interface LabelContent {
  type: "text" | "image";
  text?: string;
  base64Image?: string;
  x: number;
  y: number;
  width?: number;
  height?: number;
}

/** Everything printed on one parcel's label. */
export interface LabelRequest {
  carrierCode: CarrierCode;
  serviceName: string;
  serviceCode: string;
  /** A return label: the carrier's return product, marked as such (USPS: "… RETURN" in the class marking). */
  returnLabel?: boolean;
  trackingNumber: string;
  /**
   * What the main linear barcode encodes when it is not the tracking number itself: USPS IMpb
   * is GS1-128 of `420` + destination ZIP + the tracking number.
   */
  barcodeData?: string;
  from: LabelAddress;
  to: LabelAddress;
  weightOz: number;
  dimensionsIn: { length: number; width: number; height: number };
  packageTypeName: string;
  /** YYYY-MM-DD */
  shipDate: string;
  postageCents: number;
  zone: string | null;
  /** "1 of 3" on multi-parcel shipments. */
  parcelIndex: number;
  parcelCount: number;
  /** Test keys print VOID across the barcode and a test notice in the postage area. */
  testMode: boolean;
  endorsement?: string | null;
  labelText1?: string | null;
  labelText2?: string | null;
  contents?: readonly LabelContent[];
  /** Scale factor for raster and PDF output (not ZPL/EPL2), 0.5–2. */
  scale?: number;
  format: LabelFormat;
  size: LabelSize;
}

export interface RenderedLabel {
  bytes: Buffer;
  contentType: string;
  /** File extension without the dot: pdf, png, jpg, gif, tiff, zpl, epl. */
  extension: string;
  widthIn: number;
  heightIn: number;
  /** Dots per inch of raster and printer formats; 72 for PDF points. */
  dpi: number;
}
