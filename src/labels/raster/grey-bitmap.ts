/**
 * An 8-bit grey page (255 white) that raster labels are painted into directly: filling
 * rectangles and stamping pre-rendered glyphs is far cheaper than rasterising an SVG page.
 */

/** Ink coverage (0 none … 255 full) of a small picture: a glyph cell, a stamp. */
export interface InkSource {
  width: number;
  ink: Uint8Array;
}

export class GreyBitmap {
  readonly pixels: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height).fill(255);
  }

  /** Fills [x0, x1) × [y0, y1), rounded to whole pixels and at least one pixel wide and tall. */
  fillRect(x0: number, y0: number, x1: number, y1: number, value = 0): void {
    const left = Math.max(0, Math.round(x0));
    const top = Math.max(0, Math.round(y0));
    const right = Math.min(this.width, Math.max(Math.round(x1), Math.round(x0) + 1));
    const bottom = Math.min(this.height, Math.max(Math.round(y1), Math.round(y0) + 1));
    for (let y = top; y < bottom; y++) this.pixels.fill(value, y * this.width + left, y * this.width + right);
  }

  /** Vertical bars [left, width] from y0 to y1: one row is drawn, then copied down. */
  fillBars(bars: ReadonlyArray<readonly [number, number]>, y0: number, y1: number): void {
    const top = Math.max(0, Math.round(y0));
    const bottom = Math.min(this.height, Math.round(y1));
    if (bottom <= top || bars.length === 0) return;
    const row = top * this.width;
    for (const [left, width] of bars) {
      const x0 = Math.max(0, Math.round(left));
      const x1 = Math.min(this.width, Math.round(left + width));
      this.pixels.fill(0, row + x0, row + x1);
    }
    const first = bars[0] as readonly [number, number];
    const last = bars[bars.length - 1] as readonly [number, number];
    const start = Math.max(0, Math.round(first[0]));
    const end = Math.min(this.width, Math.round(last[0] + last[1]));
    for (let y = top + 1; y < bottom; y++) this.pixels.copyWithin(y * this.width + start, row + start, row + end);
  }

  strokeRect(x: number, y: number, width: number, height: number, thickness: number): void {
    const t = Math.max(1, thickness);
    this.fillRect(x, y, x + width, y + t);
    this.fillRect(x, y + height - t, x + width, y + height);
    this.fillRect(x, y, x + t, y + height);
    this.fillRect(x + width - t, y, x + width, y + height);
  }

  /** Concentric dark rings, each [inner, outer] radius, filled row by row as spans. */
  fillRings(cx: number, cy: number, rings: ReadonlyArray<readonly [number, number]>): void {
    const outermost = Math.max(...rings.map(([, outer]) => outer));
    const top = Math.max(0, Math.floor(cy - outermost));
    const bottom = Math.min(this.height - 1, Math.ceil(cy + outermost));
    for (let y = top; y <= bottom; y++) {
      const dy = y + 0.5 - cy;
      for (const [inner, outer] of rings) {
        if (Math.abs(dy) > outer) continue;
        // Pixel centres whose distance from the centre lies between the radii, left and right.
        const far = Math.sqrt(outer * outer - dy * dy);
        const near = Math.abs(dy) < inner ? Math.sqrt(inner * inner - dy * dy) : 0;
        this.fillSpan(y, cx - far, cx - near);
        this.fillSpan(y, cx + near, cx + far);
      }
    }
  }

  /** Pixels of row y whose centres lie in [from, to]. */
  private fillSpan(y: number, from: number, to: number): void {
    const left = Math.max(0, Math.ceil(from - 0.5));
    const right = Math.min(this.width, Math.floor(to - 0.5) + 1);
    if (right > left) this.pixels.fill(0, y * this.width + left, y * this.width + right);
  }

  /**
   * Lays a width × height window of `source` (from sx, sy) onto the page at (dx, dy): ink darkens
   * the page, or with `reverse` lightens it (white text on black).
   */
  stamp(
    source: InkSource,
    sx: number,
    sy: number,
    width: number,
    height: number,
    dx: number,
    dy: number,
    reverse = false,
  ): void {
    const x0 = Math.max(0, -dx);
    const y0 = Math.max(0, -dy);
    const x1 = Math.min(width, this.width - dx);
    const y1 = Math.min(height, this.height - dy);
    for (let y = y0; y < y1; y++) {
      let from = (sy + y) * source.width + sx + x0;
      let to = (dy + y) * this.width + dx + x0;
      for (let x = x0; x < x1; x++, from++, to++) {
        const ink = source.ink[from] ?? 0;
        if (ink === 0) continue;
        const page = this.pixels[to] ?? 255;
        if (reverse) {
          if (ink > page) this.pixels[to] = ink;
        } else if (255 - ink < page) {
          this.pixels[to] = 255 - ink;
        }
      }
    }
  }

  /** Copies grey pixels (an image) over the page, darkening only. */
  darken(pixels: Uint8Array, width: number, height: number, dx: number, dy: number): void {
    this.stamp({ width, ink: pixels.map((value) => 255 - value) }, 0, 0, width, height, dx, dy);
  }
}
