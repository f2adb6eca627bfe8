import { describe, expect, it } from "vitest";
import { nextCloseOutDay } from "../../../src/domain/batches/close-out.js";

describe("nextCloseOutDay", () => {
  it("is today until 02:00 Central has passed, then tomorrow", () => {
    expect(nextCloseOutDay(new Date("2026-01-15T07:59:59.999Z"))).toBe("2026-01-15"); // 01:59 CST
    expect(nextCloseOutDay(new Date("2026-01-15T08:00:00.000Z"))).toBe("2026-01-16");
    expect(nextCloseOutDay(new Date("2026-07-15T06:30:00.000Z"))).toBe("2026-07-15"); // 01:30 CDT
    expect(nextCloseOutDay(new Date("2026-07-15T07:00:00.000Z"))).toBe("2026-07-16");
  });

  it("is the spring-forward day until its close-out at 03:00 CDT", () => {
    expect(nextCloseOutDay(new Date("2026-03-08T07:59:00.000Z"))).toBe("2026-03-08"); // 01:59 CST
    expect(nextCloseOutDay(new Date("2026-03-08T08:00:00.000Z"))).toBe("2026-03-09"); // 03:00 CDT
  });

  it("counts days in Central time, not UTC", () => {
    expect(nextCloseOutDay(new Date("2026-01-15T23:00:00.000Z"))).toBe("2026-01-16"); // 17:00 CST
  });
});
