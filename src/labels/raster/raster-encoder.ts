/**
 * A painted page as PNG (8-bit grey), JPEG, GIF (two colours) or TIFF (1-bit CCITT G4, the fax
 * compression label TIFFs use), each carrying the print resolution so it prints at true size.
 */
import { sharp } from "../sharp.js";
import type { GreyBitmap } from "./grey-bitmap.js";

export type RasterFormat = "png" | "jpeg" | "gif" | "tiff";

const MM_PER_INCH = 25.4;

export function encodeRaster(page: GreyBitmap, format: RasterFormat, dpi: number): Promise<Buffer> {
  // Without b-w, sharp would widen the single grey channel to sRGB and encode three times the data.
  const image = sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .toColourspace("b-w")
    .withDensity(dpi);
  switch (format) {
    case "png":
      return image.png({ compressionLevel: 6 }).toBuffer();
    case "jpeg":
      return image.jpeg({ quality: 90 }).toBuffer();
    case "gif":
      return image.gif({ colours: 2, effort: 1, dither: 0 }).toBuffer();
    case "tiff":
      // libtiff wants resolution in pixels per millimetre whatever unit the file records.
      return image
        .tiff({
          compression: "ccittfax4",
          bitdepth: 1,
          xres: dpi / MM_PER_INCH,
          yres: dpi / MM_PER_INCH,
          resolutionUnit: "inch",
        })
        .toBuffer();
  }
}
