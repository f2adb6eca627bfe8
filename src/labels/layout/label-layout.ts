/**
 * The drawing surface carrier layouts write to: lengths and font sizes of the 4×6 design scale to
 * the label at hand, text is fitted to its box before it is recorded, and everything lands in one
 * ordered list of drawing items.
 */
import { CAP_HEIGHT_EM, type DrawingItem, type FontWeight, type TextAlign } from "../drawing.js";
import type { LabelArea } from "../label-frame.js";
import { printableText } from "../text/label-text.js";
import { fitText, wrapText } from "../text/text-metrics.js";

/** Below this thermal printers smear the counters of letters. */
const MIN_TEXT_PT = 5;
/** Baseline to baseline, in font sizes. */
const LINE_SPACING = 1.2;

export interface TextOptions {
  x: number;
  y: number;
  width: number;
  /** Already scaled (use `pt()`). */
  sizePt: number;
  weight?: FontWeight;
  align?: TextAlign;
  reverse?: boolean;
  /** Text may shrink to this size before it is cut short. */
  minSizePt?: number;
}

type TextLines = string | readonly (string | null | undefined)[];

export class LabelLayout {
  readonly items: DrawingItem[] = [];

  constructor(readonly area: LabelArea) {}

  get width(): number {
    return this.area.widthIn;
  }

  get height(): number {
    return this.area.heightIn;
  }

  get compact(): boolean {
    return this.area.compact;
  }

  /** A length of the 4×6 design, scaled to this label. */
  u(designIn: number): number {
    return designIn * this.area.scale;
  }

  /** A font size of the 4×6 design, scaled, never below the legible minimum. */
  pt(designPt: number): number {
    return Math.max(MIN_TEXT_PT, Math.round(designPt * this.area.scale * 10) / 10);
  }

  /** The `y` that centres a line of capitals of this size in the band from `top`, `height` tall. */
  capsCentredIn(top: number, height: number, sizePt: number): number {
    return top + (height - (sizePt / 72) * CAP_HEIGHT_EM) / 2;
  }

  add(item: DrawingItem): void {
    this.items.push(item);
  }

  /**
   * Lines in one font, each fitted to the width at a common size (the smallest any line needs).
   * Empty lines are skipped. Returns the y below the last line.
   */
  text(lines: TextLines, options: TextOptions): number {
    const weight = options.weight ?? "regular";
    const minSizePt = Math.min(options.minSizePt ?? MIN_TEXT_PT, options.sizePt);
    const wanted = (typeof lines === "string" ? [lines] : lines)
      .filter((line): line is string => typeof line === "string" && line.trim().length > 0)
      .map((line) => printableText(line.trim()));
    if (wanted.length === 0) return options.y;
    const sizePt = Math.min(
      ...wanted.map((line) => fitText(line, options.width, options.sizePt, minSizePt, weight).sizePt),
    );
    const fitted = wanted.map((line) => fitText(line, options.width, sizePt, sizePt, weight).text);
    const lineHeight = (sizePt / 72) * LINE_SPACING;
    this.items.push({
      kind: "text",
      x: options.x,
      y: options.y,
      width: options.width,
      lines: fitted,
      lineHeight,
      sizePt,
      weight,
      align: options.align ?? "left",
      ...(options.reverse ? { reverse: true } : {}),
    });
    return options.y + fitted.length * lineHeight;
  }

  /** Text wrapped at spaces onto at most `maxLines` lines; returns the y below the last line. */
  paragraph(text: string, maxLines: number, options: TextOptions): number {
    const lines = wrapText(printableText(text), options.width, options.sizePt, options.weight ?? "regular");
    const kept = lines.slice(0, maxLines);
    if (lines.length > maxLines) kept[maxLines - 1] = lines.slice(maxLines - 1).join(" ");
    return this.text(kept, options);
  }

  rect(x: number, y: number, width: number, height: number): void {
    this.items.push({ kind: "rect", x, y, width, height });
  }

  box(x: number, y: number, width: number, height: number, thickness: number): void {
    this.items.push({ kind: "box", x, y, width, height, thickness });
  }

  /** A horizontal rule across the label (or from x over width). */
  rule(y: number, thickness: number, x = 0, width = this.width - x): void {
    this.rect(x, y, width, thickness);
  }
}
