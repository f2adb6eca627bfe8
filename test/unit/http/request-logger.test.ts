import pino from "pino";
import { describe, expect, it } from "vitest";
import { LazyRequestLogger } from "../../../src/http/plugins/observability.js";

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
