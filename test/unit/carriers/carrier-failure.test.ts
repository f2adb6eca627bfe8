import { describe, expect, it } from "vitest";
import { CallGuard } from "../../../src/carriers/api-client/call-guard.js";
import { CarrierCallError, CarrierHttpClient } from "../../../src/carriers/api-client/carrier-http-client.js";
import { CarrierError } from "../../../src/carriers/carrier.js";
import { ManualClock } from "../../../src/clock.js";
import { CARRIER_RETRY_AFTER_SECONDS, carrierFailure } from "../../../src/domain/carriers/carrier-failure.js";

describe("a carrier call's failure as the API answers it", () => {
  const clock = new ManualClock("2026-01-15T15:00:00.000Z");

  it("answers a spent call budget 503, Retry-After until the oldest call of the hour leaves it", async () => {
    const client = new CarrierHttpClient({
      carrierCode: "usps",
      displayName: "USPS",
      // Nothing listens there: the one call the budget allows cannot reach USPS.
      baseUrl: "http://127.0.0.1:9",
      timeoutMs: 1000,
      clock,
      errorWords: () => undefined,
      guard: new CallGuard({ clock, callsPerHour: { rate: 1 } }),
    });
    const call = () => client.send({ method: "GET", path: "/prices", purpose: "rate" }).catch((e: unknown) => e);
    const unreached = await call();
    expect(carrierFailure(unreached as CarrierCallError, clock)).toMatchObject({
      code: "carrier.unavailable",
      retryAfterSeconds: CARRIER_RETRY_AFTER_SECONDS,
    });
    clock.advance(60_000);
    const refused = await call();
    expect(refused).toBeInstanceOf(CarrierCallError);
    const answer = carrierFailure(refused as CarrierCallError, clock);
    expect(answer).toMatchObject({ code: "carrier.unavailable", retryAfterSeconds: 3540 });
    expect(answer.message).toMatch(/^USPS is unavailable: USPS was not called: .*hourly call budget/);
  });

  it("answers no answer and a 5xx 503 after a short fixed wait, and a 4xx refusal 422 in the carrier's words", () => {
    const silent = carrierFailure(new CarrierCallError("ups", "UPS did not answer within 100 ms."), clock);
    expect(silent).toMatchObject({ code: "carrier.unavailable", retryAfterSeconds: CARRIER_RETRY_AFTER_SECONDS });
    expect(carrierFailure(new CarrierCallError("ups", "UPS answered HTTP 502.", 502), clock).code).toBe(
      "carrier.unavailable",
    );
    const refused = carrierFailure(new CarrierCallError("ups", "UPS refused the request: Bad zip", 400), clock);
    expect(refused).toMatchObject({ code: "carrier.rejected", message: "UPS refused the request: Bad zip" });
    expect(refused.retryAfterSeconds).toBeUndefined();
    expect(carrierFailure(new CarrierError("ups", "UPS prints labels 4x6 or 4x8"), clock).code).toBe(
      "carrier.rejected",
    );
  });

  it("rounds a wait up to whole seconds, and never answers less than one", () => {
    const at = (ms: number) => new Date(clock.now().getTime() + ms);
    const soon = new CarrierCallError("fed_ex", "FedEx was not called.", undefined, undefined, at(1500));
    expect(carrierFailure(soon, clock).retryAfterSeconds).toBe(2);
    const past = new CarrierCallError("fed_ex", "FedEx was not called.", undefined, undefined, at(-5000));
    expect(carrierFailure(past, clock).retryAfterSeconds).toBe(1);
  });
});
