/**
 * label_contents images as PDF image XObjects. A plain JPEG goes in as it is (DCTDecode); every
 * other image is decoded by sharp (turned upright by its EXIF orientation) and stored deflated,
 * with its alpha channel as a soft mask.
 */
import { deflateSync } from "node:zlib";
import { ImageMemo } from "../images/image-memo.js";
import { sharp } from "../sharp.js";
import type { XObject } from "./page-content.js";

export interface PdfImage {
  /** Pixels, after turning upright. */
  width: number;
  height: number;
  xobject: XObject;
}

function imageEntries(width: number, height: number, colorSpace: string, filter: string): string {
  return `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${colorSpace} /BitsPerComponent 8 /Filter /${filter}`;
}

/** Colour and alpha samples apart: PDF images carry transparency as a separate greyscale image. */
function splitAlpha(pixels: Buffer, channels: number): { colour: Buffer; alpha: Buffer } {
  const colours = channels - 1;
  const count = pixels.length / channels;
  const colour = Buffer.alloc(count * colours);
  const alpha = Buffer.alloc(count);
  for (let pixel = 0; pixel < count; pixel++) {
    for (let channel = 0; channel < colours; channel++) {
      colour[pixel * colours + channel] = pixels[pixel * channels + channel] ?? 0;
    }
    alpha[pixel] = pixels[pixel * channels + colours] ?? 255;
  }
  return { colour, alpha };
}

async function decoded(bytes: Buffer): Promise<PdfImage> {
  const { data, info } = await sharp(bytes).rotate().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const entries = imageEntries(width, height, channels <= 2 ? "DeviceGray" : "DeviceRGB", "FlateDecode");
  if (!info.hasAlpha) return { width, height, xobject: { entries, data: deflateSync(data) } };
  const { colour, alpha } = splitAlpha(data, channels);
  const softMask = { entries: imageEntries(width, height, "DeviceGray", "FlateDecode"), data: deflateSync(alpha) };
  return { width, height, xobject: { entries, data: deflateSync(colour), softMask } };
}

async function embed(bytes: Buffer): Promise<PdfImage> {
  const { format, width, height, channels, orientation, depth } = await sharp(bytes).metadata();
  // Grey or RGB 8-bit JPEGs that need no turning are what every PDF reader decodes itself.
  const plainJpeg =
    format === "jpeg" && depth === "uchar" && (channels === 1 || channels === 3) && (orientation ?? 1) === 1;
  if (!plainJpeg || !width || !height) return decoded(bytes);
  const colorSpace = channels === 1 ? "DeviceGray" : "DeviceRGB";
  return { width, height, xobject: { entries: imageEntries(width, height, colorSpace, "DCTDecode"), data: bytes } };
}

const images = new ImageMemo<PdfImage>();

/** The image of a label_contents entry, ready to place. */
export function pdfImage(base64: string): Promise<PdfImage> {
  return images.get(base64, "pdf", embed);
}

/** A stored image (a PNG or JPEG label) as an image XObject, not remembered. */
export function pdfImageOf(bytes: Buffer): Promise<PdfImage> {
  return embed(bytes);
}
