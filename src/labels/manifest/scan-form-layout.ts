/**
 * The USPS SCAN form, PS Form 5630 "Shipment Confirmation Acceptance Notice":
 * the mailer, the mailing date and entry ZIP, the pieces by mail class, the form's own IMpb
 * barcode (420 + entry ZIP, then the electronic file number), the acceptance certification, and
 * every tracking number, continued on as many pages as they need.
 */
import type { LabelDrawing } from "../drawing.js";
import { groupCharacters, usDate } from "../layout/label-values.js";
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
  SHEET,
  sheetDrawing,
  testBanner,
} from "./manifest-page.js";

const SCAN_FORM_LIST: ListPlan = { columns: 3, firstTop: 6.3, nextTop: 1.25 };
/** 15 mils: the IMpb X-dimension for sheet printers. */
const IMPB_MODULE_IN = 0.015;

export async function* scanFormPages(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
): AsyncIterable<LabelDrawing> {
  for await (const { rows: group, page, pages } of listPages(document, rows, SCAN_FORM_LIST)) {
    const layout = newSheet();
    const numbers = group.map((row) => groupCharacters(row.trackingNumber, 4));
    if (page === 1) {
      const top = firstPageHead(layout, document);
      layout.text("TRACKING NUMBERS", {
        x: MARGIN_IN,
        y: Math.min(top, SCAN_FORM_LIST.firstTop - 0.2),
        width: CONTENT_WIDTH_IN,
        sizePt: 7,
        weight: "bold",
      });
      listColumns(layout, SCAN_FORM_LIST.firstTop, SCAN_FORM_LIST.columns, numbers);
    } else {
      layout.text(`PS Form 5630 – SCAN Form ${groupCharacters(document.documentNumber, 4)} (continued)`, {
        x: MARGIN_IN,
        y: MARGIN_IN,
        width: CONTENT_WIDTH_IN,
        sizePt: 11,
        weight: "bold",
      });
      layout.text(`Mailing date ${usDate(document.mailingDate)} · Entry ZIP ${document.originPostalCode}`, {
        x: MARGIN_IN,
        y: MARGIN_IN + 0.3,
        width: CONTENT_WIDTH_IN,
        sizePt: 9,
      });
      if (document.testMode) testBanner(layout, MARGIN_IN + 0.5);
      listColumns(layout, SCAN_FORM_LIST.nextTop, SCAN_FORM_LIST.columns, numbers);
    }
    pageFooter(layout, document, page, pages);
    yield sheetDrawing(layout);
  }
}

/** Everything above the list on page 1; returns where the list's heading goes. */
function firstPageHead(layout: ReturnType<typeof newSheet>, document: ManifestDocument): number {
  let y = MARGIN_IN;
  layout.text("UNITED STATES POSTAL SERVICE", { x: MARGIN_IN, y, width: 4, sizePt: 9, weight: "bold" });
  layout.text("PS Form 5630", { x: SHEET.widthIn - MARGIN_IN - 2, y, width: 2, sizePt: 9, align: "right" });
  y = layout.text("SCAN Form – Shipment Confirmation Acceptance Notice", {
    x: MARGIN_IN,
    y: y + 0.25,
    width: CONTENT_WIDTH_IN,
    sizePt: 16,
    weight: "bold",
  });
  layout.rule(y + 0.08, 0.02, MARGIN_IN, CONTENT_WIDTH_IN);
  y += 0.25;
  if (document.testMode) y = testBanner(layout, y);
  const half = CONTENT_WIDTH_IN / 2;
  const mailerBottom = labelledBlock(layout, MARGIN_IN, y, half - 0.2, "MAILER", mailerLines(document));
  const factsBottom = labelledBlock(layout, MARGIN_IN + half, y, half, "SHIPMENT", [
    `Date of mailing: ${usDate(document.mailingDate)}`,
    `Entry facility ZIP: ${document.originPostalCode}`,
    `Mail: ${document.international ? "International" : "Domestic"}`,
    `Form created: ${document.createdAt.slice(0, 16).replace("T", " ")} UTC`,
  ]);
  y = Math.max(mailerBottom, factsBottom) + 0.2;
  y = countsTable(layout, document, MARGIN_IN, y, half - 0.2);

  // The form's own barcode, which the acceptance clerk scans once for every piece listed.
  const barcodeTop = Math.max(y, 4.3);
  layout.add({
    kind: "linear-barcode",
    symbology: "gs1-128",
    elements: [`420${document.originPostalCode.slice(0, 5)}`, document.documentNumber],
    x: MARGIN_IN,
    y: barcodeTop,
    width: CONTENT_WIDTH_IN,
    height: 0.9,
    moduleWidth: IMPB_MODULE_IN,
  });
  y = layout.text(`ELECTRONIC FILE NUMBER ${groupCharacters(document.documentNumber, 4)}`, {
    x: MARGIN_IN,
    y: barcodeTop + 1.0,
    width: CONTENT_WIDTH_IN,
    sizePt: 11,
    weight: "bold",
    align: "center",
  });
  y = layout.paragraph(
    "Postmaster: scan the barcode above to record the acceptance of every piece listed on this form. " +
      "Number of pieces received: ________   Signature of receiving employee: ______________________   Date: __________",
    3,
    { x: MARGIN_IN, y: y + 0.2, width: CONTENT_WIDTH_IN, sizePt: 8 },
  );
  return y + 0.15;
}
