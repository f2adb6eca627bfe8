import os from "node:os";
import type { LogDestination } from "./log-destination.js";

/** What the one log line of every answered request says. */
export interface AccessLogEntry {
  reqId: string;
  method: string;
  url: string;
  route: string;
  status: number;
  /** Milliseconds, to two decimals. */
  ms: number;
  account: number | undefined;
}

export type AccessLog = (entry: AccessLogEntry) => void;

const ORIGIN = `"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())}`;

/**
 * The line, in the shape pino gives every other line (level, time, pid, hostname, then the
 * fields and `msg`).
 */
export function accessLogLine(entry: AccessLogEntry, time: number): string {
  const account = entry.account === undefined ? "" : `,"account":${entry.account}`;
  return `{"level":30,"time":${time},${ORIGIN},"reqId":${JSON.stringify(entry.reqId)},"method":${JSON.stringify(entry.method)},"url":${JSON.stringify(entry.url)},"route":${JSON.stringify(entry.route)},"status":${entry.status},"ms":${entry.ms}${account},"msg":"request"}\n`;
}

const bytesOf = (text: string) => Buffer.from(text, "utf8");
const REQ_ID = bytesOf(`,${ORIGIN},"reqId":`);
const METHOD = bytesOf(',"method":');
const REQUEST_URL = bytesOf(',"url":');
const ROUTE = bytesOf(',"route":');
const STATUS = bytesOf(',"status":');
const MS = bytesOf(',"ms":');
const ACCOUNT = bytesOf(',"account":');
const END = bytesOf(',"msg":"request"}\n');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const ZERO = 0x30;
/** Everything but the four strings, with room to spare for long numbers. */
const FIXED_BYTES = 200 + REQ_ID.length;

function writeBytes(buffer: Buffer, at: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) buffer[at + i] = bytes[i] as number;
  return at + bytes.length;
}

/** A non-negative integer's decimal digits. */
function writeInteger(buffer: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = value;
  for (let i = at + digits - 1; i >= at; i--) {
    buffer[i] = ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/** Milliseconds to two decimals, as JavaScript prints them (1, 0.5, 0.42). */
function writeMilliseconds(buffer: Buffer, at: number, ms: number): number {
  const hundredths = Math.round(ms * 100);
  let end = writeInteger(buffer, at, Math.floor(hundredths / 100));
  const fraction = hundredths % 100;
  if (fraction === 0) return end;
  buffer[end++] = DOT;
  buffer[end++] = ZERO + Math.floor(fraction / 10);
  if (fraction % 10 !== 0) buffer[end++] = ZERO + (fraction % 10);
  return end;
}

/** A JSON string: printable ASCII is copied as it is, anything else goes through JSON.stringify. */
function writeString(buffer: Buffer, at: number, text: string): number {
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

/** `label` (the bytes before a value, from the comma to the colon), then the value. */
const writeStringField = (buffer: Buffer, at: number, label: Buffer, text: string) =>
  writeString(buffer, writeBytes(buffer, at, label), text);
const writeIntegerField = (buffer: Buffer, at: number, label: Buffer, value: number) =>
  writeInteger(buffer, writeBytes(buffer, at, label), value);

/**
 * Writes each request's line straight into the log destination's buffer. Going through the
 * logger cost a quarter of a ping, and building the line as a string (a dozen pieces joined,
 * then encoded) still cost more than any other part of our request path; printable ASCII, which
 * request ids, methods, routes and nearly every URL are, is copied byte by byte instead.
 */
export function accessLogWriter(destination: LogDestination, clock: () => number = Date.now): AccessLog {
  // The line's opening up to its time, encoded again only when the millisecond changes.
  let openingTime = Number.NaN;
  let opening = bytesOf("");
  return (entry) => {
    const time = clock();
    if (time !== openingTime) {
      openingTime = time;
      opening = bytesOf(`{"level":30,"time":${time}`);
    }
    // JSON.stringify writes at most six bytes (\uXXXX) for one UTF-16 unit.
    const strings = entry.reqId.length + entry.method.length + entry.url.length + entry.route.length;
    const buffer = destination.reserve(FIXED_BYTES + 6 * strings);
    if (!buffer) {
      destination.write(accessLogLine(entry, time));
      return;
    }
    let at = writeStringField(buffer, writeBytes(buffer, destination.length, opening), REQ_ID, entry.reqId);
    at = writeStringField(buffer, at, METHOD, entry.method);
    at = writeStringField(buffer, at, REQUEST_URL, entry.url);
    at = writeStringField(buffer, at, ROUTE, entry.route);
    at = writeIntegerField(buffer, at, STATUS, entry.status);
    at = writeMilliseconds(buffer, writeBytes(buffer, at, MS), entry.ms);
    if (entry.account !== undefined) at = writeIntegerField(buffer, at, ACCOUNT, entry.account);
    destination.commit(writeBytes(buffer, at, END));
  };
}
