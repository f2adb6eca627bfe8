/**
 * label_contents images decoded once into grey pixels of the size they print at. Shipping
 * platforms stamp the same logo on every label, so decoded images are kept (a few dozen).
 */
import { createHash } from "node:crypto";
import sharp from "sharp";

export interface GreyImage {
  width: number;
  height: number;
  /** Row-major, 0 black … 255 white. */
  pixels: Uint8Array;
}

const CACHE_LIMIT = 32;
const cache = new Map<string, Promise<GreyImage>>();

async function decode(base64: string, width: number, height: number): Promise<GreyImage> {
  const { data, info } = await sharp(Buffer.from(base64, "base64"))
    .flatten({ background: "#ffffff" })
    .resize(width, height, { fit: "contain", background: "#ffffff" })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/**
 * The image fitted (aspect kept, centred, white around it) into width × height pixels. A
 * caller's undecodable image is their mistake, so the error says which input failed.
 */
export function greyImage(base64: string, width: number, height: number): Promise<GreyImage> {
  const key = `${createHash("sha1").update(base64).digest("base64")}:${width}x${height}`;
  const cached = cache.get(key);
  if (cached) {
    // Re-inserting keeps the map in least-recently-used order.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const decoded = decode(base64, Math.max(1, width), Math.max(1, height)).catch((error: unknown) => {
    cache.delete(key);
    throw new RangeError(`label_contents image could not be decoded: ${(error as Error).message}`);
  });
  cache.set(key, decoded);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return decoded;
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
