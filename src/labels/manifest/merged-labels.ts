/**
 * `merged_docs`: a batch request's manifest documents and then every label of its shipments in
 * one PDF, written a file at a time. PDFs (Porter's and carriers' own, whatever wrote them) are
 * copied page for page; PNG and JPEG labels become a page of their size; printer formats (ZPL,
 * EPL2) and GIF/TIFF have no page to copy.
 */
import { PageContent } from "../pdf/page-content.js";
import { pdfImageOf } from "../pdf/pdf-image.js";
import { PdfPages } from "../pdf/pdf-pages.js";

export interface StoredDocument {
  /** The stored file's name, to say which one could not be copied. */
  fileName: string;
  bytes: Buffer;
  format: string;
  widthIn: number;
  heightIn: number;
}

/** Told of a PDF left out of the merged file, and why. */
export type UnreadablePdf = (fileName: string, reason: string) => void;

/**
 * A PDF that cannot be read (not a PDF at all, damaged, encrypted) is left out and reported to
 * `unreadable` rather than failing the whole batch job; it stays served on its own.
 */
export async function* mergedPdf(
  documents: AsyncIterable<StoredDocument>,
  unreadable: UnreadablePdf = () => {},
): AsyncIterable<Buffer> {
  const pdf = new PdfPages("Batch documents and labels");
  for await (const document of documents) {
    if (document.format === "pdf") {
      try {
        pdf.importPages(document.bytes);
      } catch (error) {
        unreadable(document.fileName, error instanceof Error ? error.message : String(error));
      }
    } else if (document.format === "png" || document.format === "jpeg") {
      const widthPt = document.widthIn * 72;
      const heightPt = document.heightIn * 72;
      const page = new PageContent(heightPt, 1);
      const image = await pdfImageOf(document.bytes);
      page.paint(image.xobject, [widthPt, 0, 0, -heightPt, 0, heightPt]);
      pdf.page(widthPt, heightPt, page);
    }
    yield* pdf.drain();
  }
  yield* pdf.end();
}
