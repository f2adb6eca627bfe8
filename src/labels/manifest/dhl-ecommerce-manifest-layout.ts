/**
 * The DHL eCommerce manifest (closeout) document: pickup account, date and counts by product on
 * the first page, and on every page a barcode of the manifest id and page, then the listed
 * packages.
 */
import type { LabelDrawing } from "../drawing.js";
import type { LabelLayout } from "../layout/label-layout.js";
import { usDate } from "../layout/label-values.js";
import type { ManifestDocument, ManifestRow } from "./manifest-document.js";
import {
  CONTENT_WIDTH_IN,
  countsTable,
  type ListPlan,
  labelledBlock,
  listColumns,
  listPages,
  MARGIN_IN,
  mailerLines,
  newSheet,
  pageFooter,
  sheetDrawing,
  testBanner,
} from "./manifest-page.js";

const DHL_LIST: ListPlan = { columns: 2, firstTop: 5.6, nextTop: 2.2 };

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

export async function* dhlEcommerceManifestPages(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
): AsyncIterable<LabelDrawing> {
  for await (const { rows: group, page, pages } of listPages(document, rows, DHL_LIST)) {
    const layout = newSheet();
    let y = layout.text(page === 1 ? "DHL eCommerce – Manifest" : "DHL eCommerce – Manifest (continued)", {
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
      const facts = labelledBlock(layout, MARGIN_IN + half, y, half, "MANIFEST", [
        `Manifest id: ${document.documentNumber}`,
        `Pickup account: ${document.documentNumber.slice(0, 7)}`,
        `Date: ${usDate(document.mailingDate)}`,
        document.international ? "International packages" : "Domestic packages",
      ]);
      countsTable(layout, document, MARGIN_IN, Math.max(shipper, facts) + 0.2, half - 0.2);
    }
    listColumns(
      layout,
      page === 1 ? DHL_LIST.firstTop : DHL_LIST.nextTop,
      DHL_LIST.columns,
      group.map((row) => `${row.trackingNumber}   ${row.countedAs}`),
    );
    pageFooter(layout, document, page, pages);
    yield sheetDrawing(layout);
  }
}
