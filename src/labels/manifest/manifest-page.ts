/** What the manifest layouts share: the letter sheet, its margins, and the columns of tracking numbers. */
import type { LabelDrawing, TextItem } from "../drawing.js";
import { LabelLayout } from "../layout/label-layout.js";
import { addressLines } from "../layout/label-values.js";
import { inGroups, type ManifestDocument, type ManifestRow, pageCount } from "./manifest-document.js";

export const SHEET = { widthIn: 8.5, heightIn: 11 } as const;
export const MARGIN_IN = 0.5;
export const CONTENT_WIDTH_IN = SHEET.widthIn - 2 * MARGIN_IN;
/** The last y a list row may start at. */
const LIST_BOTTOM_IN = SHEET.heightIn - MARGIN_IN - 0.3;
const LIST_SIZE_PT = 8;
const LIST_LINE_IN = 0.155;

export function newSheet(): LabelLayout {
  return new LabelLayout({ widthIn: SHEET.widthIn, heightIn: SHEET.heightIn, scale: 1, compact: false });
}

export function sheetDrawing(layout: LabelLayout): LabelDrawing {
  return { widthIn: SHEET.widthIn, heightIn: SHEET.heightIn, items: layout.items };
}

/** How many rows fit from `top` down in `columns` columns. */
export function listCapacity(top: number, columns: number): number {
  return Math.floor((LIST_BOTTOM_IN - top) / LIST_LINE_IN) * columns;
}

/** Where a document's list of pieces starts on its first page and on the pages after. */
export interface ListPlan {
  columns: number;
  firstTop: number;
  nextTop: number;
}

/** The rows a page lists, with the page's number and the document's page count. */
export async function* listPages(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
  plan: ListPlan,
): AsyncIterable<{ rows: ManifestRow[]; page: number; pages: number }> {
  const first = listCapacity(plan.firstTop, plan.columns);
  const rest = listCapacity(plan.nextTop, plan.columns);
  const pages = pageCount(document.trackingNumberCount, first, rest);
  let page = 0;
  for await (const group of inGroups(rows, (index) => (index === 0 ? first : rest))) {
    page += 1;
    yield { rows: group, page, pages };
  }
}

/**
 * Rows of text in newspaper columns (down the first, then the next) from `top`: one text item
 * per column, so a page of two hundred numbers is a handful of drawing items.
 */
export function listColumns(layout: LabelLayout, top: number, columns: number, rows: readonly string[]): void {
  const perColumn = Math.floor((LIST_BOTTOM_IN - top) / LIST_LINE_IN);
  const width = CONTENT_WIDTH_IN / columns;
  for (let column = 0; column * perColumn < rows.length; column++) {
    const item: TextItem = {
      kind: "text",
      x: MARGIN_IN + column * width,
      y: top,
      width,
      lines: rows.slice(column * perColumn, (column + 1) * perColumn),
      lineHeight: LIST_LINE_IN,
      sizePt: LIST_SIZE_PT,
      weight: "regular",
      align: "left",
    };
    layout.add(item);
  }
}

/** "Page 2 of 7" and the document number along the bottom of every page. */
export function pageFooter(layout: LabelLayout, document: ManifestDocument, page: number, pages: number): void {
  const y = SHEET.heightIn - MARGIN_IN - 0.12;
  layout.rule(y - 0.06, 0.01, MARGIN_IN, CONTENT_WIDTH_IN);
  layout.text(`${document.documentNumber}`, { x: MARGIN_IN, y, width: 4, sizePt: 7 });
  layout.text(`Page ${page} of ${pages}`, {
    x: SHEET.widthIn - MARGIN_IN - 2,
    y,
    width: 2,
    sizePt: 7,
    align: "right",
  });
}

/** The sandbox's marking: a test document hands nothing to the carrier. */
export function testBanner(layout: LabelLayout, y: number): number {
  const height = 0.3;
  layout.rect(MARGIN_IN, y, CONTENT_WIDTH_IN, height);
  layout.text("TEST DOCUMENT – NOT VALID FOR MAILING", {
    x: MARGIN_IN,
    y: layout.capsCentredIn(y, height, 12),
    width: CONTENT_WIDTH_IN,
    sizePt: 12,
    weight: "bold",
    align: "center",
    reverse: true,
  });
  return y + height + 0.15;
}

/** A labelled block of lines ("MAILER" over the address); returns the y below it. */
export function labelledBlock(
  layout: LabelLayout,
  x: number,
  y: number,
  width: number,
  label: string,
  lines: readonly (string | null | undefined)[],
): number {
  const below = layout.text(label, { x, y, width, sizePt: 7, weight: "bold" });
  return layout.text(lines, { x, y: below + 0.05, width, sizePt: 10 });
}

export function mailerLines(document: ManifestDocument): string[] {
  return addressLines(document.mailer, { uppercase: true, phone: false });
}

/** The counts table: one line per class, then the total; returns the y below it. */
export function countsTable(
  layout: LabelLayout,
  document: ManifestDocument,
  x: number,
  y: number,
  width: number,
): number {
  let top = layout.text("PIECES BY CLASS", { x, y, width, sizePt: 7, weight: "bold" }) + 0.05;
  const rowHeight = 0.2;
  const total = document.counts.reduce((sum, line) => sum + line.pieces, 0);
  for (const [index, line] of [...document.counts, { label: "Total pieces", pieces: total }].entries()) {
    const weight = index === document.counts.length ? "bold" : "regular";
    layout.rule(top, 0.01, x, width);
    layout.text(line.label, { x: x + 0.05, y: top + 0.05, width: width * 0.7, sizePt: 10, weight });
    layout.text(String(line.pieces), { x, y: top + 0.05, width: width - 0.05, sizePt: 10, weight, align: "right" });
    top += rowHeight;
  }
  layout.rule(top, 0.01, x, width);
  return top + 0.1;
}

/** What a barcoded manifest says of itself: its title and, beside the shipper, its facts. */
export interface BarcodedManifestHeading {
  title: string;
  /** The heading of the facts block ("MANIFEST", "CLOSE"). */
  factsLabel: string;
  facts: readonly string[];
}

const BARCODED_LIST: ListPlan = { columns: 2, firstTop: 5.6, nextTop: 2.2 };

function pageBarcode(layout: LabelLayout, document: ManifestDocument, page: number, y: number): number {
  const data = `${document.documentNumber}-${page}`;
  layout.add({
    kind: "linear-barcode",
    symbology: "code128",
    data,
    x: MARGIN_IN,
    y,
    width: 4,
    height: 0.6,
    moduleWidth: 0.014,
  });
  return layout.text(data, { x: MARGIN_IN, y: y + 0.65, width: 4, sizePt: 9, align: "center" });
}

/**
 * A carrier manifest with a Code 128 barcode of its number and page on every page (DHL
 * eCommerce's manifest, FedEx Ground's close): shipper, facts and counts on the first page, then
 * the listed packages in two columns.
 */
export async function* barcodedManifestPages(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
  heading: BarcodedManifestHeading,
): AsyncIterable<LabelDrawing> {
  for await (const { rows: group, page, pages } of listPages(document, rows, BARCODED_LIST)) {
    const layout = newSheet();
    let y = layout.text(page === 1 ? heading.title : `${heading.title} (continued)`, {
      x: MARGIN_IN,
      y: MARGIN_IN,
      width: CONTENT_WIDTH_IN,
      sizePt: 16,
      weight: "bold",
    });
    y = pageBarcode(layout, document, page, y + 0.15) + 0.1;
    if (document.testMode) y = testBanner(layout, y);
    if (page === 1) {
      const half = CONTENT_WIDTH_IN / 2;
      const shipper = labelledBlock(layout, MARGIN_IN, y, half - 0.2, "SHIPPER", mailerLines(document));
      const facts = labelledBlock(layout, MARGIN_IN + half, y, half, heading.factsLabel, heading.facts);
      countsTable(layout, document, MARGIN_IN, Math.max(shipper, facts) + 0.2, half - 0.2);
    }
    listColumns(
      layout,
      page === 1 ? BARCODED_LIST.firstTop : BARCODED_LIST.nextTop,
      BARCODED_LIST.columns,
      group.map((row) => `${row.trackingNumber}   ${row.countedAs}`),
    );
    pageFooter(layout, document, page, pages);
    yield sheetDrawing(layout);
  }
}
