/**
 * `merged_docs`: a batch request's manifest documents and then every label of its shipments in
 * one PDF, written a file at a time. PDF labels are copied page for page; PNG and JPEG labels
 * become a page of their size; printer formats (ZPL, EPL2) and GIF/TIFF have no page to copy.
 */
import { PageContent } from "../pdf/page-content.js";
import { pdfImageOf } from "../pdf/pdf-image.js";
import { PdfPages } from "../pdf/pdf-pages.js";

export interface StoredDocument {
  bytes: Buffer;
  format: string;
  widthIn: number;
  heightIn: number;
}

export async function* mergedPdf(documents: AsyncIterable<StoredDocument>): AsyncIterable<Buffer> {
  const pdf = new PdfPages("Batch documents and labels");
  for await (const document of documents) {
    if (document.format === "pdf") {
      importCopyable(pdf, document.bytes);
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

/**
 * A carrier's PDF (a SCAN form, a label) is copied when it has the classic cross-reference table
 * Porter's reader takes; one written otherwise is left out of the merged file rather than failing
 * the whole batch job, and stays served on its own.
 */
function importCopyable(pdf: PdfPages, bytes: Buffer): void {
  try {
    pdf.importPages(bytes);
  } catch {
    return;
  }
}
