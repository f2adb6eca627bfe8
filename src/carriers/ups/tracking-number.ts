/**
 * UPS tracking numbers: the 18-character `1Z` number the sandbox issues,
 * and the 11-character waybill form that validation also recognises.
 */
import { endsWithCheckDigit, serialField, upsCheckDigit } from "../sandbox/check-digits.js";

const SHIPPER_ACCOUNT = /^[0-9A-Z]{6}$/;
const SERVICE_CODE = /^[0-9A-Z]{2}$/;
const ONE_Z_NUMBER = /^1Z[0-9A-Z]{15}\d$/;
/** `J` Next Day Express, `K` Ground, `V` Worldwide Express Saver; the check covers the 9 digits after the letter. */
const WAYBILL_NUMBER = /^[JKV]\d{10}$/;

export interface UpsTrackingOptions {
  /** 6-character UPS shipper account number, e.g. `999AA1`. */
  shipperAccount: string;
  /** 2-character service code inside the number, e.g. `01` Next Day Air, `03` Ground. */
  serviceCode: string;
}

/** `1Z` + shipper account + service code + 7-digit package id + UPS MOD 10 check digit. */
export function generateTrackingNumber(serial: number, options: UpsTrackingOptions): string {
  if (!SHIPPER_ACCOUNT.test(options.shipperAccount)) {
    throw new RangeError(`UPS shipper account "${options.shipperAccount}" must be 6 capital letters or digits`);
  }
  if (!SERVICE_CODE.test(options.serviceCode)) {
    throw new RangeError(`UPS service code "${options.serviceCode}" must be 2 capital letters or digits`);
  }
  const payload = options.shipperAccount + options.serviceCode + serialField(serial, 7);
  return `1Z${payload}${upsCheckDigit(payload)}`;
}

export function isValidTrackingNumber(value: string): boolean {
  if (ONE_Z_NUMBER.test(value)) return endsWithCheckDigit(value.slice(2), upsCheckDigit);
  return WAYBILL_NUMBER.test(value) && endsWithCheckDigit(value.slice(1), upsCheckDigit);
}
