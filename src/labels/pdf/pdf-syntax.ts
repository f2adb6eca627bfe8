/**
 * PDF object syntax read from another writer's file (PDF 32000-1 §7.2–7.3): values parsed from
 * bytes and written back with their references renumbered. Numbers, strings and keywords keep
 * their bytes as they were, so copying a value never changes its meaning.
 */

export interface PdfRef {
  kind: "ref";
  num: number;
  gen: number;
}

export interface PdfDict {
  kind: "dict";
  entries: Map<string, PdfValue>;
}

export type PdfValue =
  | PdfRef
  | PdfDict
  | { kind: "array"; items: PdfValue[] }
  | { kind: "name"; name: string }
  /** A number, string, `true`, `false` or `null`, as its bytes in the file. */
  | { kind: "atom"; text: string };

export const NULL: PdfValue = { kind: "atom", text: "null" };

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...Buffer.from("()<>[]{}/%", "latin1")]);
const INTEGER = /^[+-]?\d+$/;

function isWhitespace(byte: number | undefined): boolean {
  return byte !== undefined && WHITESPACE.has(byte);
}

function isRegular(byte: number | undefined): boolean {
  return byte !== undefined && !WHITESPACE.has(byte) && !DELIMITERS.has(byte);
}

/** A value read from the bytes, and the position just after it. */
export interface Parsed {
  value: PdfValue;
  end: number;
}

/** Reads values, numbers and keywords from a PDF's bytes. */
export class PdfLexer {
  constructor(readonly bytes: Buffer) {}

  /** The first byte at or after `at` that is neither whitespace nor inside a comment. */
  skipSpace(at: number): number {
    let position = at;
    for (;;) {
      const byte = this.bytes[position];
      if (isWhitespace(byte)) position += 1;
      else if (byte === 0x25) {
        while (position < this.bytes.length && this.bytes[position] !== 0x0a && this.bytes[position] !== 0x0d) {
          position += 1;
        }
      } else return position;
    }
  }

  /** The run of regular characters at `at` (after space): a number or a keyword such as `obj`. */
  token(at: number): { text: string; end: number } {
    const start = this.skipSpace(at);
    let end = start;
    while (isRegular(this.bytes[end])) end += 1;
    return { text: this.bytes.toString("latin1", start, end), end };
  }

  /** The integer at `at`, or undefined when the next token is not one. */
  integer(at: number): { value: number; end: number } | undefined {
    const { text, end } = this.token(at);
    return INTEGER.test(text) ? { value: Number(text), end } : undefined;
  }

  value(at: number, depth = 0): Parsed {
    if (depth > 100) throw new Error("PDF objects nested too deeply");
    const start = this.skipSpace(at);
    const byte = this.bytes[start];
    if (byte === undefined) throw new Error("PDF ends inside an object");
    if (byte === 0x2f) return this.#name(start);
    if (byte === 0x28) return this.#literalString(start);
    if (byte === 0x3c) return this.bytes[start + 1] === 0x3c ? this.#dict(start + 2, depth) : this.#hexString(start);
    if (byte === 0x5b) return this.#array(start + 1, depth);
    const { text, end } = this.token(start);
    if (text === "") throw new Error(`unexpected "${String.fromCharCode(byte)}" at byte ${start} of the PDF`);
    if (INTEGER.test(text)) {
      const gen = this.integer(end);
      if (gen) {
        const keyword = this.token(gen.end);
        if (keyword.text === "R")
          return { value: { kind: "ref", num: Number(text), gen: gen.value }, end: keyword.end };
      }
    }
    return { value: { kind: "atom", text }, end };
  }

  #name(start: number): Parsed {
    let end = start + 1;
    while (isRegular(this.bytes[end])) end += 1;
    const raw = this.bytes.toString("latin1", start + 1, end);
    const name = raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return { value: { kind: "name", name }, end };
  }

  #literalString(start: number): Parsed {
    let depth = 0;
    for (let position = start; position < this.bytes.length; position++) {
      const byte = this.bytes[position];
      if (byte === 0x5c) position += 1;
      else if (byte === 0x28) depth += 1;
      else if (byte === 0x29 && --depth === 0) {
        return { value: { kind: "atom", text: this.bytes.toString("latin1", start, position + 1) }, end: position + 1 };
      }
    }
    throw new Error("PDF ends inside a string");
  }

  #hexString(start: number): Parsed {
    const end = this.bytes.indexOf(0x3e, start);
    if (end < 0) throw new Error("PDF ends inside a string");
    return { value: { kind: "atom", text: this.bytes.toString("latin1", start, end + 1) }, end: end + 1 };
  }

  #array(from: number, depth: number): Parsed {
    const items: PdfValue[] = [];
    let position = from;
    for (;;) {
      position = this.skipSpace(position);
      if (this.bytes[position] === 0x5d) return { value: { kind: "array", items }, end: position + 1 };
      const item = this.value(position, depth + 1);
      items.push(item.value);
      position = item.end;
    }
  }

  #dict(from: number, depth: number): Parsed {
    const entries = new Map<string, PdfValue>();
    let position = from;
    for (;;) {
      position = this.skipSpace(position);
      if (this.bytes[position] === 0x3e && this.bytes[position + 1] === 0x3e) {
        return { value: { kind: "dict", entries }, end: position + 2 };
      }
      const key = this.value(position, depth + 1);
      if (key.value.kind !== "name") throw new Error(`a PDF dictionary key is not a name at byte ${position}`);
      const value = this.value(key.end, depth + 1);
      entries.set(key.value.name, value.value);
      position = value.end;
    }
  }
}

export function dictOf(value: PdfValue | undefined): PdfDict | undefined {
  return value?.kind === "dict" ? value : undefined;
}

export function nameOf(value: PdfValue | undefined): string | undefined {
  return value?.kind === "name" ? value.name : undefined;
}

export function numberOf(value: PdfValue | undefined): number | undefined {
  if (value?.kind !== "atom") return undefined;
  const number = Number(value.text);
  return Number.isFinite(number) ? number : undefined;
}

function writeName(name: string): string {
  let text = "/";
  for (const char of name) {
    const code = char.charCodeAt(0);
    const plain = code > 0x20 && code < 0x7f && char !== "#" && isRegular(code);
    text += plain ? char : `#${code.toString(16).padStart(2, "0")}`;
  }
  return text;
}

/** A value as PDF text (latin1), each reference written by `reference` (another value's text). */
export function writeValue(value: PdfValue, reference: (ref: PdfRef) => string): string {
  switch (value.kind) {
    case "atom":
      return value.text;
    case "name":
      return writeName(value.name);
    case "ref":
      return reference(value);
    case "array":
      return `[${value.items.map((item) => writeValue(item, reference)).join(" ")}]`;
    case "dict":
      return `<< ${writeEntries(value.entries, reference)} >>`;
  }
}

/** A dictionary's entries without the brackets, as a stream's `entries` are kept. */
export function writeEntries(entries: ReadonlyMap<string, PdfValue>, reference: (ref: PdfRef) => string): string {
  return [...entries].map(([key, item]) => `${writeName(key)} ${writeValue(item, reference)}`).join(" ");
}
