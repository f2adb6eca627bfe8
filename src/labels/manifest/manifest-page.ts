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
