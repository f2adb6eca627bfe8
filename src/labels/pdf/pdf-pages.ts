/**
 * A PDF of many pages written as it is drawn: each page's objects leave as bytes the moment the
 * page is done, and only the objects' offsets stay behind for the cross-reference table. A
 * manifest of ten thousand tracking numbers, or every label of a batch in one file, is written in
 * the memory of one page.
 */
import { pageResources, standardFontObjects } from "./label-document.js";
import { num, type PageContent, type XObject } from "./page-content.js";
import { type PdfStream, ref } from "./pdf-file.js";
import { pdfString } from "./pdf-string.js";

const HEADER = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";

export class PdfPages {
  /** Byte offset of each object by number - 1; 0 until written. */
  readonly #offsets: number[] = [];
  readonly #kids: number[] = [];
  #length = 0;
  readonly #catalog: number;
  readonly #pageTree: number;
  readonly #fonts: string[];
  #pending: Buffer[] = [];

  constructor(private readonly title: string) {
    this.#emit(Buffer.from(HEADER, "latin1"));
    this.#catalog = this.#reserve();
    this.#pageTree = this.#reserve();
    this.#fonts = standardFontObjects().map(({ resource, body }) => `/${resource} ${ref(this.#object(body))}`);
  }

  get pageCount(): number {
    return this.#kids.length;
  }

  /** One drawn page `widthPt` × `heightPt`. */
  page(widthPt: number, heightPt: number, content: PageContent): void {
    const xobjects = [...content.xobjects].map(([xobject, name]) => `/${name} ${ref(this.#xobject(xobject))}`);
    const contents = this.#stream(content.toStream());
    this.#kids.push(
      this.#object(
        `<< /Type /Page /Parent ${ref(this.#pageTree)} /MediaBox [0 0 ${num(widthPt)} ${num(heightPt)}] ` +
          `/Resources ${pageResources(this.#fonts, xobjects)} /Contents ${ref(contents)} >>`,
      ),
    );
  }

  /**
   * The pages of a PDF that Porter wrote (a label, a manifest): its objects are copied under new
   * numbers, its catalog, page tree and information left behind.
   */
  importPages(pdf: Buffer): void {
    const objects = readObjects(pdf);
    const renumbered = new Map<number, number>();
    for (const object of objects) {
      if (!/\/Type \/(Catalog|Pages)\b|\/Producer /.test(object.dictionary)) {
        renumbered.set(object.number, this.#reserve());
      }
    }
    const renumber = (text: string) =>
      text.replace(/(\d+) 0 R/g, (whole, n: string) => {
        const mapped = renumbered.get(Number(n));
        return mapped === undefined ? whole : ref(mapped);
      });
    for (const object of objects) {
      const number = renumbered.get(object.number);
      if (number === undefined) continue;
      let dictionary = renumber(object.dictionary);
      if (/\/Type \/Page\b/.test(dictionary)) {
        dictionary = dictionary.replace(/\/Parent \d+ 0 R/, `/Parent ${ref(this.#pageTree)}`);
        this.#kids.push(number);
      }
      this.#write(number, object.stream ? [Buffer.from(dictionary, "latin1"), object.stream] : [dictionary]);
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
    this.#write(number, [
      Buffer.from(`<< ${stream.entries} /Length ${stream.data.length} >>\nstream\n`, "latin1"),
      stream.data,
      Buffer.from("\nendstream", "latin1"),
    ]);
    return number;
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

interface PdfObject {
  number: number;
  /** The object's value, or a stream's dictionary line through `stream\n`. */
  dictionary: string;
  /** A stream's data and `endstream`, copied as bytes. */
  stream?: Buffer;
}

/** The objects of a PDF with a classic cross-reference table (as Porter's writer makes). */
function readObjects(pdf: Buffer): PdfObject[] {
  const tail = pdf.subarray(Math.max(0, pdf.length - 64)).toString("latin1");
  const start = /startxref\s+(\d+)/.exec(tail);
  if (!start) throw new Error("not a PDF with a cross-reference table");
  const xref = pdf.subarray(Number(start[1])).toString("latin1");
  const section = /^xref\s+0 (\d+)\s+/.exec(xref);
  if (!section) throw new Error("unreadable cross-reference table");
  const count = Number(section[1]);
  const objects: PdfObject[] = [];
  for (let number = 1; number < count; number++) {
    const entry = xref.substr(section[0].length + number * 20, 20);
    if (entry[17] !== "n") continue;
    const offset = Number(entry.slice(0, 10));
    const header = `${number} 0 obj\n`;
    const bodyStart = offset + header.length;
    const head = pdf.subarray(bodyStart, Math.min(pdf.length, bodyStart + 4096)).toString("latin1");
    const streamAt = head.indexOf(">>\nstream\n");
    const endAt = head.indexOf("\nendobj");
    if (streamAt >= 0 && (endAt < 0 || streamAt < endAt)) {
      const dictionaryEnd = streamAt + ">>\nstream\n".length;
      const length = Number(/\/Length (\d+)/.exec(head.slice(0, streamAt))?.[1]);
      const dataStart = bodyStart + dictionaryEnd;
      objects.push({
        number,
        dictionary: head.slice(0, dictionaryEnd),
        stream: pdf.subarray(dataStart, dataStart + length + "\nendstream".length),
      });
    } else {
      const end = pdf.indexOf("\nendobj", bodyStart, "latin1");
      objects.push({ number, dictionary: pdf.subarray(bodyStart, end).toString("latin1") });
    }
  }
  return objects;
}
