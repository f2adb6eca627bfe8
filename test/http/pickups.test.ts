import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCarrierApiStatus } from "../../src/domain/carriers/service-status.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, shipmentToBuy } from "../helpers/shipments.js";

const GROUND_ADVANTAGE = 1172;
const WAREHOUSE = LOS_ANGELES_WAREHOUSE;

describe("USPS pickups", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let upsGround: number;
  let dhlEcommerceGround: number;

  beforeAll(async () => {
    t = await buildTestApp({ config: { manifestDelayMs: 60_000 } });
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    other = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, other.accountId);
    const ups = await t.app.inject({ method: "GET", url: "/api/v2/services?carrier_code=ups", headers: merchant.auth });
    upsGround = ups.json().services.find((s: { service_code: string }) => s.service_code === "ups_ground").service_id;
    const dhl = await t.app.inject({
      method: "GET",
      url: "/api/v2/services?carrier_code=dhl_ecommerce",
      headers: merchant.auth,
    });
    dhlEcommerceGround = dhl.json().services[0].service_id;
  });
  afterAll(() => t.close());

  // The clock starts on Thursday 2026-01-15, 09:00 Central.
  const at = (instant: string) => t.clock.set(instant);
  const post = (url: string, payload: object, auth = merchant.auth) =>
    t.app.inject({ method: "POST", url, headers: auth, payload });
  const get = (url: string, auth = merchant.auth) => t.app.inject({ method: "GET", url, headers: auth });
  const remove = (id: number, auth = merchant.auth) =>
    t.app.inject({ method: "DELETE", url: `/api/v2/pickups/${id}`, headers: auth });
  const availability = async (pickup_date: string, location: object = WAREHOUSE, carrier_code?: string) => {
    const response = await post("/api/v2/pickups/availability", { location, pickup_date, carrier_code });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  async function ship(service_id = GROUND_ADVANTAGE, auth = merchant.auth): Promise<number> {
    const response = await post("/api/v2/shipments/ship", { shipment: shipmentToBuy({ service_id }) }, auth);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().shipment.id;
  }

  describe("availability", () => {
    it("offers a weekday with the address as USPS writes it", async () => {
      at("2026-01-15T15:00:00.000Z");
      expect(await availability("2026-01-16")).toEqual({
        available: true,
        reason: null,
        pickup_date: "2026-01-16",
        location: expect.objectContaining({
          company: "Acme Fulfillment",
          address1: "1 MAIN ST",
          city: "LOS ANGELES",
          postal_code: "90035",
          external_id: null,
          nick_name: null,
          phone: "3105550100",
        }),
      });
    });

    it("never Sundays or federal holidays: the next day is given instead", async () => {
      at("2026-01-15T15:00:00.000Z");
      // Sunday, then Monday 19 January is Martin Luther King, Jr. Day.
      const sunday = await availability("2026-01-18");
      expect(sunday).toMatchObject({ available: false, pickup_date: "2026-01-20" });
      expect(sunday.reason).toContain("Sundays");
      const holiday = await availability("2026-01-19");
      expect(holiday.reason).toContain("Martin Luther King");
      at("2026-11-20T15:00:00.000Z");
      const thanksgiving = await availability("2026-11-26");
      expect(thanksgiving).toMatchObject({ available: false, pickup_date: "2026-11-27" });
      expect(thanksgiving.reason).toContain("Thanksgiving");
    });

    it("takes same-day requests until 02:00 Central, and no past days", async () => {
      at("2026-01-16T07:59:00.000Z"); // 01:59 CST
      expect((await availability("2026-01-16")).available).toBe(true);
      at("2026-01-16T08:00:00.000Z"); // 02:00 CST
      const late = await availability("2026-01-16");
      expect(late).toMatchObject({ available: false, pickup_date: "2026-01-17" });
      expect(late.reason).toContain("2:00 AM Central");
      const past = await availability("15-01-2026");
      expect(past).toMatchObject({ available: false, pickup_date: "2026-01-17" });
      expect(past.reason).toContain("in the past");
    });

    it("needs a valid US address", async () => {
      at("2026-01-15T15:00:00.000Z");
      const unknownZip = await availability("2026-01-16", { ...WAREHOUSE, postal_code: "00001" });
      expect(unknownZip.available).toBe(false);
      expect(unknownZip.reason).toContain("address");
      const abroad = await availability("2026-01-16", {
        address1: "1 Queen St W",
        city: "Toronto",
        state: "ON",
        country: "CA",
        postal_code: "M5H 2N2",
      });
      expect(abroad).toMatchObject({ available: false, reason: "USPS picks up at US addresses only" });
    });
  });

  describe("requesting, listing and cancelling", () => {
    it("books the next possible day for the shipments, counting their packages and weight", async () => {
      at("2026-01-15T15:00:00.000Z");
      const ids = [await ship(), await ship()];
      const response = await post("/api/v2/pickups", {
        pickup: { shipment_ids: ids, location_detail: "front door", special_instructions: "Ring twice" },
      });
      expect(response.statusCode, response.body).toBe(201);
      const pickup = response.json().pickup;
      expect(pickup).toMatchObject({
        pickup_date: "2026-01-16",
        status: "REQUESTED",
        shipment_ids: ids,
        shipment_batch_ids: [],
        location_detail: "front door",
        special_instructions: "Ring twice",
        package_count: 2,
        weight: 48,
      });
      expect(pickup.external_id).toMatch(/^WTC\d{9}$/);
      expect(pickup.location).toMatchObject({ address1: "1 MAIN ST", postal_code: "90035" });
      expect((await get(`/api/v2/pickups/${pickup.id}`)).json().pickup).toEqual(pickup);
    });

    it("batches the shipments first with create_batch", async () => {
      at("2026-01-15T15:00:00.000Z");
      const ids = [await ship(), await ship()];
      const pickup = (
        await post("/api/v2/pickups", {
          pickup: { location: WAREHOUSE, pickup_date: "2026-01-17", shipment_ids: ids, create_batch: true },
        })
      ).json().pickup;
      expect(pickup.shipment_batch_ids).toHaveLength(1);
      const batch = (await get(`/api/v2/shipments/batches/${pickup.shipment_batch_ids[0]}`)).json();
      expect(batch.shipments_ids).toEqual(ids);
      // A pickup of the batch alone counts the batch's shipments.
      const byBatch = (await post("/api/v2/pickups", { pickup: { shipment_batch_ids: [batch.id] } })).json().pickup;
      expect(byBatch).toMatchObject({ package_count: 2, shipment_batch_ids: [Number(batch.id)] });
    });

    it("refuses other carriers, cancelled shipments, closed days and someone else's ids", async () => {
      at("2026-01-15T15:00:00.000Z");
      const mixed = await post("/api/v2/pickups", { pickup: { shipment_ids: [await ship(upsGround), await ship()] } });
      expect(mixed.statusCode).toBe(422);
      expect(mixed.json().error_code).toBe("pickup.mixed_carriers");
      expect(mixed.json().error_message).toContain("ups, usps");
      const dhl = await post("/api/v2/pickups", { pickup: { shipment_ids: [await ship(dhlEcommerceGround)] } });
      expect(dhl.statusCode).toBe(422);
      expect(dhl.json()).toMatchObject({ error_code: "pickup.carrier_not_supported" });
      expect(dhl.json().error_message).toContain("DHL eCommerce does not pick up");

      const cancelled = await ship();
      await t.app.inject({ method: "PUT", url: `/api/v2/shipments/${cancelled}/cancel`, headers: merchant.auth });
      const refused = await post("/api/v2/pickups", { pickup: { shipment_ids: [cancelled] } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error_code).toBe("pickup.shipment_unavailable");

      const sunday = await post("/api/v2/pickups", {
        pickup: { shipment_ids: [await ship()], pickup_date: "2026-01-18" },
      });
      expect(sunday.statusCode).toBe(422);
      expect(sunday.json()).toMatchObject({ error_code: "pickup.unavailable" });
      expect(sunday.json().error_message).toContain("2026-01-20");

      const theirs = await post("/api/v2/pickups", {
        pickup: { shipment_ids: [await ship(GROUND_ADVANTAGE, other.auth)] },
      });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error_code).toBe("shipment.not_found");
      expect((await post("/api/v2/pickups", { pickup: { shipment_batch_ids: [999999] } })).json().error_code).toBe(
        "batch.not_found",
      );
      await setCarrierApiStatus(t.services, "usps", "pickup", "offline", null);
      const offline = await post("/api/v2/pickups", { pickup: { shipment_ids: [await ship()] } });
      await setCarrierApiStatus(t.services, "usps", "pickup", "online", null);
      expect(offline.statusCode).toBe(503);
      expect(offline.headers["retry-after"]).toBe("30");
      expect(offline.json()).toMatchObject({ error_code: "carrier.unavailable" });
      expect(offline.json().error_message).toBe("USPS is unavailable: the pickup service is offline.");

      const empty = await post("/api/v2/pickups", {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error_code).toBe("request.invalid");
    });

    it("lists by day and status (any case), cancels, and refuses cancelling a past pickup", async () => {
      at("2026-01-15T15:00:00.000Z");
      const make = async (pickup_date: string) =>
        (await post("/api/v2/pickups", { pickup: { shipment_ids: [await ship()], pickup_date } })).json().pickup;
      const monday = await make("2026-01-26");
      const tuesday = await make("2026-01-27");

      const cancelled = await remove(monday.id);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().pickup).toMatchObject({ id: monday.id, status: "CANCELLED" });
      expect((await remove(monday.id)).json().error_code).toBe("pickup.already_cancelled");

      const window = "pickup_date_start=2026-01-26&pickup_date_end=27-01-2026";
      const ids = async (query: string) =>
        (await get(`/api/v2/pickups?${window}${query}`)).json().pickups.map((p: { id: number }) => p.id);
      expect(await ids("")).toEqual([tuesday.id]);
      expect(await ids("&status=REQUESTED")).toEqual([tuesday.id]);
      expect(await ids("&status=Cancelled")).toEqual([monday.id]);
      expect(await ids("&status=all")).toEqual([monday.id, tuesday.id]);
      expect((await get(`/api/v2/pickups?status=lost`)).statusCode).toBe(400);
      const paged = await get(`/api/v2/pickups?${window}&status=all&per_page=1`);
      expect(paged.headers["x-total-count"]).toBe("2");

      at("2026-01-28T15:00:00.000Z");
      const late = await remove(tuesday.id);
      expect(late.statusCode).toBe(409);
      expect(late.json().error_code).toBe("pickup.cancel_window_closed");
    });

    it("keeps pickups to their account and mode", async () => {
      at("2026-01-15T15:00:00.000Z");
      const pickup = (await post("/api/v2/pickups", { pickup: { shipment_ids: [await ship()] } })).json().pickup;
      for (const auth of [other.auth, { authorization: `Bearer ${merchant.keys.production}` }]) {
        expect((await get(`/api/v2/pickups/${pickup.id}`, auth)).statusCode).toBe(404);
        expect((await remove(pickup.id, auth)).json().error_code).toBe("pickup.not_found");
        expect((await get("/api/v2/pickups?status=all", auth)).json().pickups).toEqual([]);
      }
    });
  });

  describe("sandbox couriers", () => {
    it("books a UPS pickup for UPS shipments on a weekday, judged in the address's local time", async () => {
      // Thursday 2026-01-15, 14:59 in Los Angeles: a same-day UPS pickup can still be booked until 15:00 there.
      at("2026-01-15T22:59:00.000Z");
      expect(await availability("2026-01-15", WAREHOUSE, "ups")).toMatchObject({
        available: true,
        pickup_date: "2026-01-15",
      });
      at("2026-01-15T23:00:00.000Z");
      const late = await availability("2026-01-15", WAREHOUSE, "ups");
      expect(late).toMatchObject({ available: false, pickup_date: "2026-01-16" });
      expect(late.reason).toContain("15:00 local time");
      // UPS does not come on Saturdays, where USPS does.
      const saturday = await availability("2026-01-17", WAREHOUSE, "ups");
      expect(saturday).toMatchObject({ available: false, pickup_date: "2026-01-19" });
      expect(saturday.reason).toContain("Monday to Friday");
      expect((await availability("2026-01-17")).available).toBe(true);

      const id = await ship(upsGround);
      const booked = await post("/api/v2/pickups", { pickup: { shipment_ids: [id], pickup_date: "2026-01-19" } });
      expect(booked.statusCode, booked.body).toBe(201);
      const pickup = booked.json().pickup;
      expect(pickup).toMatchObject({ carrier_code: "ups", status: "REQUESTED", package_count: 1 });
      expect(pickup.external_id).toMatch(/^29\d{9}$/);
      const weekend = await post("/api/v2/pickups", {
        pickup: { shipment_ids: [await ship(upsGround)], pickup_date: "2026-01-17" },
      });
      expect(weekend.statusCode).toBe(422);
      expect(weekend.json().error_message).toContain("UPS picks up Monday to Friday");
      expect((await remove(pickup.id)).json().pickup.status).toBe("CANCELLED");
    });

    it("refuses availability for a carrier that does not pick up", async () => {
      const response = await post("/api/v2/pickups/availability", {
        location: WAREHOUSE,
        pickup_date: "2026-01-16",
        carrier_code: "dhl_ecommerce",
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().error_code).toBe("pickup.carrier_not_supported");
    });
  });
});
