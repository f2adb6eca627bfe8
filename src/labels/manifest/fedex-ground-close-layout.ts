/**
 * Porter's FedEx Ground end-of-day close document, drawn when FedEx returns no manifest of its
 * own: the close reference and date, counts by service, and on every page a barcode of the
 * reference and page, then the closed packages.
 */
import type { LabelDrawing } from "../drawing.js";
import { usDate } from "../layout/label-values.js";
import type { ManifestDocument, ManifestRow } from "./manifest-document.js";
import { barcodedManifestPages } from "./manifest-page.js";

export function fedexGroundClosePages(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
): AsyncIterable<LabelDrawing> {
  return barcodedManifestPages(document, rows, {
    title: "FedEx Ground – End-of-Day Close",
    factsLabel: "CLOSE",
    facts: [
      `Shipping cycle: ${document.documentNumber}`,
      `Ship date: ${usDate(document.mailingDate)}`,
      `Origin ZIP: ${document.originPostalCode}`,
      "FedEx Ground and Home Delivery packages",
    ],
  });
}
