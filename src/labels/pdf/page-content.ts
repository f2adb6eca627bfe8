/**
 * A page's content stream as PDF operators, and the fonts and XObjects it draws with. The page's
 * user space is top-down points, like the drawing, so callers never flip y themselves.
 */
import { constants, deflateSync } from "node:zlib";
import type { FontWeight } from "../drawing.js";
import { glyphString } from "./embedded-font.js";
import type { PdfStream } from "./pdf-file.js";

/** Bézier control distance that makes four curves a circle. */
const KAPPA = (4 * (Math.SQRT2 - 1)) / 3;

/** The resource names of the label font's two weights on a page (embedded-font.ts). */
export const FONT_RESOURCES: Record<FontWeight, string> = { regular: "F1", bold: "F2" };

/** An image or form XObject; an image may carry its transparency as a soft mask. */
export interface XObject extends PdfStream {
  softMask?: PdfStream;
}

type Point = readonly [number, number];

/** `a b c d e f`: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = readonly [number, number, number, number, number, number];

/** One line of text from its left end on its baseline, in points. */
export interface TextLine {
  x: number;
  baseline: number;
  text: string;
}

export interface TextStyle {
  weight: FontWeight;
  sizePt: number;
  /** White letters, for text over a filled box. */
  white?: boolean;
  /** Outlined letters with this stroke width, instead of filled ones. */
  outlineWidth?: number;
}

/** Two decimals of a point are finer than any printer dot. */
export function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Matrix factors need more digits than lengths: 0.98 for cos 10° would shrink the text. */
function factor(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

/** Factors at full precision (a module's width repeats hundreds of times), offsets as lengths. */
function matrixOperands([a, b, c, d, e, f]: Matrix): string {
  return `${factor(a)} ${factor(b)} ${factor(c)} ${factor(d)} ${num(e)} ${num(f)}`;
}

export function rectanglePath(x: number, y: number, width: number, height: number): string {
  return `${num(x)} ${num(y)} ${num(width)} ${num(height)} re`;
}

export function polygonPath(corners: readonly Point[]): string {
  return `${corners.map(([x, y], index) => `${num(x)} ${num(y)} ${index === 0 ? "m" : "l"}`).join(" ")} h`;
}

export function circlePath(x: number, y: number, radius: number): string {
  const k = radius * KAPPA;
  const curve = (points: readonly Point[]) => `${points.map(([px, py]) => `${num(px)} ${num(py)}`).join(" ")} c`;
  return [
    `${num(x - radius)} ${num(y)} m`,
    curve([
      [x - radius, y - k],
      [x - k, y - radius],
      [x, y - radius],
    ]),
    curve([
      [x + k, y - radius],
      [x + radius, y - k],
      [x + radius, y],
    ]),
    curve([
      [x + radius, y + k],
      [x + k, y + radius],
      [x, y + radius],
    ]),
    curve([
      [x - k, y + radius],
      [x - radius, y + k],
      [x - radius, y],
    ]),
    "h",
  ].join(" ");
}

export class PageContent {
  private readonly operators: string[];
  private readonly names = new Map<XObject, string>();
  /** The glyph ids each weight has shown: what the document's embedded fonts must hold. */
  readonly glyphsUsed: Record<FontWeight, Set<number>> = { regular: new Set(), bold: new Set() };

  /** `scale` shrinks or enlarges everything drawn; `heightPt` is the (scaled) page height. */
  constructor(heightPt: number, scale: number) {
    this.operators = [`${factor(scale)} 0 0 ${factor(-scale)} 0 ${num(heightPt)} cm`];
  }

  /** Paths (`re`, `m … h`) filled in one go, black; `f*` (even-odd) leaves ring holes open. */
  fill(paths: readonly string[], rule: "f" | "f*" = "f"): void {
    if (paths.length === 0) return;
    this.operators.push(...paths, rule);
  }

  /**
   * Paths in their own units (a symbol's modules), mapped onto the page by `matrix`: small
   * integers are quicker to write and to deflate than the same shapes in points.
   */
  fillIn(matrix: Matrix, paths: readonly string[]): void {
    if (paths.length === 0) return;
    this.operators.push(`q ${matrixOperands(matrix)} cm`, ...paths, "f Q");
  }

  strokeRectangle(x: number, y: number, width: number, height: number, lineWidth: number): void {
    this.operators.push(`${num(lineWidth)} w`, rectanglePath(x, y, width, height), "S");
  }

  /**
   * Lines of text, each from its left end on its baseline. The text matrix flips y back, or the
   * glyphs would stand on their heads in the top-down space.
   */
  text(lines: readonly TextLine[], style: TextStyle): void {
    const state: string[] = [];
    if (style.white) state.push("1 g");
    if (style.outlineWidth !== undefined) state.push(`${num(style.outlineWidth)} w 1 Tr`);
    if (state.length > 0) this.operators.push("q", ...state);
    this.operators.push(`BT /${FONT_RESOURCES[style.weight]} ${num(style.sizePt)} Tf`);
    const used = this.glyphsUsed[style.weight];
    for (const line of lines) {
      const shown = glyphString(line.text, style.weight, used);
      this.operators.push(`1 0 0 -1 ${num(line.x)} ${num(line.baseline)} Tm ${shown} Tj`);
    }
    this.operators.push("ET");
    if (state.length > 0) this.operators.push("Q");
  }

  /** Runs `draw` in its own graphics state, so transforms set there stay there. */
  isolated(draw: () => void): void {
    this.operators.push("q");
    draw();
    this.operators.push("Q");
  }

  /** Counter-clockwise on the page, about (x, y). */
  rotate(angleDeg: number, x: number, y: number): void {
    // In top-down space a visual counter-clockwise turn is a negative angle.
    const angle = (-angleDeg * Math.PI) / 180;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const dx = x - (x * cos - y * sin);
    const dy = y - (x * sin + y * cos);
    this.operators.push(`${matrixOperands([cos, sin, -sin, cos, dx, dy])} cm`);
  }

  /** Paints an XObject whose unit square (image) or own space (form) the matrix maps onto the page. */
  paint(xobject: XObject, matrix: Matrix): void {
    this.operators.push(`q ${matrixOperands(matrix)} cm /${this.nameOf(xobject)} Do Q`);
  }

  /** Copies of a form XObject with its origin at each point: one per dark MaxiCode hexagon. */
  stamp(form: XObject, origins: readonly Point[]): void {
    const name = this.nameOf(form);
    // Origins in hundredths of a point, as integers: far quicker to write than decimals.
    this.operators.push("q 0.01 0 0 0.01 0 0 cm");
    for (const [x, y] of origins) {
      this.operators.push(`q 100 0 0 100 ${Math.round(x * 100)} ${Math.round(y * 100)} cm /${name} Do Q`);
    }
    this.operators.push("Q");
  }

  private nameOf(xobject: XObject): string {
    let name = this.names.get(xobject);
    if (!name) {
      name = `X${this.names.size + 1}`;
      this.names.set(xobject, name);
    }
    return name;
  }

  /** Every XObject painted, by its resource name on this page. */
  get xobjects(): ReadonlyMap<XObject, string> {
    return this.names;
  }

  /**
   * The content stream, deflated at the fastest level: path syntax still shrinks three- to
   * sixfold, and the default level's last tenth of a few kilobytes is not worth its time.
   */
  toStream(): PdfStream {
    const operators = Buffer.from(this.operators.join("\n"), "latin1");
    return { entries: "/Filter /FlateDecode", data: deflateSync(operators, { level: constants.Z_BEST_SPEED }) };
  }
}
