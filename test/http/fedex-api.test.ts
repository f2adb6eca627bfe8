import { beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { refuseShipmentStatuses } from "../helpers/failures.js";
import { realCarrierSuite } from "../helpers/real-carrier-calls.js";
import {
  itConnectsWithAToken,
  itRefusesRejectedCredentials,
  itWarnsWhenRatingFails,
  type RealCarrier,
} from "../helpers/real-carrier-tests.js";
import { SMALL_BOX, T_SHIRT, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { addBusinessDays, FedexStandIn } from "../stand-ins/fedex/fedex-stand-in.js";

const CLIENT_SECRET = "fedex-s3cr3t-value";
const ACCOUNT_NUMBER = "740561073";
const REAL_FEDEX = {
  carrier_code: "fed_ex",
  credentials: { client_id: "l7xx-porter-test", client_secret: CLIENT_SECRET, account_number: ACCOUNT_NUMBER },
};
const FEDEX: RealCarrier = { name: "FedEx", account: REAL_FEDEX, secret: CLIENT_SECRET, beside: "ups" };
const HOME_DELIVERY = 402;
const MINUTE = 60_000;

describe("a real FedEx connection (against the FedEx stand-in)", () => {
  let standIn: FedexStandIn;
  let t: TestApp;
  let merchant: TestAccount;
  let worker: Worker;

  beforeAll(async () => {
    standIn = await new FedexStandIn({
      clientId: "l7xx-porter-test",
      clientSecret: CLIENT_SECRET,
      accountNumber: ACCOUNT_NUMBER,
    }).start();
    t = await buildTestApp({ config: { fedexApiBaseUrl: standIn.baseUrl, carrierApiTimeoutMs: 5000 } });
    standIn.now = () => t.clock.now();
    merchant = await createTestAccount(t.services);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  const calls = realCarrierSuite(
    () => t,
    () => merchant,
    () => standIn,
  );
  const { post, get, connect, rate } = calls;
  const buy = (overrides: Record<string, unknown> = {}) =>
    calls.buy({ service_id: HOME_DELIVERY, label_format: "zpl", label_size: "4x6", ...overrides });
  const read = async (id: number) => (await get(`/api/v2/shipments/${id}`)).json().shipment;

  it("refuses credentials without the account number, naming what is missing", async () => {
    const response = await connect({
      carrier_code: "fed_ex",
      credentials: { client_id: "l7xx-porter-test", client_secret: CLIENT_SECRET },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: "error", error_code: "carrier_account.credentials_invalid" });
    expect(response.json().error_message).toContain("account_number");
  });

  itRefusesRejectedCredentials(
    () => t,
    calls,
    FEDEX,
    { client_secret: "wrong" },
    "The given client credentials were not valid",
  );

  itConnectsWithAToken(
    () => t,
    calls,
    FEDEX,
    () => standIn.callsTo("token"),
  );

  it("rates FedEx through its Rate API beside the sandbox carriers, with FedEx's surcharges", async () => {
    const rateCalls = standIn.callsTo("rate");
    const { response, rates, warnings } = await rate();
    expect(response.statusCode).toBe(201);
    expect(warnings).toEqual([]);
    expect(standIn.callsTo("rate")).toBe(rateCalls + 1);
    const home = rates.find((r) => r.service_id === HOME_DELIVERY)!;
    // The stand-in's table: 2 lb × $4.60 + zone 3 × $0.40, 15 % fuel, $5.75 residential.
    expect(home).toMatchObject({ carrier_code: "fed_ex", rate: 17.71, zone: "03", errors: null });
    expect(home.rate_details).toEqual([
      expect.objectContaining({ cost_type: "std", rate: 10.4 }),
      expect.objectContaining({ cost_type: "fuel", rate: 1.56 }),
      expect.objectContaining({ cost_type: "residential", rate: 5.75 }),
    ]);
    expect(rates.some((r) => r.carrier_code === "ups" && r.rate !== null)).toBe(true);
    // FedEx's own delivery date for the ship date Porter asked about: four business days on.
    const shipDateStamp = (standIn.lastBody("rate").requestedShipment as { shipDateStamp: string }).shipDateStamp;
    expect(home.delivery_date).toBe(addBusinessDays(shipDateStamp, 4));
  });

  itWarnsWhenRatingFails(
    calls,
    FEDEX,
    (fault) => standIn.fail(fault, { operation: "rate", times: 20 }),
    () => {
      standIn.clearFaults();
      t.clock.advance(MINUTE + 1000);
    },
  );

  it("refuses a label format FedEx does not make, naming the ones it does", async () => {
    const response = await buy({ label_format: "gif" });
    expect(response.statusCode).toBe(422);
    expect(response.json().error_message).toMatch(/pdf, png, zpl, epl2/);
  });

  it("buys FedEx's own label, tracks it through FedEx's scans, and voids it at FedEx", async () => {
    const response = await buy({ parcels: [SMALL_BOX, SMALL_BOX] });
    expect(response.statusCode, response.body).toBe(201);
    const shipment = response.json().shipment;
    const numbers = shipment.parcels.map((p: { tracking_number: string }) => p.tracking_number);
    expect(numbers).toHaveLength(2);
    expect(new Set(numbers).size).toBe(2);
    expect([...standIn.shipments.keys()]).toContain(numbers[0]);
    const label = shipment.parcels[0].postage_label;
    expect(label).toMatchObject({ file_format: "zpl" });
    const file = await t.app.inject({ method: "GET", url: new URL(label.image_url).pathname, headers: merchant.auth });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain(`FedEx ${numbers[0]}`);

    standIn.scan(numbers[0], {
      date: "2026-01-15T07:05:00-08:00",
      eventType: "PU",
      eventDescription: "Picked up",
      derivedStatusCode: "PU",
      derivedStatus: "Picked up",
    });
    t.clock.advance(10 * MINUTE);
    await worker.drain();
    const tracked = await read(shipment.id);
    const events = tracked.parcels[0].tracking_info.tracking_events as {
      code: string;
      secondary_code: string;
      status: string;
    }[];
    expect(events.map((e) => [e.code, e.secondary_code])).toEqual(
      expect.arrayContaining([
        ["PU", "PU"],
        ["OC", "IN"],
      ]),
    );
    expect(tracked.parcels[0].tracking_info.status).toBe("in_transit");

    const cancel = await t.app.inject({
      method: "PUT",
      url: `/api/v2/shipments/${shipment.id}/cancel`,
      headers: merchant.auth,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(standIn.shipments.get(numbers[0])?.cancelled).toBe(true);
    expect(standIn.lastBody("cancel")).toMatchObject({
      trackingNumber: numbers[0],
      deletionControl: "DELETE_ALL_PACKAGES",
    });
  });

  it("ships abroad with FedEx's own commercial invoice as the shipment's customs form", async () => {
    const response = await buy({
      service_id: 401,
      label_format: "pdf",
      to_location: TORONTO_RESIDENCE,
      parcels: [{ ...SMALL_BOX, parcel_items: [T_SHIRT] }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const shipment = response.json().shipment;
    expect(standIn.lastBody("ship")).toMatchObject({
      requestedShipment: {
        customsClearanceDetail: {
          dutiesPayment: { paymentType: "RECIPIENT" },
          commercialInvoice: { shipmentPurpose: "SOLD", termsOfSale: "DAP" },
          commodities: [
            {
              description: "Cotton T-shirt",
              quantity: 2,
              unitPrice: { amount: 12.5, currency: "USD" },
              customsValue: { amount: 25, currency: "USD" },
              countryOfManufacture: "PE",
              harmonizedCode: "610910",
            },
          ],
        },
        shippingDocumentSpecification: { shippingDocumentTypes: ["COMMERCIAL_INVOICE"] },
      },
    });
    const invoice = await get(`/api/v2/shipments/${shipment.id}/customs_form`);
    expect(invoice.statusCode).toBe(200);
    expect(invoice.headers["content-type"]).toBe("application/pdf");
    expect(invoice.body).toContain(`/Title (FedEx commercial invoice ${shipment.parcels[0].tracking_number})`);
  });

  it("does not ask FedEx for a label again after a 503, which may have come after FedEx made it", async () => {
    const made = standIn.shipments.size;
    const shipCalls = standIn.callsTo("ship");
    standIn.fail("503-processed", { operation: "ship" });
    const response = await buy();
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json().error_code).toBe("carrier.unavailable");
    expect(standIn.callsTo("ship")).toBe(shipCalls + 1);
    expect(standIn.shipments.size).toBe(made + 1);
    const failed = await t.services.db.selectFrom("shipments").selectAll().orderBy("id", "desc").executeTakeFirst();
    expect(failed?.status).toBe("failed");
    t.clock.advance(MINUTE + 1000);
  });

  it("cancels at FedEx a shipment FedEx made but Porter could not record", async () => {
    const made = standIn.shipments.size;
    const restore = await refuseShipmentStatuses(t.database.db, ["shipped"]);
    try {
      const response = await buy();
      expect(response.statusCode).toBe(503);
    } finally {
      await restore();
    }
    expect(standIn.shipments.size).toBe(made + 1);
    const sold = [...standIn.shipments.values()].at(-1)!;
    expect(sold.cancelled).toBe(true);
    const failed = await t.services.db
      .selectFrom("shipments")
      .selectAll()
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe("failed");
    expect(failed.status_reason).toMatch(/voided/);
  });

  it("validates addresses through FedEx", async () => {
    const query = new URLSearchParams({
      address1: "220 South State Street",
      city: "Salt Lake City",
      state: "UT",
      postal_code: "84111",
      country: "US",
    });
    const response = await t.app.inject({
      method: "GET",
      url: `/api/v2/shipping/validate_address?${query}`,
      headers: merchant.auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(standIn.callsTo("address")).toBeGreaterThan(0);
    expect(response.body).toContain("220 SOUTH STATE ST");
  });

  describe("pickups", () => {
    const TWO_DAY = 393;
    const remove = (id: number, auth = merchant.auth) =>
      t.app.inject({ method: "DELETE", url: `/api/v2/pickups/${id}`, headers: auth });
    const shipmentId = async (overrides: Record<string, unknown> = {}) => {
      const response = await buy(overrides);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().shipment.id as number;
    };

    it("asks FedEx Ground whether it comes, books the Ground shipments' pickup, and cancels it at FedEx", async () => {
      t.clock.set("2026-01-15T15:00:00.000Z");
      const ids = [await shipmentId(), await shipmentId()];
      const booked = await post("/api/v2/pickups", {
        pickup: { shipment_ids: ids, pickup_date: "2026-01-16", location_detail: "rear door" },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const pickup = booked.json().pickup;
      expect(pickup).toMatchObject({ carrier_code: "fed_ex", package_count: 2, weight: 48 });
      expect(standIn.lastBody("pickupAvailability")).toMatchObject({
        pickupAddress: { postalCode: "90035", countryCode: "US", stateOrProvinceCode: "CA" },
        dispatchDate: "2026-01-16",
        carriers: ["FDXG"],
        pickupRequestType: ["FUTURE_DAY"],
        countryRelationship: "DOMESTIC",
        shipmentAttributes: { serviceType: "GROUND_HOME_DELIVERY" },
      });
      const atFedex = standIn.pickups.get(pickup.external_id);
      expect(atFedex?.request).toMatchObject({
        associatedAccountNumber: { value: ACCOUNT_NUMBER },
        carrierCode: "FDXG",
        originDetail: {
          readyDateTimestamp: "2026-01-16T09:00:00",
          customerCloseTime: "17:00:00",
          packageLocation: "REAR",
          pickupLocation: { contact: { companyName: "Acme Fulfillment", phoneNumber: "3105550100" } },
        },
        packageCount: 2,
        totalWeight: { units: "LB", value: 3 },
      });

      const other = await createTestAccount(t.services);
      expect((await remove(pickup.id, other.auth)).statusCode).toBe(404);
      expect(atFedex?.cancelled).toBe(false);
      const cancelled = await remove(pickup.id);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(atFedex?.cancelled).toBe(true);
      expect(standIn.lastBody("pickupCancel")).toMatchObject({ carrierCode: "FDXG", scheduledDate: "2026-01-16" });
    });

    it("cancels a FedEx Express pickup with the location FedEx named when it took it", async () => {
      t.clock.set("2026-01-15T15:00:00.000Z");
      const booked = await post("/api/v2/pickups", {
        pickup: { shipment_ids: [await shipmentId({ service_id: TWO_DAY })], pickup_date: "2026-01-16" },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const pickup = booked.json().pickup;
      expect(standIn.pickups.get(pickup.external_id)).toMatchObject({ carrierCode: "FDXE", location: "LOSA" });
      expect((await remove(pickup.id)).statusCode).toBe(200);
      expect(standIn.lastBody("pickupCancel")).toMatchObject({ carrierCode: "FDXE", location: "LOSA" });
      expect(standIn.pickups.get(pickup.external_id)?.cancelled).toBe(true);
    });

    it("refuses in FedEx's words a pickup FedEx will not make, and Ground mixed with Express", async () => {
      t.clock.set("2026-01-15T15:00:00.000Z");
      const ground = await shipmentId();
      standIn.unservedPostalCodes.add("90035");
      const refused = await post("/api/v2/pickups", { pickup: { shipment_ids: [ground], pickup_date: "2026-01-16" } });
      standIn.unservedPostalCodes.clear();
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ error_code: "carrier.rejected" });
      expect(refused.json().error_message).toContain("Pickup is not available for this postal code.");
      const mixed = await post("/api/v2/pickups", {
        pickup: { shipment_ids: [ground, await shipmentId({ service_id: TWO_DAY })], pickup_date: "2026-01-16" },
      });
      expect(mixed.statusCode).toBe(422);
      expect(mixed.json().error_message).toContain("FedEx Ground and FedEx Express pick up separately");
      standIn.fail("503", { operation: "pickup", times: 3 });
      const down = await post("/api/v2/pickups", { pickup: { shipment_ids: [ground], pickup_date: "2026-01-16" } });
      expect(down.statusCode).toBe(503);
      expect(down.json().error_code).toBe("carrier.unavailable");
      expect(down.json().error_message).toContain("The service is currently unavailable.");
      t.clock.advance(MINUTE + 1000);
    });
  });
});
