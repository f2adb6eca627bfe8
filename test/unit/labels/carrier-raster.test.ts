import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { storedCarrierLabel } from "../../../src/labels/images/carrier-raster.js";
import { pdfMediaBox } from "./label-tools.js";

/** A `width` × `height` white GIF with a black square at its top left. */
function gif(width: number, height: number): Promise<Buffer> {
  const mark = {
    input: { create: { width: 40, height: 40, channels: 3 as const, background: "#000000" } },
    left: 0,
    top: 0,
  };
  return sharp({ create: { width, height, channels: 3, background: "#ffffff" } })
    .composite([mark])
    .gif()
    .toBuffer();
}

describe("a carrier's label as Porter stores it", () => {
  const label = (bytes: Buffer, format: "gif" | "zpl" = "gif") => ({
    bytes,
    format,
    widthIn: 4,
    heightIn: 6,
    dpi: 203,
  });

  it("keeps the file as the carrier made it when that is the format asked", async () => {
    const bytes = Buffer.from("^XA^XZ");
    expect(await storedCarrierLabel(label(bytes, "zpl"), "zpl")).toEqual({
      bytes,
      widthIn: 4,
      heightIn: 6,
      dpi: 203,
      contentType: "application/zpl",
      extension: "zpl",
    });
  });

  it("re-encodes a portrait raster as PNG as it stands, at the resolution that fills the stock", async () => {
    const stored = await storedCarrierLabel(label(await gif(800, 1200)), "png");
    expect(stored).toMatchObject({ contentType: "image/png", extension: "png", dpi: 200, widthIn: 4, heightIn: 6 });
    const { width, height, density } = await sharp(stored.bytes).metadata();
    expect([width, height, density]).toEqual([800, 1200, 200]);
    const corner = await sharp(stored.bytes).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect(corner[0]).toBe(0);
  });

  it("turns a landscape raster a quarter clockwise for portrait stock: its top left becomes the top right", async () => {
    const stored = await storedCarrierLabel(label(await gif(1200, 800)), "png");
    const image = sharp(stored.bytes);
    expect(await image.metadata()).toMatchObject({ width: 800, height: 1200 });
    const topRight = await sharp(stored.bytes).extract({ left: 799, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect(topRight[0]).toBe(0);
  });

  it("puts the raster on a PDF page of the stock's size", async () => {
    const stored = await storedCarrierLabel(label(await gif(1200, 800)), "pdf");
    expect(stored).toMatchObject({ contentType: "application/pdf", dpi: 72 });
    expect(pdfMediaBox(stored.bytes)).toEqual([0, 0, 288, 432]);
  });

  it("refuses a printer program asked for as an image", async () => {
    await expect(storedCarrierLabel(label(Buffer.from("^XA^XZ"), "zpl"), "pdf")).rejects.toThrow(
      /zpl label cannot be served as pdf/,
    );
  });
});
