import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidTrackingNumber as isUps } from "../../src/carriers/ups/tracking-number.js";
import { isValidTrackingNumber as isUsps } from "../../src/carriers/usps/tracking-number.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { refuseShipmentStatuses } from "../helpers/failures.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX, TORONTO_RESIDENCE } from "../helpers/shipments.js";

const GROUND_ADVANTAGE = 1172;
const UPS_GROUND = 666;

function shipment(overrides: Record<string, unknown> = {}) {
  return {
    to_location: SALT_LAKE_RESIDENCE,
    from_location: LOS_ANGELES_WAREHOUSE,
    parcels: [SMALL_BOX],
    service_id: GROUND_ADVANTAGE,
    label_format: "pdf",
    label_size: "4x6",
    ...overrides,
  };
}

describe("buying, reading and cancelling shipments", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let live: TestAccount["auth"];
  let worker: Worker;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
    other = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, other.accountId);
    live = { authorization: `Bearer ${merchant.keys.production}` };
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  afterAll(() => t.close());

  const ship = (
    body: object,
    auth = merchant.auth,
    headers: Record<string, string> = {},
    url = "/api/v2/shipments/ship",
  ) => t.app.inject({ method: "POST", url, headers: { ...auth, ...headers }, payload: { shipment: body } });
  const get = (url: string, auth = merchant.auth) => t.app.inject({ method: "GET", url, headers: auth });
  const meterEntriesOf = (shipmentId: number) =>
    t.services.db.selectFrom("meter_entries").selectAll().where("shipment_id", "=", shipmentId).orderBy("id").execute();
  const cancel = (id: number, auth = merchant.auth) =>
    t.app.inject({ method: "PUT", url: `/api/v2/shipments/${id}/cancel`, headers: auth });
  const fileOf = (imageUrl: string) => t.app.inject({ method: "GET", url: new URL(imageUrl).pathname });

  it("buys a USPS label: tracking number, label file, costs and the charge on the meter", async () => {
    const response = await ship(shipment(), live);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json().shipment;
    expect(body).toMatchObject({
      status: "shipped",
      shipping_service: { service_id: GROUND_ADVANTAGE, service_code: "usps_ground_advantage", carrier_code: "usps" },
      price_group: "04",
    });
    const [parcel] = body.parcels;
    expect(isUsps(parcel.tracking_number)).toBe(true);
    expect(body.tracking_number).toBe(parcel.tracking_number);
    expect(parcel.shipping_cost).toBe(body.shipping_service.rate);
    expect(parcel.postage_label).toMatchObject({ dims: "4x6", resolution: expect.any(Number), status: "active" });
    const file = await fileOf(parcel.postage_label.image_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const charge = await t.services.db
      .selectFrom("meter_entries")
      .selectAll()
      .where("shipment_id", "=", body.id)
      .execute();
    expect(charge).toEqual([
      expect.objectContaining({
        kind: "label_purchase",
        amount_cents: -Math.round(body.shipping_service.rate * 100),
        status: "posted",
      }),
    ]);
  });

  it("returns the label inline as base64 when asked", async () => {
    const body = (await ship(shipment({ inline_image: true, label_format: "png" }))).json().shipment;
    const label = body.parcels[0].postage_label;
    const file = await fileOf(label.image_url);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(Buffer.from(label.base64_image, "base64").equals(file.rawPayload)).toBe(true);
  });

  it.each([
    ["pdf", "application/pdf"],
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["gif", "image/gif"],
    ["tiff", "image/tiff"],
    ["zpl", "application/zpl"],
    ["epl2", "application/epl2"],
  ])("serves a %s label as %s", async (format, contentType) => {
    const body = (await ship(shipment({ label_format: format, service_id: UPS_GROUND }))).json().shipment;
    const file = await fileOf(body.parcels[0].postage_label.image_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe(contentType);
    expect(file.rawPayload.length).toBeGreaterThan(100);
  });

  it("buys one label and tracking number per parcel where the carrier ships several", async () => {
    const body = (
      await ship(shipment({ service_id: UPS_GROUND, parcels: [SMALL_BOX, { ...SMALL_BOX, weight: 40 }] }))
    ).json().shipment;
    expect(body.parcels).toHaveLength(2);
    const numbers = body.parcels.map((p: { tracking_number: string }) => p.tracking_number);
    expect(new Set(numbers).size).toBe(2);
    expect(numbers.every(isUps)).toBe(true);
    const total = body.parcels.reduce(
      (sum: number, p: { shipping_cost: number }) => sum + Math.round(p.shipping_cost * 100),
      0,
    );
    expect(total).toBe(Math.round(body.shipping_service.rate * 100));
  });

  it("answers a shipment without parcels the spec's way: 500 parcel.missing_parcels", async () => {
    for (const parcels of [undefined, []]) {
      const response = await ship(shipment({ parcels }));
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        status: "error",
        error_code: "parcel.missing_parcels",
        error_message: "Missing parcels for request. At least one parcel is required.",
      });
    }
  });

  it.each([
    ["an unknown service", { service_id: 1 }, 422, "shipment.service_unavailable", /service_id 1/],
    [
      "a package type the service lacks",
      { parcels: [{ ...SMALL_BOX, package_type: "fedex_pak" }] },
      422,
      "shipment.package_type_unavailable",
      /parcels\[0\]\.package_type/,
    ],
    ["several parcels on USPS", { parcels: [SMALL_BOX, SMALL_BOX] }, 422, "shipment.multi_parcel_unsupported", /USPS/],
    ["a ship date in the past", { ship_date: "2020-01-01" }, 422, "shipment.ship_date_invalid", /past/],
    ["a postal ship date beyond 14 days", { ship_date: "2026-03-01" }, 422, "shipment.ship_date_invalid", /14 days/],
    ["a ship date that is no date", { ship_date: "soon" }, 400, "request.invalid", /ship_date/],
    [
      "an endorsement on UPS",
      { service_id: UPS_GROUND, parcels: [{ ...SMALL_BOX, service_options: { endorsement: "RETURN_SERVICE" } }] },
      422,
      "shipment.option_unavailable",
      /USPS services only/,
    ],
    [
      "an unknown endorsement",
      { parcels: [{ ...SMALL_BOX, service_options: { endorsement: "BURN_IT" } }] },
      422,
      "shipment.option_unavailable",
      /endorsement must be one of/,
    ],
    [
      "two hazmat types in one parcel",
      {
        parcels: [
          {
            ...SMALL_BOX,
            service_options: { dangerous_goods: { details: { type: "CLASS_9_NEW_LITHIUM_DEVICE,CLASS_3" } } },
          },
        ],
      },
      422,
      "shipment.option_unavailable",
      /one hazmat type per parcel/,
    ],
    [
      "label_scale with ZPL",
      { label_format: "zpl", label_scale: 1.5 },
      422,
      "shipment.label_option_invalid",
      /label_scale/,
    ],
    ["an unknown label size", { label_size: "5x5" }, 400, "request.invalid", /label_size/],
    [
      "a recipient without phone",
      { to_location: { ...SALT_LAKE_RESIDENCE, phone: undefined } },
      400,
      "request.invalid",
      /to_location\.phone/,
    ],
    [
      "a parcel with only its weight (rating takes one; a label needs the sides)",
      { parcels: [{ weight: 24 }] },
      400,
      "request.invalid",
      /parcels\/0\/length|parcels\[0\]\.length/,
    ],
    [
      "a parcel too heavy for the service",
      { parcels: [{ ...SMALL_BOX, weight: 71 * 16 }] },
      422,
      "carrier.rejected",
      /70 lb/,
    ],
  ])("refuses %s", async (_name, overrides, status, code, message) => {
    const response = await ship(shipment(overrides));
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().error_code).toBe(code);
    expect(response.json().error_message).toMatch(message);
  });

  it("retrieves a shipment with its payment, and hides it from other accounts and the other mode", async () => {
    const id = (await ship(shipment(), live)).json().shipment.id;
    const mine = await get(`/api/v2/shipments/${id}`, live);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().shipment).toMatchObject({ id, payment: { currency: "USD", amount: expect.any(Number) } });
    expect((await get(`/api/v2/shipments/${id}`, other.auth)).statusCode).toBe(404);
    expect((await get(`/api/v2/shipments/${id}`, merchant.auth)).statusCode).toBe(404);
    expect((await cancel(id, other.auth)).statusCode).toBe(404);
    expect((await get("/api/v2/shipments/99999999")).json().error_code).toBe("shipment.not_found");
  });

  it("lists shipments newest first with filters and pagination headers", async () => {
    const ups = (await ship(shipment({ service_id: UPS_GROUND }))).json().shipment;
    const usps = (await ship(shipment())).json().shipment;
    const all = await get("/api/v2/shipments?per_page=1&page=1");
    expect(all.statusCode).toBe(200);
    expect(all.json().shipments.map((s: { id: number }) => s.id)).toEqual([usps.id]);
    expect(Number(all.headers["x-total-count"])).toBeGreaterThanOrEqual(2);
    expect(all.headers.link).toContain('rel="next"');
    const byCarrier = (await get("/api/v2/shipments?carrier_code=ups")).json().shipments;
    expect(
      byCarrier.every((s: { shipping_service: { carrier_code: string } }) => s.shipping_service.carrier_code === "ups"),
    ).toBe(true);
    for (const query of [
      `tracking_number=${ups.tracking_number},${usps.tracking_number}`,
      `tracking_number=${ups.tracking_number}&tracking_number=${usps.tracking_number}`,
      `tracking_number[]=${ups.tracking_number}&tracking_number[]=${usps.tracking_number}`,
    ]) {
      const ids = (await get(`/api/v2/shipments?${query}`)).json().shipments.map((s: { id: number }) => s.id);
      expect(ids).toEqual([usps.id, ups.id]);
    }
    expect((await get("/api/v2/shipments", other.auth)).json().shipments).toEqual([]);
    expect((await get("/api/v2/shipments?ship_from_time=2099-01-01")).json().shipments).toEqual([]);
    expect((await get("/api/v2/shipments?ship_from_time=yesterday")).statusCode).toBe(400);
  });

  it("cancels a UPS shipment at once and refunds it through a job", async () => {
    const bought = (await ship(shipment({ service_id: UPS_GROUND }), live)).json().shipment;
    const response = await cancel(bought.id, live);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.shipment.status).toBe("cancel_pending");
    expect(body.shipment.parcels.map((p: { status: string }) => p.status)).toEqual(["cancel_pending"]);
    expect(body.payment).toMatchObject({ currency: "USD", amount: bought.shipping_service.rate });
    await worker.drain();
    expect((await get(`/api/v2/shipments/${bought.id}`, live)).json().shipment.status).toBe("cancelled");
    const refund = await t.services.db
      .selectFrom("meter_entries")
      .selectAll()
      .where("shipment_id", "=", bought.id)
      .where("kind", "=", "refund")
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ status: "posted", amount_cents: Math.round(bought.shipping_service.rate * 100) });
    const again = await cancel(bought.id, live);
    expect(again.statusCode).toBe(409);
    expect(again.json().error_code).toBe("shipment.already_cancelled");
  });

  it("holds a USPS refund 30 days, visible on the meter, then settles it", async () => {
    const bought = (await ship(shipment(), live)).json().shipment;
    expect((await cancel(bought.id, live)).statusCode).toBe(200);
    const held = await t.services.db
      .selectFrom("meter_entries")
      .selectAll()
      .where("shipment_id", "=", bought.id)
      .where("kind", "=", "refund")
      .executeTakeFirstOrThrow();
    expect(held.status).toBe("held");
    expect(new Date(held.available_at).getTime() - t.clock.now().getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    await worker.drain();
    expect((await get(`/api/v2/shipments/${bought.id}`, live)).json().shipment.status).toBe("cancel_pending");
    t.clock.advance(30 * 24 * 60 * 60 * 1000);
    await worker.drain();
    expect((await get(`/api/v2/shipments/${bought.id}`, live)).json().shipment.status).toBe("cancelled");
  });

  it("refuses to cancel a USPS production label after 02:00 Central on its manifest day", async () => {
    t.clock.set("2026-03-10T15:00:00.000Z");
    const bought = (await ship(shipment(), live)).json().shipment;
    t.clock.set("2026-03-11T06:59:00.000Z");
    const later = (await ship(shipment(), live)).json().shipment;
    expect((await cancel(later.id, live)).statusCode).toBe(200);
    t.clock.set("2026-03-11T07:00:00.000Z");
    const late = await cancel(bought.id, live);
    expect(late.statusCode).toBe(409);
    expect(late.json().error_code).toBe("shipment.cancel_window_closed");
  });

  it("lets a USPS test label be cancelled only within a minute", async () => {
    const first = (await ship(shipment())).json().shipment;
    t.clock.advance(59_000);
    expect((await cancel(first.id)).statusCode).toBe(200);
    const second = (await ship(shipment())).json().shipment;
    t.clock.advance(61_000);
    expect((await cancel(second.id)).json().error_code).toBe("shipment.cancel_window_closed");
  });

  it("buys exactly one label for concurrent requests with one Idempotency-Key, all answered the same", async () => {
    const before = await t.services.db.selectFrom("shipments").select("id").execute();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => ship(shipment(), merchant.auth, { "idempotency-key": "buy-once" })),
    );
    const after = await t.services.db.selectFrom("shipments").select("id").execute();
    expect(after.length - before.length).toBe(1);
    for (const response of responses) {
      expect(response.statusCode).toBe(201);
      expect(response.body).toBe(responses[0]?.body);
    }
  });

  it("buys up to ten shipments at once; a carrier failure stays in its slot", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship_multiple",
      headers: merchant.auth,
      payload: {
        shipments: [
          shipment(),
          shipment({ service_id: UPS_GROUND, to_location: { ...SALT_LAKE_RESIDENCE, address2: "sandbox-fault:ups" } }),
          shipment({ service_id: UPS_GROUND }),
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.shipments[0].status).toBe("shipped");
    expect(body.shipments[1]).toMatchObject({ status: "error", error_code: "carrier.rejected" });
    expect(body.shipments[2].status).toBe("shipped");
    expect(body.payment).toMatchObject({ currency: "USD", amount: expect.any(Number) });
  });

  it("refuses more than ten, or any invalid shipment, before buying anything", async () => {
    const tooMany = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship_multiple",
      headers: merchant.auth,
      payload: { shipments: Array.from({ length: 11 }, () => shipment()) },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error_code).toBe("shipments.too_many");
    const before = (await t.services.db.selectFrom("shipments").select("id").execute()).length;
    const invalid = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship_multiple",
      headers: merchant.auth,
      payload: { shipments: [shipment(), shipment({ service_id: 1 })] },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error_message).toMatch(/^shipments\[1\]: /);
    expect((await t.services.db.selectFrom("shipments").select("id").execute()).length).toBe(before);
  });

  it("answers a shipment the schema refuses (no phone) as 400 shipments.invalid naming its index", async () => {
    const { phone: _phone, ...noPhone } = SALT_LAKE_RESIDENCE;
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship_multiple",
      headers: merchant.auth,
      payload: { shipments: [shipment(), shipment({ to_location: noPhone })] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error_code: "shipments.invalid",
      error_message: "shipments[1]: shipments[1].to_location.phone is required.",
    });
    const notAList = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship_multiple",
      headers: merchant.auth,
      payload: { shipment: shipment() },
    });
    expect(notAList.json().error_code).toBe("request.invalid");
  });

  it("works for a child in the child form, invisible to its parent's own list", async () => {
    const child = await createTestAccount(t.services, { parentId: merchant.accountId });
    await connectSandboxCarriers(t.services, child.accountId);
    const response = await ship(shipment(), merchant.auth, {}, `/api/v2/customers/${child.accountId}/shipments/ship`);
    expect(response.statusCode).toBe(201);
    const id = response.json().shipment.id;
    expect((await get(`/api/v2/customers/${child.accountId}/shipments/${id}`)).statusCode).toBe(200);
    expect((await get(`/api/v2/shipments/${id}`, child.auth)).statusCode).toBe(200);
    expect((await get(`/api/v2/shipments/${id}`)).statusCode).toBe(404);
    expect((await get(`/api/v2/customers/${child.accountId}/shipments/${id}`, other.auth)).statusCode).toBe(404);
  });

  it("voids what the carrier sold when the final write fails, and charges nothing", async () => {
    const restore = await refuseShipmentStatuses(t.database.db, ["shipped"]);
    try {
      const response = await ship(shipment({ service_id: UPS_GROUND }), live);
      expect(response.statusCode).toBe(503);
      expect(response.json().error_code).toBe("errors.unavailable");
      expect(response.headers["retry-after"]).toBe("30");
    } finally {
      await restore();
    }
    const failed = await t.services.db
      .selectFrom("shipments")
      .selectAll()
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe("failed");
    expect(failed.status_reason).toMatch(/voided/);
    // The price debited before the carrier was asked went back on the meter.
    const entries = await meterEntriesOf(failed.id);
    expect(entries.map((e) => e.kind)).toEqual(["label_purchase", "refund"]);
    expect(entries.reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);
    expect((await get(`/api/v2/shipments/${failed.id}`, live)).statusCode).toBe(404);
  });

  it("leaves a crash between the sale and its record to the recovery job, which voids it", async () => {
    const restore = await refuseShipmentStatuses(t.database.db, ["shipped", "failed"]);
    try {
      expect((await ship(shipment({ service_id: UPS_GROUND }), live)).statusCode).toBe(503);
    } finally {
      await restore();
    }
    const stuck = await t.services.db
      .selectFrom("shipments")
      .selectAll()
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(stuck.status).toBe("purchasing");
    const parcels = await t.services.db.selectFrom("parcels").selectAll().where("shipment_id", "=", stuck.id).execute();
    expect(parcels[0]?.tracking_number).toBeTruthy();
    await worker.drain();
    expect(
      (
        await t.services.db
          .selectFrom("shipments")
          .select("status")
          .where("id", "=", stuck.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("purchasing");
    t.clock.advance(10 * 60 * 1000 + 1);
    await worker.drain();
    const recovered = await t.services.db
      .selectFrom("shipments")
      .selectAll()
      .where("id", "=", stuck.id)
      .executeTakeFirstOrThrow();
    expect(recovered.status).toBe("failed");
    expect(recovered.status_reason).toContain(`labels ${parcels[0]?.tracking_number} voided`);
    const entries = await meterEntriesOf(stuck.id);
    expect(entries.reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);
  });

  it("gives the list's total from counters that match a count of the shipments, per account, mode and status", async () => {
    // The shipments the tests above bought, failed, cancelled and recovered, in both modes.
    const counted = await t.services.db
      .selectFrom("shipments")
      .select(["account_id", "mode", "status", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("status", "not in", ["purchasing", "failed"])
      .groupBy(["account_id", "mode", "status"])
      .execute();
    const statuses = new Set(counted.map((row) => row.status));
    expect(statuses.size).toBeGreaterThan(1);
    for (const [who, auth, accountId, mode] of [
      ["test", merchant.auth, merchant.accountId, "test"],
      ["production", live, merchant.accountId, "production"],
      ["other account", other.auth, other.accountId, "test"],
    ] as const) {
      const mine = counted.filter((row) => row.account_id === accountId && row.mode === mode);
      const total = mine.reduce((sum, row) => sum + Number(row.n), 0);
      expect((await get("/api/v2/shipments?per_page=1", auth)).headers["x-total-count"], who).toBe(String(total));
      for (const status of statuses) {
        const expected = Number(mine.find((row) => row.status === status)?.n ?? 0);
        const listed = await get(`/api/v2/shipments?per_page=1&status=${status}`, auth);
        expect(listed.headers["x-total-count"], `${who}, ${status}`).toBe(String(expected));
      }
    }
  });

  describe("customs", () => {
    const PRIORITY_INTERNATIONAL = 691;
    const item = (customs_data: Record<string, unknown>, price = 20) => ({
      name: "Wool sweater",
      description: "Knitted wool sweater",
      quantity: 2,
      weight: 8,
      price,
      country_of_origin: "US",
      customs_data: { content_type: "merchandise", hs_tariff_code: "6110.11", ...customs_data },
    });
    const abroad = (items: object[]) =>
      shipment({
        to_location: TORONTO_RESIDENCE,
        service_id: PRIORITY_INTERNATIONAL,
        parcels: [{ ...SMALL_BOX, parcel_items: items }],
      });

    it("refuses an international shipment without eel_pfc, naming the item", async () => {
      const response = await ship(abroad([item({})]));
      expect(response.statusCode).toBe(422);
      expect(response.json().error_code).toBe("customs.invalid");
      expect(response.json().error_message).toContain("shipment.parcels[0].parcel_items[0].customs_data.eel_pfc");
    });

    it("needs an ITN, not an exemption, above 2,500.00 declared", async () => {
      const refused = await ship(abroad([item({ eel_pfc: "NOEEI 30.37(a)" }, 1250.01)]));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error_message).toMatch(/ITN|AES/);
      const bought = await ship(abroad([item({ eel_pfc: "AES X20260115123456" }, 1250.01)]));
      expect(bought.statusCode, bought.body).toBe(201);
    });

    it("serves a CN 22 or CN 23 for an international shipment and 404 for a domestic one", async () => {
      const cheap = (await ship(abroad([item({ eel_pfc: "NOEEI 30.37(a)" })]))).json().shipment;
      const form = await get(`/api/v2/shipments/${cheap.id}/customs_form`);
      expect(form.statusCode).toBe(200);
      expect(form.headers["content-type"]).toBe("application/pdf");
      expect(form.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
      const domestic = (await ship(shipment())).json().shipment;
      const none = await get(`/api/v2/shipments/${domestic.id}/customs_form`);
      expect(none.statusCode).toBe(404);
      expect(none.json().error_code).toBe("customs_form.not_found");
      expect((await get(`/api/v2/shipments/${cheap.id}/customs_form`, other.auth)).statusCode).toBe(404);
    });

    it("ships to Puerto Rico with a domestic USPS service, and still wants customs codes", async () => {
      const sanJuan = { ...SALT_LAKE_RESIDENCE, city: "San Juan", state: "PR", postal_code: "00901" };
      const withoutCodes = await ship(
        shipment({
          to_location: sanJuan,
          parcels: [
            { ...SMALL_BOX, parcel_items: [{ name: "Book", description: "Paperback book", quantity: 1, price: 12 }] },
          ],
        }),
      );
      expect(withoutCodes.statusCode).toBe(422);
      expect(withoutCodes.json().error_code).toBe("customs.invalid");
      const withCode = await ship(
        shipment({
          to_location: sanJuan,
          parcels: [
            {
              ...SMALL_BOX,
              parcel_items: [
                {
                  name: "Book",
                  description: "Paperback book",
                  quantity: 1,
                  price: 12,
                  customs_data: { hs_tariff_code: "4901.99" },
                },
              ],
            },
          ],
        }),
      );
      expect(withCode.statusCode, withCode.body).toBe(201);
    });
  });
});
