/**
 * The syntax of a PDF file: numbered objects, the cross-reference table that gives each one's
 * byte offset, and the trailer naming the catalog. It knows nothing about pages or labels.
 */

const HEADER = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";

/** A stream's dictionary entries (without `/Length`, which is filled in) and its bytes. */
export interface PdfStream {
  entries: string;
  data: Buffer;
}

export function ref(objectNumber: number): string {
  return `${objectNumber} 0 R`;
}

export class PdfFile {
  private readonly bodies: Array<Buffer[] | undefined> = [];

  /** A number for an object written later: objects that refer to each other (page and page tree) need one first. */
  reserve(): number {
    this.bodies.push(undefined);
    return this.bodies.length;
  }

  /** Writes a reserved object: a dictionary, array or other direct value. */
  define(objectNumber: number, value: string): void {
    this.bodies[objectNumber - 1] = [Buffer.from(value, "latin1")];
  }

  add(value: string): number {
    const objectNumber = this.reserve();
    this.define(objectNumber, value);
    return objectNumber;
  }

  addStream(stream: PdfStream): number {
    const objectNumber = this.reserve();
    this.bodies[objectNumber - 1] = [
      Buffer.from(`<< ${stream.entries} /Length ${stream.data.length} >>\nstream\n`, "latin1"),
      stream.data,
      Buffer.from("\nendstream", "latin1"),
    ];
    return objectNumber;
  }

  toBuffer(catalog: number, info: number): Buffer {
    const header = Buffer.from(HEADER, "latin1");
    const chunks: Buffer[] = [header];
    let offset = header.length;
    // Each cross-reference entry is exactly 20 bytes; object 0 heads the list of free objects.
    const entries = ["0000000000 65535 f \n"];
    this.bodies.forEach((body, index) => {
      if (!body) throw new Error(`PDF object ${index + 1} was reserved but never written`);
      entries.push(`${String(offset).padStart(10, "0")} 00000 n \n`);
      const object = [Buffer.from(`${index + 1} 0 obj\n`, "latin1"), ...body, Buffer.from("\nendobj\n", "latin1")];
      for (const chunk of object) offset += chunk.length;
      chunks.push(...object);
    });
    const trailer =
      `xref\n0 ${entries.length}\n${entries.join("")}` +
      `trailer\n<< /Size ${entries.length} /Root ${ref(catalog)} /Info ${ref(info)} >>\n` +
      `startxref\n${offset}\n%%EOF\n`;
    chunks.push(Buffer.from(trailer, "latin1"));
    return Buffer.concat(chunks);
  }
}
