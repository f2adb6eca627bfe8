import type { ManifestCapability } from "../carrier.js";
import { serialField, uspsMod10CheckDigit } from "../sandbox/check-digits.js";

/**
 * The electronic file number (EFN) of a SCAN form: laid out like a PIC (USPS's example:
 * `9475038234567000031430`): channel 94, service type 750, the sandbox Mailer ID, a
 * serial and the MOD 10 check digit the PIC uses.
 */
export function electronicFileNumber(serial: number): string {
  const payload = `94750999000001${serialField(serial, 7)}`;
  return `${payload}${uspsMod10CheckDigit(payload)}`;
}

/** First-Class Mail letters and flats are the USPS pieces that carry no tracking number. */
const UNTRACKED_PACKAGE_TYPES = new Set(["letter", "large_envelope"]);

/** USPS SCAN forms (PS Form 5630), by the USPS SCAN Form API's rules. */
export const uspsManifests: ManifestCapability = {
  documentName: "USPS SCAN Form (PS Form 5630)",
  // The SCAN Form API takes 1 to 40,000 tracking numbers per form.
  documentLimit: 40_000,
  daily: true,
  refusal(piece, form) {
    if (piece.serviceCode === "usps_first_class" && UNTRACKED_PACKAGE_TYPES.has(piece.packageType)) {
      return "First-Class Mail letters and flats carry no tracking number, and a SCAN form lists tracked pieces only";
    }
    if (piece.originPostalCode.slice(0, 5) !== form.originPostalCode.slice(0, 5)) {
      return `it is mailed from ZIP ${piece.originPostalCode.slice(0, 5)}, and one SCAN form covers one entry ZIP (${form.originPostalCode.slice(0, 5)})`;
    }
    if (piece.shipDate > form.mailingDate) {
      return `its label is dated ${piece.shipDate}, after the form's mailing date ${form.mailingDate}`;
    }
    return undefined;
  },
  countedAs(piece) {
    if (piece.scope === "international") return "International";
    if (piece.serviceCode === "usps_express") return "Priority Mail Express";
    if (/priority/.test(piece.serviceCode)) return "Priority Mail";
    if (/ground_advantage/.test(piece.serviceCode)) return "USPS Ground Advantage";
    return "Other";
  },
  async fileManifest(request) {
    return { documentNumber: electronicFileNumber(request.serial) };
  },
};
