/**
 * A carrier's raster label in another format Porter serves. UPS makes its image labels as GIF
 * only, so its PNG and PDF labels are that GIF re-encoded pixel for pixel, never redrawn: the
 * barcodes stay UPS's. An image lying on its side for portrait stock (UPS's GIF is landscape) is
 * turned a quarter clockwise first.
 */

import { LABEL_FILE_TYPES, type LabelFormat, type RenderedLabel } from "../label.js";
import { labelDocument } from "../pdf/label-document.js";
import { PageContent } from "../pdf/page-content.js";
import { pdfImageOf } from "../pdf/pdf-image.js";
import { sharp } from "../sharp.js";

export type ConvertedFormat = "png" | "pdf";

const RASTERS: readonly LabelFormat[] = ["gif", "png", "jpeg"];

/** A label file as the carrier made it. */
export interface MadeLabel {
  bytes: Buffer;
  format: LabelFormat;
  widthIn: number;
  heightIn: number;
  dpi: number;
}

/**
 * The carrier's label as Porter stores it in the format asked: as it came when the carrier made
 * that format, else its raster re-encoded as a PNG or PDF. Any other pair is a carrier adapter
 * promising a format it cannot deliver.
 */
export async function storedCarrierLabel(label: MadeLabel, asked: LabelFormat): Promise<RenderedLabel> {
  const { bytes, format, widthIn, heightIn, dpi } = label;
  if (format === asked) return { bytes, widthIn, heightIn, dpi, ...LABEL_FILE_TYPES[asked] };
  if ((asked !== "png" && asked !== "pdf") || !RASTERS.includes(format)) {
    throw new Error(`A ${format} label cannot be served as ${asked}.`);
  }
  return { widthIn, heightIn, ...(await convertedLabel(bytes, asked, widthIn, heightIn)), ...LABEL_FILE_TYPES[asked] };
}

export interface ConvertedLabel {
  bytes: Buffer;
  /** The PNG's pixels per inch on the stock; 72 for the PDF. */
  dpi: number;
}

/** `bytes` (a GIF, PNG or JPEG) as a `format` label of `widthIn` × `heightIn` inches. */
export async function convertedLabel(
  bytes: Buffer,
  format: ConvertedFormat,
  widthIn: number,
  heightIn: number,
): Promise<ConvertedLabel> {
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  const sideways = width > height !== widthIn > heightIn;
  const uprightWidth = sideways ? height : width;
  const uprightHeight = sideways ? width : height;
  // Fitted to the stock without stretching, as a printer's "fit to page" would.
  const dpi = Math.max(uprightWidth / widthIn, uprightHeight / heightIn);
  const png = await sharp(bytes)
    .rotate(sideways ? 90 : 0)
    .flatten({ background: "#ffffff" })
    .png()
    .withDensity(dpi)
    .toBuffer();
  if (format === "png") return { bytes: png, dpi: Math.round(dpi) };
  const widthPt = widthIn * 72;
  const heightPt = heightIn * 72;
  const drawnWidth = (uprightWidth / dpi) * 72;
  const drawnHeight = (uprightHeight / dpi) * 72;
  const page = new PageContent(heightPt, 1);
  const image = await pdfImageOf(png);
  const left = (widthPt - drawnWidth) / 2;
  const top = (heightPt - drawnHeight) / 2;
  page.paint(image.xobject, [drawnWidth, 0, 0, -drawnHeight, left, top + drawnHeight]);
  return { bytes: labelDocument(widthPt, heightPt, page), dpi: 72 };
}
