import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AccessLogEntry, accessLogLine, accessLogWriter } from "../../../src/http/access-log.js";
import { LogDestination } from "../../../src/http/log-destination.js";

const TIME = 1_764_130_000_123;

const ping: AccessLogEntry = {
  reqId: "abc-1",
  method: "GET",
  url: "/api/v2/test/ping",
  route: "/api/v2/test/ping",
  status: 200,
  ms: 0.42,
  account: 7,
};

describe("access log line", () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "porter-access-"));
  const file = path.join(directory, "access.log");
  let fd: number;
  afterEach(() => fs.closeSync(fd));

  /** Writes the entries through a real destination and returns the lines it wrote. */
  const written = (entries: AccessLogEntry[], batchBytes?: number): string[] => {
    fd = fs.openSync(file, "w");
    const destination = new LogDestination(fd, batchBytes);
    const log = accessLogWriter(destination, () => TIME);
    for (const entry of entries) log(entry);
    destination.flush();
    return fs.readFileSync(file, "utf8").split(/(?<=\n)/);
  };

  it("is one JSON line in pino's shape, with the request id", () => {
    const [line] = written([ping]);
    expect(line?.endsWith("}\n")).toBe(true);
    expect(JSON.parse(line as string)).toEqual({
      level: 30,
      time: TIME,
      pid: process.pid,
      hostname: os.hostname(),
      ...ping,
      msg: "request",
    });
    const order = ["level", "time", "pid", "hostname", "reqId", "method", "url", "route", "status", "ms", "account"];
    expect(Object.keys(JSON.parse(line as string))).toEqual([...order, "msg"]);
  });

  it("escapes what a client put in the URL and leaves out an unknown account", () => {
    const [line] = written([
      { ...ping, url: '/x?q="\\\n\u2028é🚚', route: "(unmatched)", status: 404, account: undefined },
    ]);
    const entry = JSON.parse(line as string);
    expect(entry.url).toBe('/x?q="\\\n\u2028é🚚');
    expect(entry).not.toHaveProperty("account");
  });

  it("writes the same bytes as the line built as a string, for any durations and accounts", () => {
    const entries: AccessLogEntry[] = [];
    for (const ms of [0, 0.01, 0.05, 0.1, 0.29, 0.5, 1, 9.99, 10, 12.3, 1234.56, 86_400_000]) {
      for (const account of [undefined, 1, 9, 10, 123_456_789]) {
        entries.push({ ...ping, ms, account, status: account === 9 ? 429 : 201, url: `/api/v2/rates?n=${ms}` });
      }
    }
    const lines = written(entries);
    expect(lines).toEqual(entries.map((entry) => accessLogLine(entry, TIME)));
  });

  it("keeps a line longer than the destination's buffer whole", () => {
    const long = { ...ping, url: `/api/v2/shipments?q=${"é".repeat(300)}` };
    expect(written([ping, long, ping], 64)).toEqual([ping, long, ping].map((entry) => accessLogLine(entry, TIME)));
  });
});
