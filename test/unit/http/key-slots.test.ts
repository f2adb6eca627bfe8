import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { KeySlots } from "../../../src/http/plugins/key-concurrency.js";

const response = (state: { destroyed?: boolean; writableEnded?: boolean } = {}) =>
  ({ destroyed: false, writableEnded: false, ...state }) as ServerResponse;

describe("a key's in-flight slots", () => {
  it("counts what is taken, reuses freed slots and ignores a free by a former holder", () => {
    const slots = new KeySlots();
    const [a, b, c, d] = [response(), response(), response(), response()];
    expect([slots.take(a), slots.take(b), slots.take(c)]).toEqual([0, 1, 2]);
    expect(slots.busy).toBe(3);
    slots.free(1, b);
    expect(slots.busy).toBe(2);
    expect(slots.take(d)).toBe(1);
    slots.free(1, b);
    expect(slots.busy).toBe(3);
    slots.free(1, d);
    slots.free(0, a);
    slots.free(2, c);
    expect(slots.busy).toBe(0);
  });

  it("reclaims the slots of answered and abandoned requests, and only those", () => {
    const slots = new KeySlots();
    const held = Array.from({ length: 20 }, (_, i) => response({ destroyed: i % 3 === 0, writableEnded: i % 3 === 1 }));
    for (const r of held) slots.take(r);
    expect(slots.busy).toBe(20);
    slots.reclaim();
    expect(slots.busy).toBe(6);
    const again = Array.from({ length: 14 }, () => slots.take(response()));
    expect(new Set(again).size).toBe(14);
    expect(Math.max(...again)).toBeLessThan(20);
    expect(slots.busy).toBe(20);
  });
});
