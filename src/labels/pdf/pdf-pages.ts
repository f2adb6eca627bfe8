/**
 * A PDF of many pages written as it is drawn: each page's objects leave as bytes the moment the
 * page is done, and only the objects' offsets stay behind for the cross-reference table. A
 * manifest of ten thousand tracking numbers, or every label of a batch in one file, is written in
 * the memory of one page.
 */
import type { FontWeight } from "../drawing.js";
import { embedFont } from "./embedded-font.js";
import { pageResources } from "./label-document.js";
import { FONT_RESOURCES, num, type PageContent, type XObject } from "./page-content.js";
import { type PdfStream, ref } from "./pdf-file.js";
import { readPages } from "./pdf-reader.js";
import { pdfString } from "./pdf-string.js";
import { dictOf, type PdfRef, writeEntries, writeValue } from "./pdf-syntax.js";

const HEADER = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";

export class PdfPages {
  /** Byte offset of each object by number - 1; 0 until written. */
  readonly #offsets: number[] = [];
  readonly #kids: number[] = [];
  #length = 0;
  readonly #catalog: number;
  readonly #pageTree: number;
  readonly #fonts: string[];
  /** Each weight's font object, written last: it holds the glyphs of every page. */
  readonly #fontObjects: Record<FontWeight, number>;
  readonly #glyphsUsed: Record<FontWeight, Set<number>> = { regular: new Set(), bold: new Set() };
  #pending: Buffer[] = [];

  constructor(private readonly title: string) {
    this.#emit(Buffer.from(HEADER, "latin1"));
    this.#catalog = this.#reserve();
    this.#pageTree = this.#reserve();
    this.#fontObjects = { regular: this.#reserve(), bold: this.#reserve() };
    this.#fonts = (Object.keys(FONT_RESOURCES) as FontWeight[]).map(
      (weight) => `/${FONT_RESOURCES[weight]} ${ref(this.#fontObjects[weight])}`,
    );
  }

  get pageCount(): number {
    return this.#kids.length;
  }

  /** One drawn page `widthPt` × `heightPt`. */
  page(widthPt: number, heightPt: number, content: PageContent): void {
    const xobjects = [...content.xobjects].map(([xobject, name]) => `/${name} ${ref(this.#xobject(xobject))}`);
    const contents = this.#stream(content.toStream());
    for (const weight of Object.keys(this.#glyphsUsed) as FontWeight[]) {
      for (const id of content.glyphsUsed[weight]) this.#glyphsUsed[weight].add(id);
    }
    this.#kids.push(
      this.#object(
        `<< /Type /Page /Parent ${ref(this.#pageTree)} /MediaBox [0 0 ${num(widthPt)} ${num(heightPt)}] ` +
          `/Resources ${pageResources(this.#fonts, xobjects)} /Contents ${ref(contents)} >>`,
      ),
    );
  }

  /**
   * The pages of a PDF from any writer (a label, a carrier's form): each page and what it uses are
   * copied under new numbers, the catalog, page tree and information left behind. The file is read
   * in full before anything is written, so one that cannot be read throws and adds nothing.
   */
  importPages(pdf: Buffer): void {
    const { pages, objects } = readPages(pdf);
    const renumbered = new Map<number, number>();
    for (const num of [...pages.map((page) => page.num), ...objects.keys()]) renumbered.set(num, this.#reserve());
    const reference = (target: PdfRef) => {
      const number = renumbered.get(target.num);
      return number === undefined ? "null" : ref(number);
    };
    for (const page of pages) {
      const number = renumbered.get(page.num) as number;
      this.#write(number, [`<< ${writeEntries(page.dict.entries, reference)} /Parent ${ref(this.#pageTree)} >>`]);
      this.#kids.push(number);
    }
    for (const [num, object] of objects) {
      const number = renumbered.get(num) as number;
      const dict = dictOf(object.value);
      if (object.stream && dict) {
        const entries = new Map(dict.entries);
        entries.delete("Length");
        this.#writeStream(number, { entries: writeEntries(entries, reference), data: object.stream });
      } else {
        this.#write(number, [writeValue(object.value, reference)]);
      }
    }
  }

  /** Bytes written since the last call: hand them to the file as pages are added. */
  drain(): Buffer[] {
    const chunks = this.#pending;
    this.#pending = [];
    return chunks;
  }

  /** The page tree, catalog, information and cross-reference table: the file's last bytes. */
  end(): Buffer[] {
    const sink = { add: (body: string) => this.#object(body), addStream: (stream: PdfStream) => this.#stream(stream) };
    for (const weight of Object.keys(this.#fontObjects) as FontWeight[]) {
      this.#write(this.#fontObjects[weight], [embedFont(sink, weight, this.#glyphsUsed[weight])]);
    }
    this.#write(this.#pageTree, [
      `<< /Type /Pages /Kids [${this.#kids.map(ref).join(" ")}] /Count ${this.#kids.length} >>`,
    ]);
    this.#write(this.#catalog, [`<< /Type /Catalog /Pages ${ref(this.#pageTree)} >>`]);
    const info = this.#object(`<< /Title ${pdfString(this.title)} /Producer (Porter) /Creator (Porter) >>`);
    const entries = ["0000000000 65535 f \n"];
    for (const offset of this.#offsets) entries.push(`${String(offset).padStart(10, "0")} 00000 n \n`);
    this.#emit(
      Buffer.from(
        `xref\n0 ${entries.length}\n${entries.join("")}` +
          `trailer\n<< /Size ${entries.length} /Root ${ref(this.#catalog)} /Info ${ref(info)} >>\n` +
          `startxref\n${this.#length}\n%%EOF\n`,
        "latin1",
      ),
    );
    return this.drain();
  }

  #reserve(): number {
    this.#offsets.push(0);
    return this.#offsets.length;
  }

  #object(body: string): number {
    const number = this.#reserve();
    this.#write(number, [body]);
    return number;
  }

  #stream(stream: PdfStream): number {
    const number = this.#reserve();
    this.#writeStream(number, stream);
    return number;
  }

  #writeStream(number: number, stream: PdfStream): void {
    this.#write(number, [
      Buffer.from(`<< ${stream.entries} /Length ${stream.data.length} >>\nstream\n`, "latin1"),
      stream.data,
      Buffer.from("\nendstream", "latin1"),
    ]);
  }

  #xobject(xobject: XObject): number {
    if (!xobject.softMask) return this.#stream(xobject);
    const softMask = this.#stream(xobject.softMask);
    return this.#stream({ entries: `${xobject.entries} /SMask ${ref(softMask)}`, data: xobject.data });
  }

  #write(number: number, body: readonly (string | Buffer)[]): void {
    this.#offsets[number - 1] = this.#length;
    this.#emit(Buffer.from(`${number} 0 obj\n`, "latin1"));
    for (const part of body) this.#emit(typeof part === "string" ? Buffer.from(part, "latin1") : part);
    this.#emit(Buffer.from("\nendobj\n", "latin1"));
  }

  #emit(chunk: Buffer): void {
    this.#pending.push(chunk);
    this.#length += chunk.length;
  }
}
