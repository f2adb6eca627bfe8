/**
 * USPS tracking numbers: IMpb PICs for domestic mail, UPU S10 numbers for
 * international mail. FedEx Ground Economy and DHL eCommerce hand their parcels to USPS, so they
 * issue IMpb numbers through `impbTrackingNumber` with their own Mailer ID.
 */
import { endsWithCheckDigit, s10CheckDigit, serialField, uspsMod10CheckDigit } from "../sandbox/check-digits.js";

/**
 * The sandbox's fake Mailer ID. A MID starting with 9 is a 9-digit MID, which leaves a 7-digit
 * serial inside a 22-digit PIC.
 */
const SANDBOX_MAILER_ID = "999000001";

const SERVICE_TYPE_CODE = /^\d{3}$/;
const NINE_DIGIT_MAILER_ID = /^9\d{8}$/;
const IMPB = /^9[2-5](?:\d{20}|\d{24})$/;
/** What USPS MOD 10 protects: IMpb PICs plus the legacy 20-digit and `91` 22-digit numbers. */
const USPS_MOD_10_NUMBER = /^(?:\d{20}|9[1-5]\d{20}|9[2-5]\d{24})$/;
const SERVICE_INDICATOR = /^[A-Z]{2}$/;
const S10_NUMBER = /^[A-Z]{2}\d{9}US$/;
const ROUTING_ZIP = /^(\d{5})(?:-?(\d{4}))?$/;

/** IMpb channel application identifier: `92` commercial (9-digit MID), `94` online and USPS API labels. */
export type ImpbChannel = "92" | "94";

export interface ImpbFields {
  channel: ImpbChannel;
  /** 3-digit Service Type Code, e.g. `001` Ground Advantage, `055` Priority Mail, `612` Parcel Select. */
  serviceTypeCode: string;
  /** 9-digit Mailer ID starting with 9. */
  mailerId: string;
}

export interface UspsDomesticTrackingOptions {
  scope: "domestic";
  serviceTypeCode: string;
}

export interface UspsInternationalTrackingOptions {
  scope: "international";
  /** The 2-letter UPU service indicator, e.g. `EZ`, `CP`, `LX`. */
  serviceIndicator: string;
}

export type UspsTrackingOptions = UspsDomesticTrackingOptions | UspsInternationalTrackingOptions;

/** A 22-digit PIC: channel + STC + MID + 7-digit serial + MOD 10 check digit. */
export function impbTrackingNumber(serial: number, fields: ImpbFields): string {
  if (!SERVICE_TYPE_CODE.test(fields.serviceTypeCode)) {
    throw new RangeError(`IMpb service type code "${fields.serviceTypeCode}" must be 3 digits`);
  }
  if (!NINE_DIGIT_MAILER_ID.test(fields.mailerId)) {
    throw new RangeError(`IMpb mailer ID "${fields.mailerId}" must be 9 digits starting with 9`);
  }
  const payload = fields.channel + fields.serviceTypeCode + fields.mailerId + serialField(serial, 7);
  return `${payload}${uspsMod10CheckDigit(payload)}`;
}

/** True for a 22- or 26-digit IMpb PIC (channel 92–95) with a correct check digit. */
export function isValidImpb(value: string): boolean {
  return IMPB.test(value) && endsWithCheckDigit(value, uspsMod10CheckDigit);
}

/**
 * True for GS1-128 barcode data `420` + ZIP5 or ZIP+4 + IMpb. It is not a tracking number, but
 * carriers that ride on USPS sometimes show it as one.
 */
export function isValidImpbBarcodeData(value: string): boolean {
  return /^420\d+$/.test(value) && (isValidImpb(value.slice(8)) || isValidImpb(value.slice(12)));
}

function s10TrackingNumber(serial: number, serviceIndicator: string): string {
  if (!SERVICE_INDICATOR.test(serviceIndicator)) {
    throw new RangeError(`S10 service indicator "${serviceIndicator}" must be 2 capital letters`);
  }
  const serialDigits = serialField(serial, 8);
  return `${serviceIndicator}${serialDigits}${s10CheckDigit(serialDigits)}US`;
}

/** Domestic labels get a `94` IMpb under the sandbox MID; international ones an S10 number. */
export function generateTrackingNumber(serial: number, options: UspsTrackingOptions): string {
  if (options.scope === "international") return s10TrackingNumber(serial, options.serviceIndicator);
  return impbTrackingNumber(serial, {
    channel: "94",
    serviceTypeCode: options.serviceTypeCode,
    mailerId: SANDBOX_MAILER_ID,
  });
}

/** IMpb, legacy 20/22-digit and S10 numbers; barcode data with the `420` routing prefix is not a tracking number. */
export function isValidTrackingNumber(value: string): boolean {
  if (S10_NUMBER.test(value)) return endsWithCheckDigit(value.slice(2, 11), s10CheckDigit);
  return USPS_MOD_10_NUMBER.test(value) && endsWithCheckDigit(value, uspsMod10CheckDigit);
}

/**
 * The GS1-128 data of the IMpb barcode: AI `420` + destination ZIP5 or ZIP+4 (hyphen dropped),
 * then the PIC. The routing part stays out of the tracking number itself, as in the USPS API.
 */
export function impbRoutingBarcodeData(trackingNumber: string, destinationZip: string): string {
  const zip = ROUTING_ZIP.exec(destinationZip);
  if (!zip) throw new RangeError(`destination ZIP "${destinationZip}" is not a ZIP5 or ZIP+4`);
  if (!isValidImpb(trackingNumber)) throw new RangeError(`"${trackingNumber}" is not an IMpb tracking number`);
  return `420${zip[1]}${zip[2] ?? ""}${trackingNumber}`;
}
