import pino from "pino";
import { describe, expect, it } from "vitest";
import { HttpLogger, LazyRequestLogger } from "../../../src/http/request-logger.js";

describe("request logger", () => {
  it("writes a handler's lines with the request id, and makes no child until then", () => {
    const lines: string[] = [];
    const root = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    let children = 0;
    const counting = Object.assign(Object.create(root), {
      child: (bindings: pino.Bindings) => {
        children += 1;
        return root.child(bindings);
      },
    });
    const logger = new LazyRequestLogger(counting, { reqId: "req-9" });
    expect(children).toBe(0);
    logger.warn({ reason: "test" }, "something odd");
    logger.debug("below the level");
    expect(children).toBe(1);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 40, reqId: "req-9", reason: "test", msg: "something odd" }),
    ]);
  });
});

describe("Fastify's logger", () => {
  const countingRoot = () => {
    const lines: string[] = [];
    const root = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const made = { children: 0 };
    const counting = Object.assign(Object.create(root), {
      child: (bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => {
        made.children += 1;
        return root.child(bindings, options);
      },
    });
    return { lines, made, logger: new HttpLogger(counting) };
  };

  it("gives each request a lazy logger, and writes its own lines directly", () => {
    const { lines, made, logger } = countingRoot();
    const request = logger.child({ reqId: "req-1" }, {});
    expect(request).toBeInstanceOf(LazyRequestLogger);
    expect(made.children).toBe(0);
    logger.info("listening");
    request.error("failed");
    expect(made.children).toBe(1);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 30, msg: "listening" }),
      expect.objectContaining({ level: 50, reqId: "req-1", msg: "failed" }),
    ]);
  });

  it("makes a real child for options (a plugin's level), whose requests are lazy again", () => {
    const { lines, made, logger } = countingRoot();
    const quiet = logger.child({}, { level: "warn" });
    expect(made.children).toBe(1);
    expect(quiet.level).toBe("warn");
    const request = quiet.child({ reqId: "req-2" }, {});
    expect(made.children).toBe(1);
    request.info("below the plugin's level");
    request.warn("kept");
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(["kept"]);
  });
});
