import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UspsCallError, UspsClient } from "../../../src/carriers/usps/api/usps-client.js";
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

describe("the USPS client (against the USPS stand-in)", () => {
  let standIn: UspsStandIn;
  let clock: ManualClock;
  let waits: number[];
  let client: UspsClient;

  beforeAll(async () => {
    standIn = await new UspsStandIn({ clientId: "app", clientSecret: "secret" }).start();
  });
  afterAll(() => standIn.stop());
  beforeEach(() => {
    standIn.clearFaults();
    clock = new ManualClock();
    waits = [];
    client = new UspsClient({
      baseUrl: standIn.baseUrl,
      clientId: "app",
      clientSecret: "secret",
      timeoutMs: 300,
      clock,
      wait: async (ms) => {
        waits.push(ms);
      },
    });
  });

  it("asks for one token however many calls want it at once, and keeps it", async () => {
    const before = standIn.callsTo("token");
    const tokens = await Promise.all([client.accessToken(), client.accessToken(), client.accessToken()]);
    expect(new Set(tokens).size).toBe(1);
    await client.post(PRICES, QUERY);
    expect(standIn.callsTo("token")).toBe(before + 1);
  });

  it("renews the token shortly before USPS says it expires", async () => {
    standIn.tokenLifetimeSeconds = 3600;
    const first = await client.accessToken();
    clock.advance(54 * 60_000);
    expect(await client.accessToken()).toBe(first);
    clock.advance(2 * 60_000);
    expect(await client.accessToken()).not.toBe(first);
    standIn.tokenLifetimeSeconds = 28_800;
  });

  it("waits as long as Retry-After says on 429 and 503, then gives up after two retries", async () => {
    standIn.fail("429", { path: "prices" });
    standIn.fail("503", { path: "prices" });
    await expect(client.post(PRICES, QUERY)).resolves.toMatchObject({ rates: [expect.anything()] });
    expect(waits).toEqual([0, 0]);
    standIn.fail("429", { path: "prices", times: 3 });
    await expect(client.post(PRICES, QUERY)).rejects.toMatchObject({ status: 429 });
  });

  it("fails with the carrier's words, or says USPS did not answer", async () => {
    await expect(client.post(PRICES, { ...QUERY, mailClass: "PONY" })).rejects.toThrow(/mailClass must be one of/);
    standIn.fail("500", { path: "prices" });
    await expect(client.post(PRICES, QUERY)).rejects.toMatchObject({ status: 500 });
    standIn.fail("timeout", { path: "prices" });
    await expect(client.post(PRICES, QUERY)).rejects.toThrow(/did not answer within 300 ms/);
  });

  it("refuses a wrong client secret in USPS's words, and an answer that is no token", async () => {
    const wrong = new UspsClient({
      baseUrl: standIn.baseUrl,
      clientId: "app",
      clientSecret: "nope",
      timeoutMs: 300,
      clock,
    });
    await expect(wrong.accessToken()).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining("Client authentication failed"),
    });
    standIn.fail("malformed", { path: "token" });
    await expect(client.accessToken()).rejects.toBeInstanceOf(UspsCallError);
  });
});
