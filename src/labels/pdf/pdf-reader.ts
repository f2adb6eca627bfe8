/**
 * The pages of any writer's PDF, with what they use, ready to copy into another file. Objects are
 * found through every cross-reference section of the file, newest first (PDF 32000-1 §7.5): classic
 * tables, cross-reference streams and hybrids of both, objects stored inside object streams, and
 * earlier sections reached through `/Prev` after incremental updates. A page takes what it
 * inherits from the page tree (resources, boxes, rotation), since the tree stays behind.
 */
import { decodeStream } from "./pdf-filters.js";
import { dictOf, NULL, nameOf, numberOf, type PdfDict, PdfLexer, type PdfRef, type PdfValue } from "./pdf-syntax.js";

/** An object, and when it is a stream its data as stored (still encoded). */
export interface PdfObject {
  value: PdfValue;
  stream?: Buffer;
}

export interface PdfPage {
  num: number;
  /** The page's dictionary with its inherited attributes written in and no `/Parent`. */
  dict: PdfDict;
}

/** The pages of a file in order, and every other object they use, by number. */
export interface PageSet {
  pages: PdfPage[];
  objects: Map<number, PdfObject>;
}

/** Where an object is: at a byte offset, or inside the object stream numbered `container`. */
type XrefEntry = { offset: number } | { container: number } | null;

const INHERITED = ["Resources", "MediaBox", "CropBox", "Rotate"];
/** How far from the end `startxref` may sit: a few bytes in a sound file, more with trailing junk. */
const TAIL_BYTES = 1024;

class PdfReader {
  readonly #lexer: PdfLexer;
  /** Free entries are null, so an object deleted by an update hides its older version. */
  readonly #xref = new Map<number, XrefEntry>();
  readonly #objects = new Map<number, PdfObject>();
  readonly #loading = new Set<number>();
  readonly #objectStreams = new Map<number, { lexer: PdfLexer; offsets: Map<number, number> }>();
  readonly trailer: PdfDict;

  constructor(pdf: Buffer) {
    // Offsets count from the header, which some writers put after a few bytes of junk.
    const header = pdf.subarray(0, TAIL_BYTES).indexOf("%PDF-", 0, "latin1");
    if (header < 0) throw new Error("not a PDF (no %PDF- header)");
    this.#lexer = new PdfLexer(pdf.subarray(header));
    this.trailer = this.#readSections();
    if (this.trailer.entries.has("Encrypt")) throw new Error("the PDF is encrypted");
  }

  resolve(value: PdfValue | undefined): PdfValue | undefined {
    let resolved = value;
    for (let hops = 0; resolved?.kind === "ref"; hops++) {
      if (hops > 32) throw new Error("PDF references loop");
      resolved = this.object(resolved.num)?.value ?? NULL;
    }
    return resolved;
  }

  object(num: number): PdfObject | undefined {
    if (this.#objects.has(num)) return this.#objects.get(num);
    const entry = this.#xref.get(num);
    if (!entry) return undefined;
    if (this.#loading.has(num)) throw new Error(`PDF object ${num} is needed to read itself`);
    this.#loading.add(num);
    try {
      const object = "offset" in entry ? this.#objectAt(entry.offset, num) : this.#objectInStream(entry.container, num);
      this.#objects.set(num, object);
      return object;
    } finally {
      this.#loading.delete(num);
    }
  }

  /** Every cross-reference section from the last, newest first; the newest trailer names the catalog. */
  #readSections(): PdfDict {
    const bytes = this.#lexer.bytes;
    const tail = Math.max(0, bytes.length - TAIL_BYTES);
    const keyword = bytes.lastIndexOf("startxref", bytes.length, "latin1");
    if (keyword < tail) throw new Error("no startxref at the end of the PDF");
    let offset: number | undefined = this.#lexer.integer(keyword + "startxref".length)?.value;
    let trailer: PdfDict | undefined;
    const read = new Set<number>();
    while (offset !== undefined && !read.has(offset)) {
      read.add(offset);
      const section = this.#section(offset);
      trailer ??= section;
      // A hybrid file's table leaves some objects to a cross-reference stream.
      const hidden = numberOf(section.entries.get("XRefStm"));
      if (hidden !== undefined && !read.has(hidden)) {
        read.add(hidden);
        this.#section(hidden);
      }
      offset = numberOf(section.entries.get("Prev"));
    }
    if (!trailer) throw new Error("no cross-reference section in the PDF");
    return trailer;
  }

  #section(offset: number): PdfDict {
    if (offset < 0 || offset >= this.#lexer.bytes.length)
      throw new Error(`cross-reference offset ${offset} is outside the PDF`);
    const start = this.#lexer.token(offset);
    return start.text === "xref" ? this.#table(start.end) : this.#xrefStream(offset);
  }

  #add(num: number, entry: XrefEntry): void {
    if (!this.#xref.has(num)) this.#xref.set(num, entry);
  }

  /** A classic table: subsections of `first count`, each entry `offset generation n|f`, then the trailer. */
  #table(from: number): PdfDict {
    const lexer = this.#lexer;
    let position = from;
    for (let first = lexer.integer(position); first; first = lexer.integer(position)) {
      const count = lexer.integer(first.end);
      if (!count) throw new Error("unreadable cross-reference subsection");
      position = count.end;
      for (let index = 0; index < count.value; index++) {
        const offset = lexer.integer(position);
        const generation = offset && lexer.integer(offset.end);
        const type = generation && lexer.token(generation.end);
        if (!offset || !type || (type.text !== "n" && type.text !== "f")) {
          throw new Error("unreadable cross-reference entry");
        }
        this.#add(first.value + index, type.text === "n" ? { offset: offset.value } : null);
        position = type.end;
      }
    }
    const keyword = lexer.token(position);
    const trailer = keyword.text === "trailer" ? dictOf(lexer.value(keyword.end).value) : undefined;
    if (!trailer) throw new Error("no trailer after the cross-reference table");
    return trailer;
  }

  /** A cross-reference stream: rows of `/W` big-endian fields for the object numbers `/Index` lists. */
  #xrefStream(offset: number): PdfDict {
    const { value, stream } = this.#objectAt(offset);
    const dict = dictOf(value);
    if (!dict || !stream || nameOf(dict.entries.get("Type")) !== "XRef") {
      throw new Error(`no cross-reference table or stream at byte ${offset}`);
    }
    const rows = decodeStream(dict, stream, (item) => item);
    const widths = this.#numbers(dict.entries.get("W"));
    const size = numberOf(dict.entries.get("Size")) ?? 0;
    const index = dict.entries.has("Index") ? this.#numbers(dict.entries.get("Index")) : [0, size];
    const [typeWidth = 0, offsetWidth = 0, thirdWidth = 0] = widths;
    if (widths.length !== 3 || widths.some((width) => width < 0 || width > 8)) {
      throw new Error("unreadable cross-reference stream widths");
    }
    const field = (at: number, width: number, fallback: number) => {
      if (width === 0) return fallback;
      let value = 0;
      for (let i = 0; i < width; i++) value = value * 256 + (rows[at + i] ?? 0);
      return value;
    };
    let at = 0;
    for (let pair = 0; pair + 1 < index.length; pair += 2) {
      const first = index[pair] ?? 0;
      const count = index[pair + 1] ?? 0;
      for (let i = 0; i < count && at + typeWidth + offsetWidth + thirdWidth <= rows.length; i++) {
        const type = field(at, typeWidth, 1);
        const second = field(at + typeWidth, offsetWidth, 0);
        if (type === 1) this.#add(first + i, { offset: second });
        else if (type === 2) this.#add(first + i, { container: second });
        else if (type === 0) this.#add(first + i, null);
        at += typeWidth + offsetWidth + thirdWidth;
      }
    }
    return dict;
  }

  #numbers(value: PdfValue | undefined): number[] {
    const array = this.resolve(value);
    if (array?.kind !== "array") return [];
    return array.items.map((item) => numberOf(this.resolve(item)) ?? 0);
  }

  /** The object `num gen obj … endobj` at a byte offset (`num` checked when known). */
  #objectAt(offset: number, num?: number): PdfObject {
    const lexer = this.#lexer;
    const number = lexer.integer(offset);
    const generation = number && lexer.integer(number.end);
    const keyword = generation && lexer.token(generation.end);
    if (!number || !keyword || keyword.text !== "obj" || (num !== undefined && number.value !== num)) {
      throw new Error(`PDF object ${num ?? ""} is not at byte ${offset}`);
    }
    const { value, end } = lexer.value(keyword.end);
    const next = lexer.token(end);
    if (next.text !== "stream" || value.kind !== "dict") return { value };
    // The data starts after the keyword's end of line: CR LF or LF.
    let start = next.end;
    if (lexer.bytes[start] === 0x0d) start += 1;
    if (lexer.bytes[start] === 0x0a) start += 1;
    return { value, stream: this.#streamData(value, start) };
  }

  /** A stream's data by its `/Length`, or up to `endstream` when the length is wrong. */
  #streamData(dict: PdfDict, start: number): Buffer {
    const bytes = this.#lexer.bytes;
    const length = numberOf(this.resolve(dict.entries.get("Length")));
    if (length !== undefined && length >= 0 && start + length <= bytes.length) {
      if (this.#lexer.token(start + length).text === "endstream") return bytes.subarray(start, start + length);
    }
    const keyword = bytes.indexOf("endstream", start, "latin1");
    if (keyword < 0) throw new Error("a PDF stream has no endstream");
    let end = keyword;
    if (bytes[end - 1] === 0x0a) end -= 1;
    if (bytes[end - 1] === 0x0d) end -= 1;
    return bytes.subarray(start, Math.max(start, end));
  }

  /** An object stored in an object stream: `/N` pairs `number offset`, the objects from `/First` on. */
  #objectInStream(container: number, num: number): PdfObject {
    let contents = this.#objectStreams.get(container);
    if (!contents) {
      const stored = this.object(container);
      const dict = dictOf(stored?.value);
      if (!stored?.stream || !dict || nameOf(dict.entries.get("Type")) !== "ObjStm") {
        throw new Error(`PDF object ${container} is not an object stream`);
      }
      const lexer = new PdfLexer(decodeStream(dict, stored.stream, (value) => this.resolve(value)));
      const count = numberOf(this.resolve(dict.entries.get("N"))) ?? 0;
      const first = numberOf(this.resolve(dict.entries.get("First"))) ?? 0;
      const offsets = new Map<number, number>();
      let position = 0;
      for (let index = 0; index < count; index++) {
        const number = lexer.integer(position);
        const offset = number && lexer.integer(number.end);
        if (!offset) throw new Error(`unreadable header of object stream ${container}`);
        offsets.set(number.value, first + offset.value);
        position = offset.end;
      }
      contents = { lexer, offsets };
      this.#objectStreams.set(container, contents);
    }
    const at = contents.offsets.get(num);
    if (at === undefined) throw new Error(`PDF object ${num} is not in object stream ${container}`);
    return { value: contents.lexer.value(at).value };
  }
}

/** Every reference inside a value, into `found`. */
function references(value: PdfValue, found: PdfRef[]): void {
  if (value.kind === "ref") found.push(value);
  else if (value.kind === "array") for (const item of value.items) references(item, found);
  else if (value.kind === "dict") for (const item of value.entries.values()) references(item, found);
}

/** The leaves of the page tree in order, each with what it inherits; the tree's nodes go into `treeNodes`. */
function leaves(reader: PdfReader, treeNodes: Set<number>): PdfPage[] {
  const pages: PdfPage[] = [];
  const seen = new Set<number>();
  const walk = (node: PdfValue | undefined, inherited: ReadonlyMap<string, PdfValue>) => {
    if (node?.kind !== "ref" || seen.has(node.num)) return;
    seen.add(node.num);
    const dict = dictOf(reader.resolve(node));
    if (!dict) return;
    const kids = reader.resolve(dict.entries.get("Kids"));
    if (kids?.kind === "array" || nameOf(dict.entries.get("Type")) === "Pages") {
      treeNodes.add(node.num);
      const passed = new Map(inherited);
      for (const key of INHERITED) {
        const value = dict.entries.get(key);
        if (value !== undefined) passed.set(key, value);
      }
      if (kids?.kind === "array") for (const kid of kids.items) walk(kid, passed);
      return;
    }
    const entries = new Map(dict.entries);
    entries.delete("Parent");
    for (const [key, value] of inherited) if (!entries.has(key)) entries.set(key, value);
    pages.push({ num: node.num, dict: { kind: "dict", entries } });
  };
  const catalog = dictOf(reader.resolve(reader.trailer.entries.get("Root")));
  walk(catalog?.entries.get("Pages"), new Map());
  return pages;
}

/**
 * A PDF's pages and the objects they use (fonts, images, content), read from its bytes. The
 * catalog, page tree and document information are left behind; a reference to them or to a missing
 * object is not among the objects, so copies write it as null. Throws for a file it cannot read.
 */
export function readPages(pdf: Buffer): PageSet {
  const reader = new PdfReader(pdf);
  const leftBehind = new Set<number>();
  const pages = leaves(reader, leftBehind);
  const root = reader.trailer.entries.get("Root");
  if (root?.kind === "ref") leftBehind.add(root.num);
  if (pages.length === 0) throw new Error("the PDF has no pages");
  const pageNumbers = new Set(pages.map((page) => page.num));
  const objects = new Map<number, PdfObject>();
  const queue: PdfRef[] = [];
  for (const page of pages) references(page.dict, queue);
  for (let ref = queue.pop(); ref; ref = queue.pop()) {
    if (objects.has(ref.num) || pageNumbers.has(ref.num) || leftBehind.has(ref.num)) continue;
    const object = reader.object(ref.num);
    if (!object) continue;
    objects.set(ref.num, object);
    const dict = dictOf(object.value);
    if (object.stream && dict) {
      for (const [key, value] of dict.entries) if (key !== "Length") references(value, queue);
    } else {
      references(object.value, queue);
    }
  }
  return { pages, objects };
}
