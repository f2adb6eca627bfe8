/**
 * Check-digit arithmetic of the sandbox carriers' tracking numbers.
 * Every `…CheckDigit` function takes the payload, i.e. exactly the characters the check digit
 * protects, and returns the check digit; a malformed payload is a programming error and throws.
 */

const DIGITS = /^\d+$/;
const UPS_CHARACTERS = /^[0-9A-Z]+$/;

/** UPU S10 weights, left to right over the 8-digit serial. */
const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;

/** FedEx 1-3-7 weights, left to right over the 11-digit payload (1, 3, 7 repeating from the right). */
const FEDEX_12_WEIGHTS = [3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1] as const;

function assertPayload(payload: string, shape: RegExp, algorithm: string): void {
  if (!shape.test(payload)) {
    throw new RangeError(`${algorithm} check-digit payload "${payload}" is malformed`);
  }
}

function weightedSum(payload: string, weights: readonly number[]): number {
  return weights.reduce((sum, weight, index) => sum + weight * Number(payload.charAt(index)), 0);
}

/** The amount that lifts `sum` to the next multiple of ten (0 when it already is one). */
function complementToTen(sum: number): number {
  return (10 - (sum % 10)) % 10;
}

/**
 * GS1 MOD 10: weight 3 on the rightmost payload digit, then 1, 3, 1 … leftwards. FedEx 15-digit
 * Ground numbers use it over 14 digits, the FedEx "96" barcode over its 14 shipper + package digits.
 */
export function gs1Mod10CheckDigit(payload: string): number {
  assertPayload(payload, DIGITS, "GS1 MOD 10");
  const fromRight = Array.from(payload, Number).reverse();
  return complementToTen(fromRight.reduce((sum, digit, index) => sum + digit * (index % 2 === 0 ? 3 : 1), 0));
}

/**
 * USPS MOD 10 of Pub 199 (IMpb PIC, legacy 20/22-digit numbers). It is the GS1 routine; the
 * `420`+ZIP routing prefix of the barcode is never part of the payload.
 */
export function uspsMod10CheckDigit(payload: string): number {
  return gs1Mod10CheckDigit(payload);
}

/** UPU S10 MOD 11 over the 8-digit serial of an international item such as `EZ 00001216 2 US`. */
export function s10CheckDigit(serial: string): number {
  assertPayload(serial, /^\d{8}$/, "S10 MOD 11");
  const remainder = weightedSum(serial, S10_WEIGHTS) % 11;
  // 11 − remainder would give 11 or 10 here, which do not fit in one digit; S10 maps them to 5 and 0.
  if (remainder === 0) return 5;
  if (remainder === 1) return 0;
  return 11 - remainder;
}

/** UPS maps letters to digits as (ASCII code − 3) mod 10: A=2 … I=0, J=1 … Z=7. */
function upsCharacterValue(character: string): number {
  return DIGITS.test(character) ? Number(character) : (character.charCodeAt(0) - 3) % 10;
}

/**
 * UPS MOD 10: odd positions (from the left) count once, even positions twice. The payload is the
 * 15 characters after `1Z`, or the 9 digits after the service letter of an 11-character waybill.
 */
export function upsCheckDigit(payload: string): number {
  assertPayload(payload, UPS_CHARACTERS, "UPS MOD 10");
  const values = Array.from(payload, upsCharacterValue);
  return complementToTen(values.reduce((sum, value, index) => sum + value * (index % 2 === 0 ? 1 : 2), 0));
}

/** FedEx 12-digit "1-3-7" MOD 11 over the first 11 digits; a remainder of 10 becomes 0. */
export function fedex12CheckDigit(payload: string): number {
  assertPayload(payload, /^\d{11}$/, "FedEx 1-3-7 MOD 11");
  return (weightedSum(payload, FEDEX_12_WEIGHTS) % 11) % 10;
}

/** DHL Express MOD 7: the serial read as an integer, modulo 7 (digit by digit, so any length works). */
export function dhlExpressMod7CheckDigit(payload: string): number {
  assertPayload(payload, DIGITS, "DHL Express MOD 7");
  return Array.from(payload, Number).reduce((remainder, digit) => (remainder * 10 + digit) % 7, 0);
}

/**
 * True when the last character of `value` is the check digit `checkDigit` computes over the rest.
 * Check the shape of `value` first: a malformed payload throws.
 */
export function endsWithCheckDigit(value: string, checkDigit: (payload: string) => number): boolean {
  return value.length > 1 && value.slice(-1) === String(checkDigit(value.slice(0, -1)));
}

/**
 * A sandbox serial as the fixed-width digit field a tracking number carries. Serials that do not
 * fit are refused rather than wrapped, because wrapping would hand out the same number twice.
 */
export function serialField(serial: number, width: number): string {
  if (!Number.isSafeInteger(serial) || serial < 0 || serial >= 10 ** width) {
    throw new RangeError(`serial ${serial} does not fit a ${width}-digit tracking-number field`);
  }
  return String(serial).padStart(width, "0");
}
