/**
 * A carrier manifest document (USPS SCAN form, DHL eCommerce manifest, FedEx Ground close): a first page with the
 * mailer, the counts and the document's barcode, then the tracking numbers over as many pages as
 * they need. The pages are drawn with the label drawing model and streamed out as PDF.
 */
import type { LabelDrawing } from "../drawing.js";
import type { LabelAddress } from "../label.js";
import { PdfPages } from "../pdf/pdf-pages.js";
import { drawPage } from "../pdf/pdf-writer.js";
import { dhlEcommerceManifestPages } from "./dhl-ecommerce-manifest-layout.js";
import { fedexGroundClosePages } from "./fedex-ground-close-layout.js";
import { scanFormPages } from "./scan-form-layout.js";

export type ManifestKind = "usps-scan-form" | "dhl-ecommerce-manifest" | "fedex-ground-close";

const LAYOUTS: Record<
  ManifestKind,
  {
    title: string;
    pages: (document: ManifestDocument, rows: AsyncIterable<ManifestRow>) => AsyncIterable<LabelDrawing>;
  }
> = {
  "usps-scan-form": { title: "USPS SCAN Form", pages: scanFormPages },
  "dhl-ecommerce-manifest": { title: "DHL eCommerce Manifest", pages: dhlEcommerceManifestPages },
  "fedex-ground-close": { title: "FedEx Ground End-of-Day Close", pages: fedexGroundClosePages },
};

export interface ManifestDocument {
  kind: ManifestKind;
  /** The document's own number: the SCAN form's EFN, the DHL manifest id, FedEx's shipping cycle. */
  documentNumber: string;
  /** YYYY-MM-DD */
  mailingDate: string;
  /** ISO instant the carrier produced the document. */
  createdAt: string;
  mailer: LabelAddress;
  originPostalCode: string;
  international: boolean;
  testMode: boolean;
  /** Pieces by the line they are counted on ("Priority Mail": 12), in print order. */
  counts: readonly { label: string; pieces: number }[];
  /** Every tracking number listed; the rows arrive separately, in order. */
  trackingNumberCount: number;
}

/** One listed piece. */
export interface ManifestRow {
  trackingNumber: string;
  /** What it is counted as (a mail class, a DHL product). */
  countedAs: string;
  shipmentId: number;
}

/** The document's pages, drawn as the rows arrive. */
export function manifestPages(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
): AsyncIterable<LabelDrawing> {
  return LAYOUTS[document.kind].pages(document, rows);
}

/** The document as PDF bytes, a page at a time. */
export async function* manifestPdf(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
): AsyncIterable<Buffer> {
  const pdf = new PdfPages(LAYOUTS[document.kind].title);
  for await (const drawing of manifestPages(document, rows)) {
    const { widthPt, heightPt, content } = await drawPage(drawing);
    pdf.page(widthPt, heightPt, content);
    yield* pdf.drain();
  }
  yield* pdf.end();
}

/** Rows taken from an async source in groups of `size`, so a page can be filled before drawing it. */
export async function* inGroups<T>(rows: AsyncIterable<T>, sizes: (index: number) => number): AsyncIterable<T[]> {
  let group: T[] = [];
  let index = 0;
  for await (const row of rows) {
    group.push(row);
    if (group.length >= sizes(index)) {
      yield group;
      group = [];
      index += 1;
    }
  }
  if (group.length > 0 || index === 0) yield group;
}

/** Pages needed for `count` rows when the first page holds `first` and the others `rest`. */
export function pageCount(count: number, first: number, rest: number): number {
  return 1 + Math.ceil(Math.max(0, count - first) / rest);
}
