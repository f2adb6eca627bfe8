import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCarrierApiStatus } from "../../src/domain/carriers/service-status.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";

const GROUND_ADVANTAGE = 1172;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface TrackingEventOut {
  event_date: string;
  status: string;
  description: string;
  city: string | null;
  code: string;
  secondary_code: string | null;
  tracking_event_id: number;
}

/** Buys a Ground Advantage (or other) label from Los Angeles to Salt Lake City; returns the shipment id. */
async function buyLabel(
  t: TestApp,
  auth: TestAccount["auth"],
  serviceId = GROUND_ADVANTAGE,
  url = "/api/v2/shipments/ship",
) {
  const response = await t.app.inject({
    method: "POST",
    url,
    headers: auth,
    payload: {
      shipment: {
        service_id: serviceId,
        label_format: "zpl",
        label_size: "4x6",
        to_location: SALT_LAKE_RESIDENCE,
        from_location: LOS_ANGELES_WAREHOUSE,
        parcels: [SMALL_BOX],
      },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().shipment.id as number;
}

describe("tracking: sandbox journeys, the refresh job, the advance control and GDE events", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let worker: Worker;
  let gdeServiceId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    other = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    await connectSandboxCarriers(t.services, other.accountId);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    const services = await t.app.inject({
      method: "GET",
      url: "/api/v2/services?carrier_code=usps",
      headers: merchant.auth,
    });
    const gde = (services.json().services as { service_id: number; service_code: string }[]).find((s) =>
      s.service_code.includes("_gde"),
    );
    if (!gde) throw new Error("the USPS catalogue has a GDE service");
    gdeServiceId = gde.service_id;
  });
  afterAll(() => t.close());

  const ship = (auth = merchant.auth, serviceId = GROUND_ADVANTAGE, url = "/api/v2/shipments/ship") =>
    buyLabel(t, auth, serviceId, url);
  const read = async (id: number, auth = merchant.auth) => {
    const response = await t.app.inject({ method: "GET", url: `/api/v2/shipments/${id}`, headers: auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().shipment;
  };
  const advance = (id: number, body?: object, auth = merchant.auth, prefix = "/api/v2") =>
    t.app.inject({
      method: "POST",
      url: `${prefix}/sandbox/shipments/${id}/advance`,
      headers: auth,
      ...(body ? { payload: body } : {}),
    });
  /** The test-mode tracking stream as the events API gives it (the same items webhooks carry). */
  const streamOf = async (prefix = "/api/v2", auth = merchant.auth) => {
    const response = await t.app.inject({
      method: "GET",
      url: `${prefix}/events?stream=shipment_tracking&per_page=1000`,
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().events as { id: number; payload: Record<string, unknown> }[];
  };
  const eventsOf = (shipment: { parcels: { tracking_info: { tracking_events: TrackingEventOut[] } }[] }) =>
    shipment.parcels[0]?.tracking_info.tracking_events ?? [];

  it("a new label is pre-transit with no events; the refresh job then reads the carrier as the clock moves", async () => {
    const id = await ship();
    const bought = await read(id);
    expect(bought.parcels[0].tracking_info).toMatchObject({
      status: "pre_transit",
      delivery_date: null,
      tracking_events: [],
      stale_since: null,
    });
    expect(bought.parcels[0].tracking_info.estimated_delivery_date).toBe(bought.shipping_service.delivery_date);

    t.clock.advance(2 * MINUTE);
    await worker.drain();
    const labelled = await read(id);
    expect(eventsOf(labelled).map((e) => e.code)).toEqual(["GX"]);
    expect(labelled.status).toBe("shipped");

    t.clock.advance(40 * DAY);
    await worker.drain();
    const ended = await read(id);
    const events = eventsOf(ended);
    expect(["delivered", "returned"]).toContain(ended.status);
    expect(ended.parcels[0].status).toBe(ended.status);
    expect(ended.parcels[0].tracking_info.status).toBe(ended.status);
    // Newest first, with USPS Publication 199 codes from label to the end.
    const dates = events.map((e) => e.event_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(events.at(-1)?.code).toBe("GX");
    expect(events.map((e) => e.code)).toEqual(expect.arrayContaining(["03", "07", "OF"]));
    expect(events.some((e) => e.city?.includes("DISTRIBUTION CENTER"))).toBe(true);
    if (ended.status === "delivered") {
      expect(events[0]?.code).toBe("01");
      expect(ended.parcels[0].tracking_info.delivery_date).toBe(events[0]?.event_date);
    }

    // Every stored event went on the stream once, as eHub's webhook payload item.
    const stream = (await streamOf()).filter((e) => e.payload.shipment_id === id);
    expect(stream.map((e) => e.payload.tracking_event_id).sort()).toEqual(
      events.map((e) => e.tracking_event_id).sort(),
    );
    expect(Object.keys(stream[0]?.payload ?? {}).sort()).toEqual(
      [
        "city",
        "code",
        "country",
        "description",
        "event_timestamp",
        "parcel_id",
        "postal_code",
        "secondary_code",
        "shipment_id",
        "state",
        "tracking_event_id",
        "tracking_number",
      ].sort(),
    );
    expect(stream[0]?.payload.tracking_number).toBe(ended.tracking_number);

    // The refresh stopped: no job is left for the shipment and nothing more is stored.
    const row = await t.services.db.selectFrom("shipments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.tracking_refresh_at).toBeNull();
    t.clock.advance(5 * DAY);
    await worker.drain();
    expect(eventsOf(await read(id))).toHaveLength(events.length);
  });

  it("a manifested parcel is accepted at the manifest's time", async () => {
    const id = await ship();
    const batch = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/batches",
      headers: merchant.auth,
      payload: { shipments_ids: [id] },
    });
    expect(batch.statusCode, batch.body).toBe(201);
    t.clock.advance(t.services.config.manifestDelayMs + 1000);
    await worker.drain();
    const row = await t.services.db.selectFrom("shipments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("manifested");
    expect(row.manifested_at).not.toBeNull();
    t.clock.advance(3 * DAY);
    await worker.drain();
    const accepted = eventsOf(await read(id)).find((e) => e.code === "03");
    expect(accepted?.event_date).toBe(row.manifested_at);
  });

  it("a cancelled label gets no events, and cannot be advanced", async () => {
    const id = await ship();
    const cancel = await t.app.inject({ method: "PUT", url: `/api/v2/shipments/${id}/cancel`, headers: merchant.auth });
    expect(cancel.statusCode).toBe(200);
    t.clock.advance(3 * DAY);
    await worker.drain();
    expect(eventsOf(await read(id))).toEqual([]);
    const refused = await advance(id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ status: "error", error_code: "tracking.not_trackable" });
  });

  it("advance moves a test shipment one event, then on to a named status, storing and streaming each event", async () => {
    // Each advance a minute after the last: the events it adds are spaced between the two.
    const id = await ship();
    t.clock.advance(MINUTE);
    const first = await advance(id);
    expect(first.statusCode, first.body).toBe(200);
    expect(eventsOf(first.json().shipment).map((e) => e.code)).toEqual(["GX"]);

    t.clock.advance(MINUTE);
    const second = await advance(id);
    expect(eventsOf(second.json().shipment).map((e) => e.code)).toEqual(["03", "GX"]);
    expect(second.json().shipment.status).toBe("in_transit");

    t.clock.advance(MINUTE);
    const out = await advance(id, { to: "out_for_delivery" });
    expect(out.statusCode, out.body).toBe(200);
    const shipment = out.json().shipment;
    expect(shipment.status).toBe("out_for_delivery");
    expect(eventsOf(shipment)[0]).toMatchObject({ code: "OF", status: "out_for_delivery" });
    expect(eventsOf(shipment)[0]?.event_date).toBe(t.clock.now().toISOString());

    const delivered = await advance(id, { to: "delivered" });
    expect(delivered.json().shipment.status).toBe("delivered");
    expect(eventsOf(delivered.json().shipment)[0]?.code).toBe("01");
    const stream = (await streamOf()).filter((e) => e.payload.shipment_id === id);
    expect(stream).toHaveLength(eventsOf(delivered.json().shipment).length);

    const done = await advance(id);
    expect(done.statusCode).toBe(409);
    expect(done.json()).toMatchObject({ status: "error", error_code: "tracking.complete" });
  });

  it("advance to an ending the journey would not have switches the journey to one that has it", async () => {
    const id = await ship();
    const returned = await advance(id, { to: "returned" });
    expect(returned.statusCode, returned.body).toBe(200);
    const shipment = returned.json().shipment;
    expect(shipment.status).toBe("returned");
    expect(eventsOf(shipment)[0]).toMatchObject({ code: "09", secondary_code: "27", status: "returned" });
    expect(eventsOf(shipment).map((e) => e.code)).toEqual(expect.arrayContaining(["02", "16"]));

    const pickup = await ship();
    const held = await advance(pickup, { to: "available_for_pickup" });
    expect(held.json().shipment.status).toBe("available_for_pickup");
    expect(eventsOf(held.json().shipment)[0]?.code).toBe("16");
  });

  it("advance never dates an event before the label was bought, and spaces the events it adds up to now", async () => {
    for (const to of ["returned", "out_for_delivery", "delivered"]) {
      const boughtAt = t.clock.now().getTime();
      const id = await ship();
      t.clock.advance(2 * MINUTE);
      const moved = await advance(id, { to });
      expect(moved.statusCode, moved.body).toBe(200);
      // Newest first, as the API lists them.
      const dates = eventsOf(moved.json().shipment).map((e) => Date.parse(e.event_date));
      expect(dates.length, to).toBeGreaterThan(2);
      expect(Math.min(...dates), to).toBeGreaterThanOrEqual(boughtAt);
      expect(dates[0], to).toBe(t.clock.now().getTime());
      expect(new Set(dates).size, `${to}: one time per event`).toBe(dates.length);
      expect(
        [...dates].sort((a, b) => b - a),
        to,
      ).toEqual(dates);
    }
  });

  it("a later advance spaces its events after those already stored", async () => {
    const id = await ship();
    t.clock.advance(MINUTE);
    const first = await advance(id);
    const firstDate = Date.parse(eventsOf(first.json().shipment)[0]?.event_date ?? "");
    t.clock.advance(MINUTE);
    const out = await advance(id, { to: "out_for_delivery" });
    const dates = eventsOf(out.json().shipment).map((e) => Date.parse(e.event_date));
    expect(dates.at(-1)).toBe(firstDate);
    expect(dates[0]).toBe(t.clock.now().getTime());
    expect(new Set(dates).size).toBe(dates.length);
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
  });

  it("after an advance the rest of the journey continues from now at the usual pace", async () => {
    const id = await ship();
    const moved = await advance(id, { to: "in_transit" });
    const accepted = eventsOf(moved.json().shipment).length;
    // The next scans follow within hours, not after the label's close-out tomorrow.
    t.clock.advance(6 * 60 * MINUTE);
    await worker.drain();
    expect(eventsOf(await read(id)).length).toBeGreaterThan(accepted);
    t.clock.advance(30 * DAY);
    await worker.drain();
    const ended = await read(id);
    expect(["delivered", "returned"]).toContain(ended.status);
    const dates = eventsOf(ended).map((e) => e.event_date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("advance answers 403 for production keys and 404 for shipments of other accounts; works in the child form", async () => {
    const live = { authorization: `Bearer ${merchant.keys.production}` };
    const liveId = await ship(live);
    const refused = await advance(liveId, undefined, live);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      status: "error",
      error_code: "sandbox.test_mode_only",
      error_message: expect.any(String),
    });
    const mine = await ship();
    expect((await advance(mine, undefined, other.auth)).statusCode).toBe(404);
    expect((await advance(999_999)).json()).toMatchObject({ error_code: "shipment.not_found" });
    expect((await advance(mine, { to: "teleported" })).statusCode).toBe(400);

    const child = await createTestAccount(t.services, { parentId: merchant.accountId });
    await connectSandboxCarriers(t.services, child.accountId);
    const childShipment = await ship(
      merchant.auth,
      GROUND_ADVANTAGE,
      `/api/v2/customers/${child.accountId}/shipments/ship`,
    );
    const viaParent = await advance(childShipment, undefined, merchant.auth, `/api/v2/customers/${child.accountId}`);
    expect(viaParent.statusCode, viaParent.body).toBe(200);
    expect((await advance(childShipment)).statusCode).toBe(404);
    expect(
      (await advance(childShipment, undefined, other.auth, `/api/v2/customers/${child.accountId}`)).statusCode,
    ).toBe(404);
    // The child's events are on the child's stream, not its parent's.
    expect((await streamOf(`/api/v2/customers/${child.accountId}`)).map((e) => e.payload.shipment_id)).toEqual([
      childShipment,
    ]);
  });

  it("tracks each parcel of a multi-parcel shipment under its own number", async () => {
    const ups = (
      await t.app.inject({ method: "GET", url: "/api/v2/services?carrier_code=ups", headers: merchant.auth })
    ).json().services as { service_id: number; service_code: string }[];
    const ground = ups.find((s) => s.service_code === "ups_ground")?.service_id;
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: merchant.auth,
      payload: {
        shipment: {
          service_id: ground,
          label_format: "zpl",
          label_size: "4x6",
          to_location: SALT_LAKE_RESIDENCE,
          from_location: LOS_ANGELES_WAREHOUSE,
          parcels: [SMALL_BOX, { ...SMALL_BOX, weight: 40 }],
        },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().shipment.id as number;
    t.clock.advance(20 * DAY);
    await worker.drain();
    const shipment = await read(id);
    const [first, second] = shipment.parcels as {
      tracking_number: string;
      status: string;
      tracking_info: { tracking_events: TrackingEventOut[] };
    }[];
    expect(first?.tracking_info.tracking_events.at(-1)?.code).toBe("M");
    expect(second?.tracking_info.tracking_events.at(-1)?.code).toBe("M");
    expect(first?.tracking_info.tracking_events.map((e) => e.tracking_event_id)).not.toEqual(
      second?.tracking_info.tracking_events.map((e) => e.tracking_event_id),
    );
    expect([first?.status, second?.status]).toContain(shipment.status);
    const stream = (await streamOf()).filter((e) => e.payload.shipment_id === id);
    expect(new Set(stream.map((e) => e.payload.tracking_number))).toEqual(
      new Set([first?.tracking_number, second?.tracking_number]),
    );
  });

  it("a carrier whose tracking does not answer leaves tracking marked stale since the first failure", async () => {
    const id = await ship();
    t.clock.advance(2 * MINUTE);
    await worker.drain();
    await setCarrierApiStatus(t.services, "usps", "tracking", "offline", null);
    try {
      t.clock.advance(2 * DAY);
      const failedAt = t.clock.now().toISOString();
      await worker.drain();
      t.clock.advance(1 * DAY);
      await worker.drain();
      const stale = await read(id);
      expect(stale.parcels[0].tracking_info.stale_since).toBe(failedAt);
      expect(eventsOf(stale).map((e) => e.code)).toEqual(["GX"]);
    } finally {
      await setCarrierApiStatus(t.services, "usps", "tracking", "online", null);
    }
    t.clock.advance(1 * DAY);
    await worker.drain();
    const fresh = await read(id);
    expect(fresh.parcels[0].tracking_info.stale_since).toBeNull();
    expect(eventsOf(fresh).length).toBeGreaterThan(1);
  });

  describe("GDE tracking events", () => {
    const post = (url: string, payload: object, auth = merchant.auth) =>
      t.app.inject({ method: "POST", url, headers: auth, payload });
    const event = {
      code: 81,
      event_timestamp: "2026-01-15 10:30:00 AM",
      city: "Los Angeles",
      state: "CA",
      country: "US",
    };

    it("adds a custom event to a GDE shipment: 201, shown in tracking and sent on the stream", async () => {
      const id = await ship(merchant.auth, gdeServiceId);
      const created = await post(`/api/v2/shipments/${id}/tracking_events`, { ...event, postal_code: "90020" });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toEqual({ status: "success" });
      const shipment = await read(id);
      expect(eventsOf(shipment)[0]).toMatchObject({
        code: "81",
        status: "in_transit",
        description: "Package arrived at USPS facility",
        event_date: "2026-01-15T10:30:00.000Z",
        city: "Los Angeles",
        state: "CA",
        postal_code: "90020",
        country: "US",
      });
      expect(shipment.status).toBe("in_transit");
      const stream = (await streamOf()).filter((e) => e.payload.shipment_id === id);
      expect(stream.map((e) => e.payload.code)).toEqual(["81"]);
    });

    it("adds one event to several shipments; a late event after delivery is kept without moving the status back", async () => {
      const a = await ship(merchant.auth, gdeServiceId);
      const b = await ship(merchant.auth, gdeServiceId);
      const created = await post("/api/v2/tracking_events", {
        ...event,
        code: 80,
        description: "Package enroute to provider",
        shipment_ids: [a, b],
      });
      expect(created.statusCode, created.body).toBe(201);
      for (const id of [a, b]) {
        expect(eventsOf(await read(id))[0]).toMatchObject({ code: "80", description: "Package enroute to provider" });
      }
      expect((await advance(a, { to: "delivered" })).json().shipment.status).toBe("delivered");
      const late = await post(`/api/v2/shipments/${a}/tracking_events`, {
        ...event,
        event_timestamp: t.clock.now().toISOString(),
      });
      expect(late.statusCode).toBe(201);
      const shipment = await read(a);
      expect(shipment.status).toBe("delivered");
      expect(shipment.parcels[0].tracking_info.status).toBe("delivered");
      expect(eventsOf(shipment).map((e) => e.code)).toContain("81");
    });

    it("refuses other codes, bad dates, missing shipment ids and non-GDE shipments", async () => {
      const gde = await ship(merchant.auth, gdeServiceId);
      const plain = await ship();
      for (const [body, code] of [
        [{ ...event, code: 83 }, "request.invalid"],
        [{ ...event, event_timestamp: "yesterday" }, "request.invalid"],
        [{ code: 81 }, "request.invalid"],
      ] as const) {
        const refused = await post(`/api/v2/shipments/${gde}/tracking_events`, body);
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json()).toMatchObject({ status: "error", error_code: code });
      }
      expect((await post("/api/v2/tracking_events", event)).statusCode).toBe(400);
      const notGde = await post(`/api/v2/shipments/${plain}/tracking_events`, event);
      expect(notGde.statusCode).toBe(422);
      expect(notGde.json()).toMatchObject({ status: "error", error_code: "tracking_event.not_gde" });
      const mixed = await post("/api/v2/tracking_events", { ...event, shipment_ids: [gde, plain] });
      expect(mixed.statusCode).toBe(422);
      expect(eventsOf(await read(gde))).toEqual([]);
    });

    it("is walled per account and mode, and works in the child form", async () => {
      const id = await ship(merchant.auth, gdeServiceId);
      const foreign = await post(`/api/v2/shipments/${id}/tracking_events`, event, other.auth);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ error_code: "shipment.not_found" });
      expect((await post("/api/v2/tracking_events", { ...event, shipment_ids: [id] }, other.auth)).statusCode).toBe(
        404,
      );
      const live = { authorization: `Bearer ${merchant.keys.production}` };
      expect((await post(`/api/v2/shipments/${id}/tracking_events`, event, live)).statusCode).toBe(404);

      const child = await createTestAccount(t.services, { parentId: merchant.accountId });
      await connectSandboxCarriers(t.services, child.accountId);
      const childShipment = await ship(
        merchant.auth,
        gdeServiceId,
        `/api/v2/customers/${child.accountId}/shipments/ship`,
      );
      const prefix = `/api/v2/customers/${child.accountId}`;
      expect((await post(`${prefix}/shipments/${childShipment}/tracking_events`, event)).statusCode).toBe(201);
      expect((await post(`${prefix}/tracking_events`, { ...event, shipment_ids: [childShipment] })).statusCode).toBe(
        201,
      );
      expect((await post(`/api/v2/shipments/${childShipment}/tracking_events`, event)).statusCode).toBe(404);
      expect(
        (await post(`${prefix}/tracking_events`, { ...event, shipment_ids: [childShipment] }, other.auth)).statusCode,
      ).toBe(404);
      expect(eventsOf(await read(childShipment, child.auth))).toHaveLength(2);
    });
  });
});

describe("SANDBOX_TIME_SCALE", () => {
  let t: TestApp;
  afterAll(() => t.close());

  it("runs sandbox journeys that many times faster", async () => {
    t = await buildTestApp({ config: { sandboxTimeScale: 1000 } });
    const merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    const worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    const id = await buyLabel(t, merchant.auth);
    // Forty journey days are under an hour at a thousand times the pace.
    for (let minute = 0; minute < 60; minute += 5) {
      t.clock.advance(5 * MINUTE);
      await worker.drain();
    }
    const shipment = (
      await t.app.inject({ method: "GET", url: `/api/v2/shipments/${id}`, headers: merchant.auth })
    ).json().shipment;
    expect(["delivered", "returned"]).toContain(shipment.status);
    const last = shipment.parcels[0].tracking_info.tracking_events[0].event_date;
    expect(Date.parse(last)).toBeLessThanOrEqual(t.clock.now().getTime());
  });
});
