/**
 * FedEx tracking numbers. The sandbox issues 12-digit numbers for
 * Express and Ground, and a USPS IMpb for Ground Economy; validation knows every family of
 * number FedEx issues.
 */
import { endsWithCheckDigit, fedex12CheckDigit, gs1Mod10CheckDigit, serialField } from "../sandbox/check-digits.js";
import { impbTrackingNumber, isValidImpb } from "../usps/tracking-number.js";

/** Fake 9-digit Mailer ID under which sandbox Ground Economy parcels enter the USPS network. */
const GROUND_ECONOMY_MAILER_ID = "999000002";
/** Ground Economy parcels travel as USPS Parcel Select. */
const PARCEL_SELECT_SERVICE_TYPE_CODE = "612";

export interface FedExTrackingOptions {
  /** Ground Economy (formerly SmartPost) is delivered by USPS and so carries a USPS IMpb. */
  groundEconomy?: boolean;
}

interface FedExNumberFamily {
  shape: RegExp;
  hasValidCheckDigit: (value: string) => boolean;
}

/** The FedEx number families, each with the part of the number its check digit covers. */
const FEDEX_NUMBER_FAMILIES: readonly FedExNumberFamily[] = [
  { shape: /^\d{12}$/, hasValidCheckDigit: (value) => endsWithCheckDigit(value, fedex12CheckDigit) },
  { shape: /^\d{15}$/, hasValidCheckDigit: (value) => endsWithCheckDigit(value, gs1Mod10CheckDigit) },
  // "96" barcode: `96` + SCNC + service type, then the check covers only the shipper and package ids.
  { shape: /^96\d{20}$/, hasValidCheckDigit: (value) => endsWithCheckDigit(value.slice(7), gs1Mod10CheckDigit) },
  { shape: /^92612\d{17}$/, hasValidCheckDigit: isValidImpb },
  // Ground Economy numbers are often shown without the `92` channel; the check covers the 22-digit form.
  { shape: /^612\d{17}$/, hasValidCheckDigit: (value) => isValidImpb(`92${value}`) },
  // 34-digit barcodes end with the 12-digit tracking number.
  { shape: /^\d{34}$/, hasValidCheckDigit: (value) => endsWithCheckDigit(value.slice(-12), fedex12CheckDigit) },
];

export function generateTrackingNumber(serial: number, options: FedExTrackingOptions = {}): string {
  if (options.groundEconomy) {
    return impbTrackingNumber(serial, {
      channel: "92",
      serviceTypeCode: PARCEL_SELECT_SERVICE_TYPE_CODE,
      mailerId: GROUND_ECONOMY_MAILER_ID,
    });
  }
  const payload = serialField(serial, 11);
  return `${payload}${fedex12CheckDigit(payload)}`;
}

export function isValidTrackingNumber(value: string): boolean {
  return FEDEX_NUMBER_FAMILIES.some((family) => family.shape.test(value) && family.hasValidCheckDigit(value));
}
