/** The ink of one pointy-top MaxiCode hexagon, centred in an odd-sized square of pixels. */
import type { InkSource } from "./grey-bitmap.js";

const stamps = new Map<number, InkSource>();

function render(radius: number): InkSource {
  const half = Math.ceil(radius);
  const width = 2 * half + 1;
  const ink = new Uint8Array(width * width);
  const halfWidth = (radius * Math.sqrt(3)) / 2;
  for (let y = 0; y < width; y++) {
    const dy = Math.abs(y - half);
    for (let x = 0; x < width; x++) {
      const dx = Math.abs(x - half);
      if (dx <= halfWidth && dy <= radius - dx / Math.sqrt(3)) ink[y * width + x] = 255;
    }
  }
  return { width, ink };
}

export function hexagonInk(radius: number): InkSource {
  const key = Math.round(radius * 100);
  let stamp = stamps.get(key);
  if (!stamp) {
    stamp = render(radius);
    stamps.set(key, stamp);
  }
  return stamp;
}
