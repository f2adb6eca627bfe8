/**
 * EPL2 rewritten as ZPL II so that the ZPL renderer (zpl-renderer.ts) draws EPL2 labels too: no
 * EPL2 renderer runs in Node without a network service. It reads the commands Porter writes
 * (src/labels/printer/epl-writer.ts) and those carriers send: N, q, Q, R, ZB, A, B, b, LO, LE,
 * LW, LS, X, GW and P. Other commands (speed, density, character sets, forms) change nothing
 * drawn and are skipped. A command it knows but cannot read throws, as does a file with no
 * EPL2 command at all.
 */
import { fieldData, gs1Code128Data } from "../printer/zpl-writer.js";

/** Resident fonts 1–5: glyph width and height in dots at 203 and at 300 dpi. */
const FONTS_203 = { 1: [8, 12], 2: [10, 16], 3: [12, 20], 4: [14, 24], 5: [32, 48] } as const;
const FONTS_300 = { 1: [12, 20], 2: [16, 28], 3: [20, 36], 4: [24, 44], 5: [48, 80] } as const;
/** Dots between characters of a resident font. */
const CHARACTER_GAP = 2;
/** ZPL's font 0 as drawn is narrower than its width parameter: this makes its capitals fill an EPL2 cell. */
const FONT0_WIDTH_PER_PITCH = 1.8;
/** Where the drawn font 0 has its baseline, as a share of the font height below the field's top. */
const FONT0_BASELINE = 0.78;
/** EPL2 rotation 0–3 (clockwise quarter turns) as ZPL field orientations. */
const ORIENTATIONS = ["N", "R", "I", "B"] as const;

type Rotation = 0 | 1 | 2 | 3;

/** A command's parameters before its first quoted string, and the quoted data after them. */
interface Command {
  name: string;
  params: string[];
  data: string;
}

class EplError extends Error {
  constructor(line: string, reason: string) {
    super(`The EPL2 could not be read: ${reason} in \`${line.slice(0, 60)}\`.`);
  }
}

/** Splits `A10,20,0,3,1,1,N,"DATA"`: commas outside quotes, `\"` and `\\` escapes inside. */
function parseCommand(line: string, name: string): Command {
  const quote = line.indexOf('"');
  const head = quote < 0 ? line.slice(name.length) : line.slice(name.length, quote);
  const params = head
    .split(",")
    .map((param) => param.trim())
    .filter((param, index, all) => param !== "" || index < all.length - 1);
  if (quote < 0) return { name, params, data: "" };
  let data = "";
  for (let i = quote + 1; i < line.length; i++) {
    const char = line[i] as string;
    if (char === "\\" && i + 1 < line.length) data += line[++i];
    else if (char === '"') return { name, params, data };
    else data += char;
  }
  throw new EplError(line, "an unterminated quoted string");
}

function integer(line: string, value: string | undefined, what: string): number {
  if (value === undefined || !/^[+-]?\d+$/.test(value)) throw new EplError(line, `no whole number for ${what}`);
  return Number(value);
}

function rotation(line: string, value: string | undefined): Rotation {
  const turns = integer(line, value, "the rotation");
  if (turns < 0 || turns > 3) throw new EplError(line, "a rotation other than 0–3");
  return turns as Rotation;
}

/**
 * EPL2 turns a field about its origin, the top-left corner of the upright field; ZPL's ^FT
 * origin is the start of the baseline, turned with the field. The baseline lies `depth` dots
 * below the top in the upright field.
 */
function baselineOrigin(x: number, y: number, turns: Rotation, depth: number): [number, number] {
  const offsets = [
    [0, depth],
    [-depth, 0],
    [0, -depth],
    [depth, 0],
  ] as const;
  const [dx, dy] = offsets[turns];
  return [x + dx, y + dy];
}

/** The upright width × height box turned about its top-left corner (x, y): its new top-left. */
function turnedBox(x: number, y: number, width: number, height: number, turns: Rotation): [number, number] {
  const corners = [
    [x, y],
    [x - height, y],
    [x - width, y - height],
    [x, y - width],
  ] as const;
  return [...corners[turns]];
}

function text(line: string, command: Command, dpi: number): string[] {
  const [x, y, turns, font, across, down, reverse] = command.params;
  const fonts = dpi >= 300 ? FONTS_300 : FONTS_203;
  // A soft font (a letter) is drawn in the middle resident size.
  const fontId = (/^[1-5]$/.test(font ?? "") ? Number(font) : 3) as keyof typeof fonts;
  const [glyphWidth, glyphHeight] = fonts[fontId];
  const left = integer(line, x, "x");
  const top = integer(line, y, "y");
  const turn = rotation(line, turns);
  const wide = integer(line, across, "the horizontal multiplier");
  const tall = integer(line, down, "the vertical multiplier");
  const pitch = (glyphWidth + CHARACTER_GAP) * wide;
  const height = glyphHeight * tall;
  const data = fontId === 5 ? command.data.toUpperCase() : command.data;
  const out: string[] = [];
  const field = fieldData(data);
  if (reverse === "R") {
    // Reverse prints white characters on a black cell: the cell, then the text cut out of it.
    const width = pitch * data.length;
    const [boxX, boxY] = turnedBox(left, top, width, height, turn);
    const [w, h] = turn % 2 === 0 ? [width, height] : [height, width];
    out.push(`^FO${boxX},${boxY}^GB${w},${h},${Math.min(w, h)}^FS`);
  }
  const [baseX, baseY] = baselineOrigin(left, top, turn, Math.round(height * FONT0_BASELINE));
  const font0 = `^A0${ORIENTATIONS[turn]},${height},${Math.round(pitch * FONT0_WIDTH_PER_PITCH)}`;
  out.push(`^FT${baseX},${baseY}${reverse === "R" ? "^FR" : ""}${font0}^FH^FD${field}^FS`);
  return out;
}

/** ZPL ^BY ratio: wide to narrow bar, within the 2.0–3.0 ZPL allows. */
function ratio(narrow: number, wide: number): string {
  return Math.min(3, Math.max(2, wide / Math.max(1, narrow))).toFixed(1);
}

/** The ZPL symbol command and field data (before ^FH escapes) for an EPL2 bar code type; undefined for a type not drawn. */
function linearSymbol(type: string, o: string, height: number, readable: string, data: string) {
  switch (type) {
    case "1A":
    case "1B":
    case "1C":
      // A start code picks the subset; data holding `>` would read as more codes, so the renderer picks.
      if (!data.includes(">")) {
        const start = { "1A": ">9", "1B": ">:", "1C": ">;" }[type];
        return { symbol: `^BC${o},${height},${readable},N,N,N`, data: start + data };
      }
      return { symbol: `^BC${o},${height},${readable},N,N,A`, data };
    case "1":
      return { symbol: `^BC${o},${height},${readable},N,N,A`, data };
    case "0":
    case "1D":
    case "1E":
      return { symbol: `^BC${o},${height},${readable},N,N,N`, data: gs1Code128Data([data]) };
    case "3":
    case "3C":
      return { symbol: `^B3${o},${type === "3C" ? "Y" : "N"},${height},${readable},N`, data };
    case "2":
    case "2C":
    case "2D":
      return { symbol: `^B2${o},${height},${readable},N,${type === "2" ? "N" : "Y"}`, data };
    case "E30":
      return { symbol: `^BE${o},${height},${readable},N`, data };
    default:
      return undefined;
  }
}

/**
 * `B x,y,rotation,type,narrow,wide,height,readable,"data"`. Turned a quarter, a symbol's box is
 * known from its height alone; turned further, ZPL's ^FT (the bottom-left corner, turned with
 * the symbol) stands for EPL2's turned top-left.
 */
function barcode(line: string, command: Command): string | undefined {
  const [x, y, turns, type = "", narrow, wide, tall, readable] = command.params;
  const left = integer(line, x, "x");
  const top = integer(line, y, "y");
  const turn = rotation(line, turns);
  const narrowBar = integer(line, narrow, "the narrow bar");
  const wideBar = integer(line, wide, "the wide bar");
  const height = integer(line, tall, "the height");
  const symbol = linearSymbol(type, ORIENTATIONS[turn], height, readable === "B" ? "Y" : "N", command.data);
  if (!symbol) return undefined;
  const origin =
    turn < 2
      ? `^FO${turnedBox(left, top, 0, height, turn).join(",")}`
      : `^FT${baselineOrigin(left, top, turn, height).join(",")}`;
  return `${origin}^BY${Math.max(1, narrowBar)},${ratio(narrowBar, wideBar)},${height}${symbol.symbol}^FH^FD${fieldData(symbol.data)}^FS`;
}

/** Options of a `b` command written as a letter and a value (`x2`, `l9`), by letter. */
function options(params: readonly string[]): Map<string, string> {
  return new Map(params.filter((param) => /^[a-z]/i.test(param)).map((param) => [param[0] as string, param.slice(1)]));
}

/** `b x,y,type,…,"data"`: MaxiCode (M), PDF417 (P), DataMatrix (D) and QR (Q). */
function matrixSymbol(line: string, command: Command): string | undefined {
  const [x, y, type, ...rest] = command.params;
  const origin = `^FO${integer(line, x, "x")},${integer(line, y, "y")}`;
  const flags = options(rest);
  const number = (letter: string, fallback: number) =>
    flags.has(letter) ? integer(line, flags.get(letter), `the ${letter} option`) : fallback;
  switch (type) {
    case "M": {
      // Modes 2 and 3 carry "class,country,postal code,message"; ZPL wants the first three run together.
      const fields = command.data.split(",");
      const structured = fields.length >= 4;
      const postal = fields[2] ?? "";
      const mode = number("m", structured ? (/^\d+$/.test(postal) ? 2 : 3) : 4);
      const data = structured ? fields.slice(0, 3).join("") + fields.slice(3).join(",") : command.data;
      return `${origin}^BD${mode},1,1^FH^FD${fieldData(data)}^FS`;
    }
    case "P": {
      const module = number("x", 2);
      const rows = flags.has("r") ? String(number("r", 0)) : "";
      const columns = flags.has("l") ? String(number("l", 0)) : "";
      const o = ORIENTATIONS[(number("o", 0) % 4) as Rotation];
      return `${origin}^BY${module}^B7${o},${number("y", 3 * module)},${number("s", 0)},${columns},${rows},N^FH^FD${fieldData(command.data)}^FS`;
    }
    case "D": {
      const size = `${flags.has("c") ? number("c", 0) : ""},${flags.has("r") ? number("r", 0) : ""}`;
      return `${origin}^BXN,${number("h", 4)},200,${size}^FH^FD${fieldData(command.data)}^FS`;
    }
    case "Q": {
      const level = /^[LMQH]$/.test(flags.get("e") ?? "") ? flags.get("e") : "M";
      return `${origin}^BQN,2,${number("s", 4)}^FH^FD${level}A,${fieldData(command.data)}^FS`;
    }
    default:
      return undefined;
  }
}

function numbers(line: string, command: Command, count: number): number[] {
  return Array.from({ length: count }, (_, index) => integer(line, command.params[index], `parameter ${index + 1}`));
}

/** `LO`, `LE` (exclusive or) and `LW` (white) x,y,width,height; `LS` x1,y1,thickness,x2,y2. */
function lineCommand(line: string, command: Command): string {
  if (command.name === "LS") {
    const [x1, y1, thickness, x2, y2] = numbers(line, command, 5) as [number, number, number, number, number];
    const width = Math.abs(x2 - x1);
    const height = Math.abs(y2 - y1);
    const origin = `^FO${Math.min(x1, x2)},${Math.min(y1, y2)}`;
    if (width === 0 || height === 0) {
      return `${origin}^GB${Math.max(width, thickness)},${Math.max(height, thickness)},${thickness}^FS`;
    }
    // ZPL's right-leaning diagonal rises to the right, as a line whose x and y grow apart does.
    const leaning = (x2 - x1) * (y2 - y1) < 0 ? "R" : "L";
    return `${origin}^GD${width},${height},${thickness},B,${leaning}^FS`;
  }
  const [x, y, width, height] = numbers(line, command, 4) as [number, number, number, number];
  const colour = command.name === "LW" ? ",W" : "";
  const reverse = command.name === "LE" ? "^FR" : "";
  return `^FO${x},${y}${reverse}^GB${width},${height},${Math.max(1, Math.min(width, height))}${colour}^FS`;
}

/** `X x1,y1,thickness,x2,y2`: a box from its top-left to its bottom-right corner. */
function box(line: string, command: Command): string {
  const [x1, y1, thickness, x2, y2] = numbers(line, command, 5) as [number, number, number, number, number];
  const width = Math.max(1, Math.abs(x2 - x1));
  const height = Math.max(1, Math.abs(y2 - y1));
  return `^FO${Math.min(x1, x2)},${Math.min(y1, y2)}^GB${width},${height},${Math.max(1, Math.min(thickness, width, height))}^FS`;
}

/** The first label of an EPL2 file (up to its first `P`) as one ZPL label, for a printer of `dpi`. */
export function eplToZpl(epl: Buffer, dpi: number): string {
  const source = epl.toString("latin1");
  const zpl: string[] = [];
  const setup: string[] = [];
  let known = 0;
  let at = 0;
  while (at < source.length) {
    const lineStart = at;
    const end = source.indexOf("\n", at);
    const line = source.slice(at, end < 0 ? source.length : end).replace(/\r$/, "");
    at = end < 0 ? source.length : end + 1;
    const name = /^(?:GW|LO|LE|LW|LS|ZB|[NqQRABbXP])/.exec(line)?.[0];
    if (!name) continue;
    known++;
    if (name === "P") break;
    if (name === "GW") {
      // Binary bitmap after the fourth comma: rows × bytes a row, bit 0 printing black.
      const head = /^GW(\d+),(\d+),(\d+),(\d+),/.exec(line);
      if (!head) throw new EplError(line, "a GW header without x, y, width and height");
      const [x, y, bytesPerRow, rows] = head.slice(1).map(Number) as [number, number, number, number];
      const start = lineStart + head[0].length;
      const size = bytesPerRow * rows;
      if (start + size > source.length) throw new EplError(line, "a GW bitmap shorter than its size");
      const bits = Buffer.from(source.slice(start, start + size), "latin1").map((byte) => ~byte & 0xff);
      const hex = Buffer.from(bits).toString("hex").toUpperCase();
      zpl.push(`^FO${x},${y}^GFA,${size},${size},${bytesPerRow},${hex}^FS`);
      at = start + size;
      continue;
    }
    const command = parseCommand(line, name);
    switch (name) {
      case "N":
        zpl.length = 0;
        break;
      case "q":
        setup.push(`^PW${integer(line, command.params[0], "the width")}`);
        break;
      case "Q":
        setup.push(`^LL${integer(line, command.params[0], "the length")}`);
        break;
      case "R":
        setup.push(`^LH${numbers(line, command, 2).join(",")}`);
        break;
      case "ZB":
        setup.push("^POI");
        break;
      case "A":
        zpl.push(...text(line, command, dpi));
        break;
      case "B": {
        const symbol = barcode(line, command);
        if (symbol) zpl.push(symbol);
        break;
      }
      case "b": {
        const symbol = matrixSymbol(line, command);
        if (symbol) zpl.push(symbol);
        break;
      }
      case "X":
        zpl.push(box(line, command));
        break;
      default:
        zpl.push(lineCommand(line, command));
    }
  }
  if (known === 0) throw new Error("The EPL2 could not be read: it has no EPL2 command.");
  return ["^XA", "^CI28", ...setup, ...zpl, "^XZ"].join("\n");
}
