/**
 * The label font embedded in a PDF, cut down to the glyphs the document shows, so every viewer
 * and printer draws the label with the same shapes and widths it was laid out with.
 *
 * Each weight is a Type 0 font (Identity-H: text shows 2-byte glyph ids) over a CIDFontType2
 * whose FontFile2 is the repertoire font (label-font.ts) with the outlines of unused glyphs left
 * empty. Glyph ids therefore never change between documents, the ToUnicode map (for copying and
 * searching text) is the same for every document, and cutting a document's font is copying the
 * bytes of the glyphs it uses: far cheaper per label than a general subsetter renumbering them.
 */
import { constants, deflateSync } from "node:zlib";
import type { FontWeight } from "../drawing.js";
import { type LabelFont, labelFont } from "../text/label-font.js";
import { LABEL_CHARACTERS, printableText } from "../text/label-text.js";
import type { PdfStream } from "./pdf-file.js";

/** Where a font's objects go; each call answers the new object's number. */
export interface ObjectSink {
  add(body: string): number;
  addStream(stream: PdfStream): number;
}

interface ParsedFont {
  font: LabelFont;
  /** Tables copied as they are, by tag. */
  tables: Map<string, Buffer>;
  /** Each glyph's glyf bytes, by glyph id. */
  glyphs: Buffer[];
  /** Glyph ids a composite glyph is built from. */
  components: number[][];
  toUnicode: PdfStream;
}

// Composite glyph flags (OpenType glyf table).
const ARGS_ARE_WORDS = 0x0001;
const HAS_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const HAS_XY_SCALE = 0x0040;
const HAS_TWO_BY_TWO = 0x0080;

function componentsOf(glyph: Buffer): number[] {
  if (glyph.length < 10 || glyph.readInt16BE(0) >= 0) return [];
  const ids: number[] = [];
  let offset = 10;
  for (;;) {
    const flags = glyph.readUInt16BE(offset);
    ids.push(glyph.readUInt16BE(offset + 2));
    offset += 4 + (flags & ARGS_ARE_WORDS ? 4 : 2);
    if (flags & HAS_SCALE) offset += 2;
    else if (flags & HAS_XY_SCALE) offset += 4;
    else if (flags & HAS_TWO_BY_TWO) offset += 8;
    if (!(flags & MORE_COMPONENTS)) return ids;
  }
}

/**
 * A simple glyph without its hinting instructions: hints fit outlines to a screen's pixel grid,
 * which printers at 203–300 dpi do not need, and they are a third of the bytes.
 */
function unhinted(glyph: Buffer): Buffer {
  if (glyph.length < 12) return glyph;
  const contours = glyph.readInt16BE(0);
  if (contours < 0) return glyph;
  const lengthAt = 10 + contours * 2;
  const instructions = glyph.readUInt16BE(lengthAt);
  if (instructions === 0) return glyph;
  const out = Buffer.concat([glyph.subarray(0, lengthAt + 2), glyph.subarray(lengthAt + 2 + instructions)]);
  out.writeUInt16BE(0, lengthAt);
  return out;
}

function parse(font: LabelFont): ParsedFont {
  const file = font.file;
  const tables = new Map<string, Buffer>();
  const numTables = file.readUInt16BE(4);
  for (let i = 0; i < numTables; i++) {
    const record = 12 + i * 16;
    const tag = file.toString("latin1", record, record + 4);
    const offset = file.readUInt32BE(record + 8);
    tables.set(tag, file.subarray(offset, offset + file.readUInt32BE(record + 12)));
  }
  const head = tables.get("head") as Buffer;
  const loca = tables.get("loca") as Buffer;
  const glyf = tables.get("glyf") as Buffer;
  const numGlyphs = (tables.get("maxp") as Buffer).readUInt16BE(4);
  const long = head.readInt16BE(50) === 1;
  const at = (index: number) => (long ? loca.readUInt32BE(index * 4) : loca.readUInt16BE(index * 2) * 2);
  const glyphs = Array.from({ length: numGlyphs }, (_, id) => unhinted(glyf.subarray(at(id), at(id + 1))));
  // The glyph programs' shared setup goes with the hints.
  for (const tag of ["loca", "glyf", "prep", "fpgm", "cvt "]) tables.delete(tag);
  return { font, tables, glyphs, components: glyphs.map(componentsOf), toUnicode: toUnicodeStream(font) };
}

/** Glyph id → the character it prints, for text extraction; the first character of a shared glyph wins. */
function toUnicodeStream(font: LabelFont): PdfStream {
  const entries = new Map<number, string>();
  for (const char of LABEL_CHARACTERS) {
    const id = font.glyphs.get(char)?.id;
    if (id !== undefined && !entries.has(id)) entries.set(id, char);
  }
  const hex4 = (value: number) => value.toString(16).padStart(4, "0");
  // Runs of consecutive glyph ids for consecutive characters (printable ASCII is one) as ranges.
  const ranges: Array<[number, number, number]> = [];
  for (const [id, char] of [...entries].sort((a, b) => a[0] - b[0])) {
    const last = ranges.at(-1);
    const code = char.charCodeAt(0);
    if (last && id === last[1] + 1 && code === last[2] + (id - last[0])) last[1] = id;
    else ranges.push([id, id, code]);
  }
  const lines = ranges.map(([first, last, code]) => `<${hex4(first)}> <${hex4(last)}> <${hex4(code)}>`);
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i += 100) {
    const block = lines.slice(i, i + 100);
    blocks.push(`${block.length} beginbfrange\n${block.join("\n")}\nendbfrange`);
  }
  const cmap = [
    "/CIDInit /ProcSet findresource begin",
    "12 dict begin",
    "begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def",
    "/CMapType 2 def",
    "1 begincodespacerange",
    "<0000> <ffff>",
    "endcodespacerange",
    ...blocks,
    "endcmap",
    "CMapName currentdict /CMap defineresource pop",
    "end",
    "end",
  ].join("\n");
  return { entries: "/Filter /FlateDecode", data: deflateSync(Buffer.from(cmap, "latin1")) };
}

const parsed: Partial<Record<FontWeight, ParsedFont>> = {};

function parsedFont(weight: FontWeight): ParsedFont {
  let font = parsed[weight];
  if (!font) {
    font = parse(labelFont(weight));
    parsed[weight] = font;
  }
  return font;
}

/** The glyph ids a line of text shows, as PDF hex string digits; each id is added to `used`. */
export function glyphString(text: string, weight: FontWeight, used: Set<number>): string {
  const { glyphs } = labelFont(weight);
  let hex = "";
  for (const char of text) {
    // Layouts keep text to the label repertoire; anything else prints as the layouts would.
    for (const printed of glyphs.has(char) ? char : printableText(char)) {
      const id = glyphs.get(printed)?.id ?? 0;
      used.add(id);
      hex += id.toString(16).padStart(4, "0");
    }
  }
  return `<${hex}>`;
}

function withComponents(font: ParsedFont, used: Iterable<number>): Set<number> {
  const kept = new Set<number>([0]);
  const pending = [...used];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (kept.has(id) && id !== 0) continue;
    kept.add(id);
    for (const component of font.components[id] ?? []) if (!kept.has(component)) pending.push(component);
  }
  return kept;
}

function checksum(data: Buffer): number {
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) {
    const word =
      (data[i] ?? 0) * 0x1000000 + ((data[i + 1] ?? 0) << 16) + ((data[i + 2] ?? 0) << 8) + (data[i + 3] ?? 0);
    sum = (sum + word) >>> 0;
  }
  return sum;
}

/** A TrueType file from tables, each padded to four bytes (OpenType's table directory). */
function sfnt(tables: Map<string, Buffer>): Buffer {
  const tags = [...tables.keys()].sort();
  const entrySelector = Math.floor(Math.log2(tags.length));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + tags.length * 16);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(tags.length, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(tags.length * 16 - searchRange, 10);
  const chunks: Buffer[] = [header];
  let offset = header.length;
  tags.forEach((tag, index) => {
    const data = tables.get(tag) as Buffer;
    const record = 12 + index * 16;
    header.write(tag, record, "latin1");
    header.writeUInt32BE(checksum(data), record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(data.length, record + 12);
    const padded = (data.length + 3) & ~3;
    chunks.push(data, Buffer.alloc(padded - data.length));
    offset += padded;
  });
  return Buffer.concat(chunks);
}

/** The repertoire font with only the `kept` glyphs' outlines; every other glyph is empty. */
function subsetFile(font: ParsedFont, kept: ReadonlySet<number>): Buffer {
  const loca = Buffer.alloc((font.glyphs.length + 1) * 4);
  const outlines: Buffer[] = [];
  let offset = 0;
  font.glyphs.forEach((glyph, id) => {
    loca.writeUInt32BE(offset, id * 4);
    if (!kept.has(id) || glyph.length === 0) return;
    const padded = (glyph.length + 3) & ~3;
    outlines.push(glyph, Buffer.alloc(padded - glyph.length));
    offset += padded;
  });
  loca.writeUInt32BE(offset, font.glyphs.length * 4);
  const head = Buffer.from(font.tables.get("head") as Buffer);
  head.writeUInt32BE(0, 8); // checkSumAdjustment: PDF readers do not check it
  head.writeInt16BE(1, 50); // long loca offsets
  const tables = new Map(font.tables);
  tables.set("head", head);
  tables.set("loca", loca);
  tables.set("glyf", Buffer.concat(outlines));
  return sfnt(tables);
}

/** PDF names a subset font `ABCDEF+Name`; the tag follows from the glyphs, so the same text gives the same bytes. */
function subsetTag(kept: ReadonlySet<number>): string {
  let hash = 2166136261;
  for (const id of [...kept].sort((a, b) => a - b)) hash = Math.imul(hash ^ id, 16777619) >>> 0;
  let tag = "";
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (hash % 26));
    hash = Math.floor(hash / 26);
  }
  return tag;
}

function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * Writes the weight's font for the glyphs `used` (ids from glyphString) through `sink`, and
 * answers the body of the Type 0 font dictionary to name in page resources.
 */
export function embedFont(sink: ObjectSink, weight: FontWeight, used: Iterable<number>): string {
  const font = parsedFont(weight);
  const kept = withComponents(font, used);
  const file = subsetFile(font, kept);
  const fontFile = sink.addStream({
    entries: `/Length1 ${file.length} /Filter /FlateDecode`,
    data: deflateSync(file, { level: constants.Z_BEST_SPEED }),
  });
  const { font: metrics } = font;
  const name = `${subsetTag(kept)}+${metrics.name}`;
  const descriptor = sink.add(
    `<< /Type /FontDescriptor /FontName /${name} /Flags 4 /FontBBox [${metrics.bbox.map(num).join(" ")}] ` +
      `/ItalicAngle ${num(metrics.italicAngle)} /Ascent ${num(metrics.ascent)} /Descent ${num(metrics.descent)} ` +
      `/CapHeight ${num(metrics.capHeight)} /StemV ${weight === "bold" ? 120 : 80} /FontFile2 ${fontFile} 0 R >>`,
  );
  const widths = [...kept]
    .sort((a, b) => a - b)
    .map((id) => `${id} [${num(metrics.widths[id] ?? 0)}]`)
    .join(" ");
  const descendant = sink.add(
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} ` +
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> " +
      `/FontDescriptor ${descriptor} 0 R /CIDToGIDMap /Identity /DW 0 /W [${widths}] >>`,
  );
  const toUnicode = sink.addStream(font.toUnicode);
  return (
    `<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H ` +
    `/DescendantFonts [${descendant} 0 R] /ToUnicode ${toUnicode} 0 R >>`
  );
}
