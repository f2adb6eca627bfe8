/**
 * DHL eCommerce (Americas) package numbers: every package has a `GM`
 * package id; domestic packages also get the USPS IMpb that DHL hands the parcel over with.
 */
import type { ServiceScope } from "../catalogue.js";
import { serialField } from "../sandbox/check-digits.js";
import { impbTrackingNumber, isValidImpb, isValidImpbBarcodeData } from "../usps/tracking-number.js";

/** Stands in for the customer prefix that follows `GM`; GM numbers carry no check digit. */
const SANDBOX_PACKAGE_ID_PREFIX = "GM999999";
/** Fake 9-digit Mailer ID under which sandbox DHL eCommerce parcels enter the USPS network. */
const DOMESTIC_MAILER_ID = "999000003";
/** Domestic parcels are inducted into USPS as Parcel Select. */
const PARCEL_SELECT_SERVICE_TYPE_CODE = "612";
/** A package id is 10–39 characters; the sandbox only recognises the `GM` kind it issues. */
const GM_PACKAGE_ID = /^GM\d{8,37}$/;

export interface DhlEcommerceTrackingOptions {
  scope: ServiceScope;
}

export interface DhlEcommerceTrackingNumbers {
  /** The "GM number" the package is labelled and manifested under. */
  packageId: string;
  /** The USPS IMpb of a domestic package; international packages only get one after shipping. */
  trackingId: string | null;
}

/** The USPS IMpb a domestic package is handed over with. */
function uspsTrackingId(serial: number): string {
  return impbTrackingNumber(serial, {
    channel: "92",
    serviceTypeCode: PARCEL_SELECT_SERVICE_TYPE_CODE,
    mailerId: DOMESTIC_MAILER_ID,
  });
}

export function generateTrackingNumber(
  serial: number,
  options: DhlEcommerceTrackingOptions,
): DhlEcommerceTrackingNumbers {
  return {
    packageId: `${SANDBOX_PACKAGE_ID_PREFIX}${serialField(serial, 10)}`,
    trackingId: options.scope === "domestic" ? uspsTrackingId(serial) : null,
  };
}

/** Accepts a GM package id, the USPS IMpb, or the IMpb with its `420`+ZIP routing prefix (as DHL shows it). */
export function isValidTrackingNumber(value: string): boolean {
  return GM_PACKAGE_ID.test(value) || isValidImpb(value) || isValidImpbBarcodeData(value);
}
