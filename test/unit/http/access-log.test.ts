import { describe, expect, it } from "vitest";
import { accessLogWriter } from "../../../src/http/access-log.js";

describe("access log line", () => {
  const written: string[] = [];
  const log = accessLogWriter({ write: (line) => written.push(line) });

  it("is one JSON line in pino's shape, with the request id", () => {
    log({
      reqId: "abc-1",
      method: "GET",
      url: "/api/v2/test/ping",
      route: "/api/v2/test/ping",
      status: 200,
      ms: 0.42,
      account: 7,
    });
    const line = written.at(-1) as string;
    expect(line.endsWith("}\n")).toBe(true);
    expect(line.indexOf("\n")).toBe(line.length - 1);
    expect(JSON.parse(line)).toMatchObject({
      level: 30,
      pid: process.pid,
      reqId: "abc-1",
      method: "GET",
      route: "/api/v2/test/ping",
      status: 200,
      ms: 0.42,
      account: 7,
      msg: "request",
    });
    expect(JSON.parse(line).time).toBeTypeOf("number");
  });

  it("escapes what a client put in the URL and leaves out an unknown account", () => {
    log({
      reqId: "abc-2",
      method: "GET",
      url: '/x?q="\n\u2028',
      route: "(unmatched)",
      status: 404,
      ms: 1,
      account: undefined,
    });
    const entry = JSON.parse(written.at(-1) as string);
    expect(entry.url).toBe('/x?q="\n\u2028');
    expect(entry).not.toHaveProperty("account");
  });
});
