/**
 * JSON written straight into a buffer, for the two answers written most often (the access log
 * line and the rate answer): printable ASCII, which nearly every string there is, is copied byte
 * by byte and numbers are written as digits, instead of building a string and then encoding it.
 * Callers make sure the buffer has room: at most six bytes (`\uXXXX`) per UTF-16 unit of a string.
 */

export const bytesOf = (text: string) => Buffer.from(text, "utf8");

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const MINUS = 0x2d;
const ZERO = 0x30;
const NULL = bytesOf("null");

export function writeBytes(buffer: Buffer, at: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) buffer[at + i] = bytes[i] as number;
  return at + bytes.length;
}

/** A non-negative integer's decimal digits. */
export function writeInteger(buffer: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = value;
  for (let i = at + digits - 1; i >= at; i--) {
    buffer[i] = ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/** A number as JSON.stringify writes it (`null` for NaN and the infinities). */
export function writeNumber(buffer: Buffer, at: number, value: number): number {
  if (Number.isSafeInteger(value) && value >= 0) return writeInteger(buffer, at, value);
  if (!Number.isFinite(value)) return writeBytes(buffer, at, NULL);
  return at + buffer.write(String(value), at, "latin1");
}

/**
 * Integer cents as the decimal dollars `cents / 100` prints (19.52, 297, 62.2): for a whole
 * number of cents that is its digits with the point moved, since no shorter decimal reads back
 * as the same double.
 */
export function writeDollars(buffer: Buffer, at: number, cents: number): number {
  if (!Number.isSafeInteger(cents)) return writeNumber(buffer, at, cents / 100);
  let end = at;
  if (cents < 0) buffer[end++] = MINUS;
  const whole = Math.abs(cents);
  end = writeInteger(buffer, end, Math.floor(whole / 100));
  const fraction = whole % 100;
  if (fraction === 0) return end;
  buffer[end++] = DOT;
  buffer[end++] = ZERO + Math.floor(fraction / 10);
  if (fraction % 10 !== 0) buffer[end++] = ZERO + (fraction % 10);
  return end;
}

/** A JSON string: printable ASCII is copied as it is, anything else goes through JSON.stringify. */
export function writeString(buffer: Buffer, at: number, text: string): number {
  buffer[at] = QUOTE;
  let end = at + 1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH) {
      return at + buffer.write(JSON.stringify(text), at);
    }
    buffer[end++] = code;
  }
  buffer[end++] = QUOTE;
  return end;
}

/** A string, or `null`. */
export const writeNullableString = (buffer: Buffer, at: number, text: string | null): number =>
  text === null ? writeBytes(buffer, at, NULL) : writeString(buffer, at, text);

/** A number, or `null`. */
export const writeNullableNumber = (buffer: Buffer, at: number, value: number | null): number =>
  value === null ? writeBytes(buffer, at, NULL) : writeNumber(buffer, at, value);
