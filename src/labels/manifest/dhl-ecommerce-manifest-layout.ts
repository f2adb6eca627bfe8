/**
 * The DHL eCommerce manifest (closeout) document: pickup account, date and counts by product on
 * the first page, and on every page a barcode of the manifest id and page, then the listed
 * packages.
 */
import type { LabelDrawing } from "../drawing.js";
import { usDate } from "../layout/label-values.js";
import type { ManifestDocument, ManifestRow } from "./manifest-document.js";
import { barcodedManifestPages } from "./manifest-page.js";

export function dhlEcommerceManifestPages(
  document: ManifestDocument,
  rows: AsyncIterable<ManifestRow>,
): AsyncIterable<LabelDrawing> {
  return barcodedManifestPages(document, rows, {
    title: "DHL eCommerce – Manifest",
    factsLabel: "MANIFEST",
    facts: [
      `Manifest id: ${document.documentNumber}`,
      `Pickup account: ${document.documentNumber.slice(0, 7)}`,
      `Date: ${usDate(document.mailingDate)}`,
      document.international ? "International packages" : "Domestic packages",
    ],
  });
}
