import { describe, expect, it } from "vitest";
import { DomainError } from "../../../src/domain/errors.js";
import { checkRefillSettings, NO_AUTOMATIC_REFILL } from "../../../src/domain/meter/refill-settings.js";

describe("automatic refill settings", () => {
  it("takes both or neither", () => {
    expect(checkRefillSettings({ triggerCents: 2000, amountCents: 5000 })).toEqual({
      triggerCents: 2000,
      amountCents: 5000,
    });
    expect(checkRefillSettings({ triggerCents: 0, amountCents: 100 })).toEqual({ triggerCents: 0, amountCents: 100 });
    expect(checkRefillSettings({ triggerCents: null, amountCents: null })).toEqual(NO_AUTOMATIC_REFILL);
  });

  it.each([
    { triggerCents: 2000, amountCents: null },
    { triggerCents: null, amountCents: 5000 },
    { triggerCents: -1, amountCents: 5000 },
    { triggerCents: 2000, amountCents: 99 },
    { triggerCents: 2000, amountCents: 1_000_001 },
    { triggerCents: 20.5, amountCents: 5000 },
  ])("refuses %j", (settings) => {
    expect(() => checkRefillSettings(settings)).toThrow(DomainError);
  });
});
