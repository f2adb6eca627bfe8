/** DHL Express air waybill numbers: 9-digit serial + MOD 7 check digit. */
import { dhlExpressMod7CheckDigit, endsWithCheckDigit, serialField } from "../sandbox/check-digits.js";

const WAYBILL_NUMBER = /^\d{10}$/;

/** DHL Express numbers carry nothing but the serial, so there are no options. */
export function generateTrackingNumber(serial: number): string {
  const payload = serialField(serial, 9);
  return `${payload}${dhlExpressMod7CheckDigit(payload)}`;
}

export function isValidTrackingNumber(value: string): boolean {
  return WAYBILL_NUMBER.test(value) && endsWithCheckDigit(value, dhlExpressMod7CheckDigit);
}
