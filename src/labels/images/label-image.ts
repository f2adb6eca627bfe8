/** label_contents images as grey pixels of the size they print at (rasters, ZPL, EPL2). */
import { sharp } from "../sharp.js";
import { ImageMemo } from "./image-memo.js";

export interface GreyImage {
  width: number;
  height: number;
  /** Row-major, 0 black … 255 white. */
  pixels: Uint8Array;
}

const images = new ImageMemo<GreyImage>();

async function decode(bytes: Buffer, width: number, height: number): Promise<GreyImage> {
  const { data, info } = await sharp(bytes)
    .flatten({ background: "#ffffff" })
    .resize(width, height, { fit: "contain", background: "#ffffff" })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** The image fitted (aspect kept, centred, white around it) into width × height pixels. */
export function greyImage(base64: string, width: number, height: number): Promise<GreyImage> {
  return images.get(base64, `${width}x${height}`, (bytes) => decode(bytes, Math.max(1, width), Math.max(1, height)));
}

/**
 * Whether every label writer can draw the image: decoded whole (a readable header is not enough),
 * so a purchase can refuse it before the carrier sells a label that cannot be drawn.
 */
export async function isDrawableImage(base64: string): Promise<boolean> {
  try {
    await sharp(Buffer.from(base64, "base64")).rotate().resize(8, 8).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/** 1-bit rows, most significant bit leftmost, `ink` for dark pixels: what printer graphics want. */
export function packBits(image: GreyImage, ink: 0 | 1): { bytesPerRow: number; data: Buffer } {
  const bytesPerRow = Math.ceil(image.width / 8);
  const data = Buffer.alloc(bytesPerRow * image.height, ink === 1 ? 0 : 0xff);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if ((image.pixels[y * image.width + x] ?? 255) >= 128) continue;
      const index = y * bytesPerRow + (x >> 3);
      const bit = 0x80 >> (x & 7);
      data[index] = ink === 1 ? (data[index] ?? 0) | bit : (data[index] ?? 0) & ~bit;
    }
  }
  return { bytesPerRow, data };
}
