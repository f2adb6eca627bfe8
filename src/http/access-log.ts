import os from "node:os";
import { bytesOf, writeBytes, writeDollars, writeInteger, writeNumber, writeString } from "./json-bytes.js";
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

const OPENING = bytesOf('{"level":30,"time":');
const REQ_ID = bytesOf(`,${ORIGIN},"reqId":`);
const METHOD = bytesOf(',"method":');
const REQUEST_URL = bytesOf(',"url":');
const ROUTE = bytesOf(',"route":');
const STATUS = bytesOf(',"status":');
const MS = bytesOf(',"ms":');
const ACCOUNT = bytesOf(',"account":');
const END = bytesOf(',"msg":"request"}\n');
/** Everything but the four strings, with room to spare for long numbers. */
const FIXED_BYTES = 200 + OPENING.length + REQ_ID.length;

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
  return (entry) => {
    const time = clock();
    // JSON.stringify writes at most six bytes (\uXXXX) for one UTF-16 unit.
    const strings = entry.reqId.length + entry.method.length + entry.url.length + entry.route.length;
    const buffer = destination.reserve(FIXED_BYTES + 6 * strings);
    if (!buffer) {
      destination.write(accessLogLine(entry, time));
      return;
    }
    let at = writeNumber(buffer, writeBytes(buffer, destination.length, OPENING), time);
    at = writeStringField(buffer, at, REQ_ID, entry.reqId);
    at = writeStringField(buffer, at, METHOD, entry.method);
    at = writeStringField(buffer, at, REQUEST_URL, entry.url);
    at = writeStringField(buffer, at, ROUTE, entry.route);
    at = writeIntegerField(buffer, at, STATUS, entry.status);
    // Milliseconds to two decimals print as hundredths do as dollars (1, 0.5, 0.42).
    at = writeDollars(buffer, writeBytes(buffer, at, MS), Math.round(entry.ms * 100));
    if (entry.account !== undefined) at = writeIntegerField(buffer, at, ACCOUNT, entry.account);
    destination.commit(writeBytes(buffer, at, END));
  };
}
