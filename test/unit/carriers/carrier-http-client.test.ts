import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CarrierCallError, type CarrierHttpClient } from "../../../src/carriers/api-client/carrier-http-client.js";
import { uspsHttpClient } from "../../../src/carriers/usps/api/usps-client.js";
import { ManualClock } from "../../../src/clock.js";
import { UspsStandIn } from "../../stand-ins/usps/usps-stand-in.js";

const QUERY = {
  originZIPCode: "90035",
  destinationZIPCode: "84111",
  weight: 1.5,
  length: 10,
  width: 8,
  height: 4,
  mailClass: "USPS_GROUND_ADVANTAGE",
  processingCategory: "MACHINABLE",
  destinationEntryFacilityType: "NONE",
  rateIndicator: "SP",
  priceType: "COMMERCIAL",
};
const PRICES = "/prices/v3/base-rates/search";

/** The shared carrier client, as a USPS connection uses it, against the USPS stand-in. */
describe("the carrier HTTP client (a USPS connection against the USPS stand-in)", () => {
  let standIn: UspsStandIn;
  let clock: ManualClock;
  let waits: number[];
  let client: CarrierHttpClient;
  const connect = (clientSecret: string, callsPerHour?: number) =>
    uspsHttpClient(
      {
        baseUrl: standIn.baseUrl,
        mode: "test",
        // The stand-in checks each request against USPS's specs: its first checks take a while.
        timeoutMs: 1000,
        clock,
        wait: async (ms: number) => {
          waits.push(ms);
        },
      },
      { clientId: "app", clientSecret, callsPerHour },
    );
  const price = (query: object = QUERY) =>
    client.json<{ rates: unknown[] }>({ method: "POST", path: PRICES, purpose: "rate", json: query });

  beforeAll(async () => {
    standIn = await new UspsStandIn({ clientId: "app", clientSecret: "secret" }).start();
  });
  afterAll(() => standIn.stop());
  beforeEach(() => {
    standIn.clearFaults();
    clock = new ManualClock();
    waits = [];
    client = connect("secret");
  });

  it("asks for one token however many calls want it at once, and keeps it", async () => {
    const before = standIn.callsTo("token");
    await Promise.all([price(), price(), price()]);
    await price();
    expect(standIn.callsTo("token")).toBe(before + 1);
  });

  it("renews the token shortly before USPS says it expires", async () => {
    standIn.tokenLifetimeSeconds = 3600;
    const before = standIn.callsTo("token");
    await price();
    clock.advance(54 * 60_000);
    await price();
    expect(standIn.callsTo("token")).toBe(before + 1);
    clock.advance(2 * 60_000);
    await price();
    expect(standIn.callsTo("token")).toBe(before + 2);
    standIn.tokenLifetimeSeconds = 28_800;
  });

  it("waits as long as Retry-After says on 429 and 503, then gives up after two retries", async () => {
    standIn.fail("429", { operation: "prices" });
    standIn.fail("503", { operation: "prices" });
    await expect(price()).resolves.toMatchObject({ rates: [expect.anything()] });
    expect(waits).toEqual([0, 0]);
    standIn.fail("429", { operation: "prices", times: 3 });
    await expect(price()).rejects.toMatchObject({ status: 429 });
  });

  it("fails with the carrier's words, or says USPS did not answer", async () => {
    await expect(price({ ...QUERY, mailClass: "PONY" })).rejects.toThrow(
      /mailClass must be equal to one of the allowed values/,
    );
    standIn.fail("500", { operation: "prices" });
    await expect(price()).rejects.toMatchObject({ status: 500 });
    standIn.fail("timeout", { operation: "prices" });
    await expect(price()).rejects.toThrow(/did not answer within 1000 ms/);
  });

  it("refuses a wrong client secret in USPS's words, and an answer that is no token", async () => {
    await expect(connect("nope").authenticate()).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining("Client authentication failed"),
    });
    standIn.fail("malformed", { operation: "token" });
    await expect(client.authenticate()).rejects.toBeInstanceOf(CarrierCallError);
  });

  it("spends an hourly budget per API and refuses calls past it until the oldest call is an hour old", async () => {
    client = connect("secret", 2);
    await price();
    clock.advance(10 * 60_000);
    await price();
    const calls = standIn.callsTo("prices");
    const refused = await price().catch((error: CarrierCallError) => error);
    expect(refused).toBeInstanceOf(CarrierCallError);
    expect((refused as CarrierCallError).message).toMatch(/hourly call budget for the rate API is spent/);
    expect((refused as CarrierCallError).retryAt?.getTime()).toBe(clock.now().getTime() + 50 * 60_000);
    expect(standIn.callsTo("prices")).toBe(calls);
    expect(client.health().find((h) => h.purpose === "rate")).toMatchObject({ callsLastHour: 2, callsPerHour: 2 });
    clock.advance(50 * 60_000);
    await expect(price()).resolves.toBeDefined();
  });

  it("opens the breaker after five failures in a row, refuses calls while open, and closes on a success", async () => {
    standIn.fail("500", { operation: "prices", times: 5 });
    for (let i = 0; i < 5; i++) await expect(price()).rejects.toMatchObject({ status: 500 });
    const calls = standIn.callsTo("prices");
    await expect(price()).rejects.toThrow(/failed repeatedly/);
    expect(standIn.callsTo("prices")).toBe(calls);
    expect(client.health().find((h) => h.purpose === "rate")).toMatchObject({
      breaker: "open",
      lastFailure: expect.stringContaining("Internal Server Error"),
    });
    clock.advance(61_000);
    await expect(price()).resolves.toBeDefined();
    expect(client.health().find((h) => h.purpose === "rate")).toMatchObject({ breaker: "closed", lastFailure: null });
  });

  it("does not count a refusal in the carrier's words (4xx) against the breaker", async () => {
    for (let i = 0; i < 6; i++)
      await expect(price({ ...QUERY, mailClass: "PONY" })).rejects.toMatchObject({ status: 400 });
    await expect(price()).resolves.toBeDefined();
  });
});
