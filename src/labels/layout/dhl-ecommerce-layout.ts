/**
 * DHL eCommerce labels. Domestic parcels are handed to USPS, so they carry the postal layout with
 * a DHL header and the IMpb in `barcodeData`, plus the DHL package id; international parcels get
 * the DHL layout with the package id as Code 128.
 */
import type { LabelRequest } from "../label.js";
import { drawDhlLabel } from "./dhl-layout.js";
import type { LabelLayout } from "./label-layout.js";
import { drawPostalLabel } from "./postal-layout.js";
import { splitImpbBarcodeData } from "./usps-layout.js";

/** DHL eCommerce domestic parcels enter the mail stream as Parcel Select (STC 612). */
const DOMESTIC_MAIL_CLASS = "PARCEL SELECT";

export function layoutDhlEcommerceLabel(layout: LabelLayout, request: LabelRequest): void {
  const impb = request.barcodeData ? splitImpbBarcodeData(request.barcodeData) : null;
  if (!impb) {
    drawDhlLabel(layout, request, { brand: "DHL ECOMMERCE", productCode: null, trackingTitle: "PACKAGE ID" });
    return;
  }
  const header = {
    icon: { kind: "brand", text: "DHL" } as const,
    classMarking: DOMESTIC_MAIL_CLASS,
    permitHolder: "DHL ECOMMERCE",
    banner: request.serviceName.toUpperCase(),
  };
  const packageId = impb.pic === request.trackingNumber ? [] : [`DHL PACKAGE ID: ${request.trackingNumber}`];
  drawPostalLabel(layout, request, header, { kind: "impb", ...impb }, packageId);
}
