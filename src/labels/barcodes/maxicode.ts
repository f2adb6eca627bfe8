/**
 * MaxiCode (ISO/IEC 16023) modes 2 and 3, the structured carrier message UPS labels carry, as
 * the dark hexagons of the 33 × 30 grid. bwip-js ran BWIPP's PostScript for this, about 1 ms a
 * symbol; this encodes the same text to the same modules, in the same order, in about 30 µs.
 */
import { checkCodewords } from "./maxicode-ecc.js";
import { FIXED_DARK_MODULES, MODULE_OF_BIT } from "./maxicode-placement.js";
import { encodeText } from "./maxicode-text.js";

export type MaxiCodeMode = 2 | 3;

const GS = 0x1d;
/** `[)>` RS `01` GS: the ANSI MH10.8.3 header, followed by two digits of transport format. */
const HEADER = [0x5b, 0x29, 0x3e, 0x1e, 0x30, 0x31, 0x1d];
const HEADER_LENGTH = 9;
/** bwip-js's limits: the whole text, and the secondary message before encoding. */
const MAX_TEXT_BYTES = 1000;
const MAX_SECONDARY_BYTES = 138;
/** Secondary data codewords in modes 2 and 3 (standard error correction). */
const SECONDARY_CODEWORDS = 84;
const PRIMARY_CHECK_CODEWORDS = 10;
const SECONDARY_CHECK_CODEWORDS = 20;

/** The text as bytes the way bwip-js passes it to BWIPP: UTF-8 once anything is beyond ASCII. */
function textBytes(text: string): number[] {
  const bytes = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return Array.from(new TextEncoder().encode(text));
    bytes[i] = code;
  }
  return bytes;
}

const isDigit = (byte: number) => byte >= 48 && byte <= 57;

interface CarrierMessage {
  postalCode: readonly number[];
  countryCode: number;
  serviceClass: number;
  /** The header (when there is one) and everything after the service class. */
  secondary: readonly number[];
}

/** Lifts postal code, country code and service class out of the text, as BWIPP does. */
function splitCarrierMessage(bytes: readonly number[]): CarrierMessage {
  const hasHeader =
    bytes.length >= HEADER_LENGTH &&
    HEADER.every((byte, i) => bytes[i] === byte) &&
    isDigit(bytes[7] as number) &&
    isDigit(bytes[8] as number);
  const headerLength = hasHeader ? HEADER_LENGTH : 0;
  const fields: number[][] = [];
  let start = headerLength;
  for (let field = 0; field < 3; field++) {
    const end = bytes.indexOf(GS, start);
    if (end < 0) {
      throw new RangeError("MaxiCode: expected postal code, country code and service class, each followed by GS");
    }
    fields.push(bytes.slice(start, end));
    start = end + 1;
  }
  const [postalCode, country, service] = fields as [number[], number[], number[]];
  const secondary = [...bytes.slice(0, headerLength), ...bytes.slice(start)];
  return {
    postalCode,
    countryCode: threeDigits(country, "country code"),
    serviceClass: threeDigits(service, "service class"),
    secondary,
  };
}

function threeDigits(field: readonly number[], name: string): number {
  if (field.length !== 3 || !field.every(isDigit)) throw new RangeError(`MaxiCode: the ${name} must be three digits`);
  return Number(String.fromCharCode(...field));
}

const US_COUNTRY_CODE = 840;

/**
 * The 36-bit postal code field. Mode 2: 6 bits of length, 30 of value (a US ZIP of 5 digits is
 * read as ZIP+4 0000); mode 3: six characters of code set A, space-padded.
 */
function postalCodeBits(mode: MaxiCodeMode, postalCode: readonly number[], countryCode: number): number {
  if (mode === 2) {
    if (postalCode.length === 0 || postalCode.length > 9 || !postalCode.every(isDigit)) {
      throw new RangeError("MaxiCode: a mode 2 postal code must be 1 to 9 digits");
    }
    const digits = String.fromCharCode(...postalCode);
    const zip = countryCode === US_COUNTRY_CODE && digits.length === 5 ? `${digits}0000` : digits;
    return zip.length * 2 ** 30 + Number(zip);
  }
  const allowed = (byte: number) => byte === 32 || (byte >= 34 && byte <= 58) || (byte >= 65 && byte <= 90);
  if (postalCode.length === 0 || postalCode.length > 6 || !postalCode.every(allowed)) {
    throw new RangeError("MaxiCode: a mode 3 postal code must be 1 to 6 of space, A–Z, 0–9 and punctuation");
  }
  let bits = 0;
  for (let i = 0; i < 6; i++) {
    const byte = postalCode[i] ?? 32;
    // Code set A: space, punctuation and digits keep their ASCII value, A–Z are 1–26.
    bits = bits * 64 + (byte >= 65 ? byte - 64 : byte);
  }
  return bits;
}

/**
 * The 10 primary codewords: mode, postal code, country code and service class interleaved as
 * ISO/IEC 16023 §4.8.2 lays out the structured carrier message.
 */
function primaryCodewords(mode: MaxiCodeMode, postal: number, country: number, service: number): number[] {
  const postalSix = (shift: number) => Math.floor(postal / 2 ** shift) % 64;
  return [
    ((postal % 4) << 4) | mode,
    postalSix(2),
    postalSix(8),
    postalSix(14),
    postalSix(20),
    postalSix(26),
    ((country & 3) << 4) | Math.floor(postal / 2 ** 32),
    (country >> 2) & 63,
    ((service & 15) << 2) | (country >> 8),
    service >> 4,
  ];
}

/** The secondary message's check codewords: odd and even positions separately, interleaved. */
function secondaryCheckCodewords(secondary: readonly number[]): number[] {
  const halves: [number[], number[]] = [[], []];
  secondary.forEach((codeword, i) => {
    halves[i % 2]?.push(codeword);
  });
  const [odd, even] = halves.map((half) => checkCodewords(half, SECONDARY_CHECK_CODEWORDS)) as [number[], number[]];
  const interleaved: number[] = [];
  odd.forEach((check, k) => {
    interleaved.push(check, even[k] as number);
  });
  return interleaved;
}

/**
 * Indices (row × 30 + column) of the dark hexagons of the symbol for `text` — the header,
 * postal code, country code, service class and the rest, GS-separated — in BWIPP's order.
 * Throws a RangeError for text bwip-js refuses, such as a secondary message that does not fit.
 */
export function maxiCodeDarkModules(text: string, mode: MaxiCodeMode): number[] {
  const bytes = textBytes(text);
  if (bytes.length === 0 || bytes.length > MAX_TEXT_BYTES)
    throw new RangeError("MaxiCode: the text must be 1 to 1000 bytes");
  const message = splitCarrierMessage(bytes);
  const postal = postalCodeBits(mode, message.postalCode, message.countryCode);
  // bwip-js fails on an empty secondary message too.
  if (message.secondary.length === 0 || message.secondary.length > MAX_SECONDARY_BYTES) {
    throw new RangeError("MaxiCode: the secondary message must be 1 to 138 bytes");
  }
  const { codewords, pad } = encodeText(message.secondary, SECONDARY_CODEWORDS);
  if (codewords.length > SECONDARY_CODEWORDS) throw new RangeError("MaxiCode: the secondary message is too long");
  const primary = primaryCodewords(mode, postal, message.countryCode, message.serviceClass);
  const secondary = codewords.concat(new Array<number>(SECONDARY_CODEWORDS - codewords.length).fill(pad));
  const symbol = primary.concat(
    checkCodewords(primary, PRIMARY_CHECK_CODEWORDS),
    secondary,
    secondaryCheckCodewords(secondary),
  );
  const dark: number[] = [];
  symbol.forEach((codeword, index) => {
    for (let bit = 0; bit < 6; bit++) {
      if ((codeword >> (5 - bit)) & 1) dark.push(MODULE_OF_BIT[index * 6 + bit] as number);
    }
  });
  return dark.concat(FIXED_DARK_MODULES);
}
