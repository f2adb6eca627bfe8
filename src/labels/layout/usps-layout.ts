/** USPS labels: the postal layout with the service icon, class marking and banner of the mail class. */
import { impbRoutingBarcodeData, isValidImpb } from "../../carriers/usps/tracking-number.js";
import type { LabelRequest } from "../label.js";
import type { LabelLayout } from "./label-layout.js";
import { drawPostalLabel, type PostalBarcode, type PostalHeader, type ServiceIcon } from "./postal-layout.js";

interface MailClass {
  pattern: RegExp;
  icon: ServiceIcon;
  marking: string;
}

// Patterns match eHub's service codes (`usps_express`, `usps_intl_priority` …). DMM: P for Priority
// Mail, E for Express, F for First-Class; package services print a solid square; G is ⚠.
const MAIL_CLASSES: readonly MailClass[] = [
  { pattern: /_express$/, icon: { kind: "letter", letter: "E" }, marking: "PRIORITY MAIL EXPRESS" },
  { pattern: /priority/, icon: { kind: "letter", letter: "P" }, marking: "PRIORITY MAIL" },
  { pattern: /ground_advantage/, icon: { kind: "letter", letter: "G" }, marking: "GROUND ADVANTAGE" },
  { pattern: /first_class/, icon: { kind: "letter", letter: "F" }, marking: "FIRST-CLASS" },
  { pattern: /parcel_select/, icon: { kind: "solid" }, marking: "PARCEL SELECT" },
  { pattern: /media/, icon: { kind: "solid" }, marking: "MEDIA MAIL" },
  { pattern: /library/, icon: { kind: "solid" }, marking: "LIBRARY MAIL" },
];

const PERMIT_HOLDER = "PORTER";

function uspsHeader(request: LabelRequest): PostalHeader {
  const { serviceCode, serviceName } = request;
  const mailClass = MAIL_CLASSES.find((candidate) => candidate.pattern.test(serviceCode));
  const international = /_intl_/.test(serviceCode) ? " INTERNATIONAL" : "";
  // The return mail classes print their class's marking with RETURN after it.
  const suffix = `${international}${request.returnLabel ? " RETURN" : ""}`;
  const marking = mailClass ? mailClass.marking + suffix : serviceName.toUpperCase().replace(/^USPS\s+/, "");
  return {
    icon: mailClass?.icon ?? { kind: "solid" },
    classMarking: marking,
    permitHolder: PERMIT_HOLDER,
    banner: `USPS ${marking}`,
  };
}

/**
 * Splits IMpb barcode data (`420` + ZIP5 or ZIP+4 + PIC) into its routing element and PIC, or
 * returns null when it is not IMpb data.
 */
export function splitImpbBarcodeData(barcodeData: string): { routing: string; pic: string } | null {
  for (const zipDigits of [5, 9]) {
    const routing = barcodeData.slice(0, 3 + zipDigits);
    const pic = barcodeData.slice(3 + zipDigits);
    if (routing.startsWith("420") && /^\d+$/.test(routing) && isValidImpb(pic)) return { routing, pic };
  }
  return null;
}

/** Domestic PICs get the IMpb; anything else (S10 numbers abroad) a plain Code 128. */
function uspsBarcode(request: LabelRequest): PostalBarcode {
  const data =
    request.barcodeData ??
    (isValidImpb(request.trackingNumber) && request.to.country.toUpperCase() === "US"
      ? impbRoutingBarcodeData(request.trackingNumber, request.to.postalCode)
      : null);
  const impb = data ? splitImpbBarcodeData(data) : null;
  return impb ? { kind: "impb", ...impb } : { kind: "code128", data: request.trackingNumber };
}

export function layoutUspsLabel(layout: LabelLayout, request: LabelRequest): void {
  drawPostalLabel(layout, request, uspsHeader(request), uspsBarcode(request));
}
