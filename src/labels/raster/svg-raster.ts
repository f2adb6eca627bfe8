/** The few things the raster path lets librsvg draw (glyph outlines, the VOID stamp), as ink coverage. */
import { sharp } from "../sharp.js";

/** Renders black-on-white SVG markup (without the <svg> element) and returns ink per pixel. */
export async function svgInk(width: number, height: number, markup: string): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${markup}</svg>`;
  const { data } = await sharp(Buffer.from(svg)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const ink = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) ink[i] = 255 - (data[i] ?? 255);
  return ink;
}
