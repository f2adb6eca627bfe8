import type { ManifestCapability } from "../carrier.js";
import { serialField } from "../sandbox/check-digits.js";

/** The sandbox's DHL eCommerce pickup account, printed on its manifests. */
export const SANDBOX_PICKUP_ACCOUNT = "5399999";

/** DHL eCommerce product ids by service. */
const PRODUCTS: readonly [RegExp, string][] = [
  [/parcel_expedited_max/, "MAX"],
  [/parcel_expedited/, "EXP"],
  [/bpm_expedited/, "BEX"],
  [/bpm_ground/, "BGN"],
  [/parcel_ground/, "GND"],
  // eHub lists the international products under two codes each: dhl_parcel_intl_direct and dhl_parcel_international_direct …
  // … and its newer "direct standard" listings are the standard product (services.ts).
  [/direct_standard/, "PLY"],
  [/int(l|ernational)_direct/, "PLT"],
  [/int(l|ernational)_standard/, "PLY"],
  [/packet_int(l|ernational)/, "PKY"],
];

/** DHL eCommerce closes out labels onto a manifest per pickup account; without one a label stays on hold. */
export const dhlEcommerceManifests: ManifestCapability = {
  documentName: "DHL eCommerce Manifest",
  // ⚠ Not confirmed: the sandbox's limit per manifest document.
  documentLimit: 10_000,
  daily: true,
  refusal(piece, form) {
    if (piece.shipDate > form.mailingDate) {
      return `its label is dated ${piece.shipDate}, after the manifest's date ${form.mailingDate}`;
    }
    return undefined;
  },
  countedAs(piece) {
    return PRODUCTS.find(([pattern]) => pattern.test(piece.serviceCode))?.[1] ?? "Other";
  },
  async fileManifest(request) {
    return { documentNumber: `${SANDBOX_PICKUP_ACCOUNT}${serialField(request.serial, 10)}` };
  },
};
