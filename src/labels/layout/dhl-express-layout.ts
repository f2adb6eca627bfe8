/** DHL Express labels: the DHL layout with the global product code of the service. */
import type { LabelRequest } from "../label.js";
import { drawDhlLabel } from "./dhl-layout.js";
import type { LabelLayout } from "./label-layout.js";

/** Global product codes: 9:00 is E, 12:00 is Y, Express Worldwide is P. */
function productCode(serviceCode: string): string {
  if (/900/.test(serviceCode)) return "E";
  if (/1200/.test(serviceCode)) return "Y";
  return "P";
}

export function layoutDhlExpressLabel(layout: LabelLayout, request: LabelRequest): void {
  drawDhlLabel(layout, request, {
    brand: "DHL EXPRESS",
    productCode: productCode(request.serviceCode),
    trackingTitle: "WAYBILL",
  });
}
