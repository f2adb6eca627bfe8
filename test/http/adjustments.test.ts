import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendMeterEntry } from "../../src/domain/meter/meter.repository.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestTenants, liveAuth, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { buyLabel, shipmentToBuy } from "../helpers/shipments.js";

const DAY = 86_400_000;

describe("USPS adjustments", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let child: TestAccount;

  const request = (auth: TestAccount["auth"], method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: auth,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const buy = async (auth: TestAccount["auth"], overrides: Record<string, unknown> = {}) => {
    const response = await request(auth, "POST", "/shipments/ship", { shipment: shipmentToBuy(overrides) });
    expect(response.statusCode, response.body).toBe(201);
    const shipment = response.json().shipment;
    return { id: shipment.id as number, trackingNumber: shipment.parcels[0].tracking_number as string };
  };
  const adjust = (auth: TestAccount["auth"], id: number, body?: Record<string, unknown>) =>
    request(auth, "POST", `/sandbox/shipments/${id}/adjust`, body);
  const parcelCost = async (shipmentId: number) =>
    (
      await t.services.db
        .selectFrom("parcels")
        .select("cost_cents")
        .where("shipment_id", "=", shipmentId)
        .executeTakeFirstOrThrow()
    ).cost_cents;

  beforeAll(async () => {
    t = await buildTestApp({ config: { sandboxAuditPercent: 0 } });
    ({ merchant, other, child } = await createTestTenants(t.services));
    for (const account of [merchant, other, child]) await connectSandboxCarriers(t.services, account.accountId);
  });
  afterAll(() => t.close());

  it("adjusts a parcel measured heavier: eHub's row, every key, and its ledger entry in the same write", async () => {
    const { id, trackingNumber } = await buy(merchant.auth);
    const response = await adjust(merchant.auth, id, { adj_weight: 70 });
    expect(response.statusCode, response.body).toBe(201);
    const paid = await parcelCost(id);
    const row = response.json().shipment_adjustment;
    expect(row).toEqual({
      adjustment_id: expect.any(Number),
      adjustment_created_at: t.clock.now().toISOString(),
      external_id: null,
      customer_id: merchant.accountId,
      customer: expect.any(String),
      shipment_id: id,
      tracking_number: trackingNumber,
      shipped_at: t.clock.now().toISOString(),
      from_country: "US",
      from_postal_code: "90035",
      adj_from_postal_code: "90035",
      to_country: "US",
      to_postal_code: "84111",
      ship_service: "usps_ground_advantage",
      adj_service: "usps_ground_advantage",
      ship_package: "parcel",
      adj_package: "parcel",
      ship_weight: "24",
      adj_weight: "70",
      ship_length: "10",
      adj_length: "10",
      ship_width: "8",
      adj_width: "8",
      ship_height: "4",
      adj_height: "4",
      ship_meter_cost: paid / 100,
      adj_meter_cost: expect.any(Number),
      meter_adj: expect.any(Number),
    });
    expect(row.adj_meter_cost).toBeGreaterThan(row.ship_meter_cost);
    expect(Math.round(row.meter_adj * 100)).toBe(Math.round(row.adj_meter_cost * 100) - paid);
    const stored = await t.services.db
      .selectFrom("shipment_adjustments")
      .innerJoin("meter_entries", "meter_entries.id", "shipment_adjustments.meter_entry_id")
      .select(["meter_entries.kind", "meter_entries.amount_cents", "meter_entries.shipment_id", "source"])
      .where("shipment_adjustments.id", "=", row.adjustment_id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      kind: "adjustment",
      amount_cents: paid - Math.round(row.adj_meter_cost * 100),
      shipment_id: id,
      source: "requested",
    });

    const report = await request(merchant.auth, "GET", "/reports/shipment_adjustments");
    expect(report.json().shipment_adjustments).toEqual([row]);
    const ledger = await request(merchant.auth, "GET", "/reports/meter_transaction");
    expect(ledger.json().meter_transactions.map((r: { tracking_numbers: string[] }) => r.tracking_numbers)).toEqual([
      [trackingNumber],
      [trackingNumber],
    ]);
    const csv = await t.app.inject({
      url: "/api/v2/reports/shipment_adjustments",
      headers: { ...merchant.auth, accept: "text/csv" },
    });
    const lines = csv.body.split("\r\n");
    expect(lines[1]?.split(",")).toEqual(Object.values(row).map((value) => (value === null ? "" : String(value))));

    const again = await adjust(merchant.auth, id, { adj_weight: 90 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error_code).toBe("adjustment.already_adjusted");
  });

  it("reprices a parcel entered at another ZIP, or as another service", async () => {
    const far = await buy(merchant.auth);
    const zip = await adjust(merchant.auth, far.id, { adj_postal_code: "10001" });
    expect(zip.statusCode, zip.body).toBe(201);
    expect(zip.json().shipment_adjustment).toMatchObject({ from_postal_code: "90035", adj_from_postal_code: "10001" });
    expect(zip.json().shipment_adjustment.meter_adj).toBeGreaterThan(0);

    const priority = await buy(merchant.auth);
    const service = await adjust(merchant.auth, priority.id, { adj_service: "usps_priority" });
    expect(service.statusCode, service.body).toBe(201);
    expect(service.json().shipment_adjustment).toMatchObject({ adj_service: "usps_priority" });
  });

  it("refunds a parcel measured lighter", async () => {
    const { id } = await buy(merchant.auth);
    const response = await adjust(merchant.auth, id, { adj_weight: 3 });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().shipment_adjustment.meter_adj).toBeLessThan(0);
  });

  it("reverses a label's adjustment when the label is voided: the refund is what the meter paid", async () => {
    const meter = async () => (await request(merchant.auth, "GET", "/meter")).json().meter;
    for (const measured of [{ adj_weight: 70 }, { adj_weight: 3 }]) {
      const before = await meter();
      const { id } = await buy(merchant.auth);
      const adjusted = await adjust(merchant.auth, id, measured);
      expect(adjusted.statusCode, adjusted.body).toBe(201);
      const { adj_meter_cost } = adjusted.json().shipment_adjustment;

      const cancelled = await request(merchant.auth, "PUT", `/shipments/${id}/cancel`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json().payment.amount).toBe(adj_meter_cost);
      const entries = await t.services.db
        .selectFrom("meter_entries")
        .select(["kind", "amount_cents", "status"])
        .where("shipment_id", "=", id)
        .orderBy("id")
        .execute();
      expect(entries.map((e) => e.kind)).toEqual(["label_purchase", "adjustment", "refund"]);
      expect(entries.at(-1)).toEqual({
        kind: "refund",
        amount_cents: Math.round(adj_meter_cost * 100),
        status: "held",
      });
      expect(entries.reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);
      // Once USPS releases the hold, the meter is where it was before the label.
      const after = await meter();
      expect(Math.round((after.balance + after.pending_refunds) * 100)).toBe(
        Math.round((before.balance + before.pending_refunds) * 100),
      );
    }
  });

  it("given no measurement, finds the parcel heavier than declared (with no body, or an empty one)", async () => {
    for (const body of [undefined, {}]) {
      const { id } = await buy(merchant.auth);
      const response = await adjust(merchant.auth, id, body);
      expect(response.statusCode, response.body).toBe(201);
      expect(Number(response.json().shipment_adjustment.adj_weight)).toBeGreaterThan(32);
    }
  });

  it("refuses what USPS would not adjust", async () => {
    const { id } = await buy(merchant.auth);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ adj_weight: 24 }, 422, "adjustment.no_change"],
      [{ adj_weight: 25 }, 422, "adjustment.no_change"],
      [{ adj_service: "ups_ground" }, 422, "adjustment.unknown_service"],
      [{ adj_weight: 9000 }, 422, "adjustment.not_priced"],
      [{ adj_postal_code: "00000" }, 422, "adjustment.not_priced"],
      [{ adj_postal_code: "1234" }, 400, "request.invalid"],
      [{ adj_weight: -1 }, 400, "request.invalid"],
    ];
    for (const [body, status, code] of cases) {
      const response = await adjust(merchant.auth, id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().error_code).toBe(code);
    }
    const ups = await buy(merchant.auth, { service_id: 666 });
    const notPostal = await adjust(merchant.auth, ups.id, { adj_weight: 70 });
    expect(notPostal.statusCode).toBe(422);
    expect(notPostal.json().error_code).toBe("adjustment.carrier_not_supported");

    const cancelled = await buy(merchant.auth);
    expect((await request(merchant.auth, "PUT", `/shipments/${cancelled.id}/cancel`)).statusCode).toBe(200);
    const afterCancel = await adjust(merchant.auth, cancelled.id, { adj_weight: 70 });
    expect(afterCancel.statusCode).toBe(409);
    expect(afterCancel.json().error_code).toBe("shipment.already_cancelled");
  });

  it("is a wall between tenants and a test-mode control", async () => {
    const { id } = await buy(merchant.auth);
    const stranger = await adjust(other.auth, id, { adj_weight: 70 });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error_code).toBe("shipment.not_found");
    const live = await adjust(liveAuth(merchant), id, { adj_weight: 70 });
    expect(live.statusCode).toBe(403);
    expect(live.json().error_code).toBe("sandbox.test_mode_only");
    expect(await request(other.auth, "GET", "/reports/shipment_adjustments")).toMatchObject({ statusCode: 200 });
    expect((await request(other.auth, "GET", "/reports/shipment_adjustments")).json()).toEqual({
      shipment_adjustments: [],
    });

    // The parent adjusts its child's shipment through the child form; the child's row is the child's.
    const childShipment = await buy(child.auth);
    const viaParent = await request(
      merchant.auth,
      "POST",
      `/customers/${child.accountId}/sandbox/shipments/${childShipment.id}/adjust`,
      {
        adj_weight: 70,
      },
    );
    expect(viaParent.statusCode, viaParent.body).toBe(201);
    expect(viaParent.json().shipment_adjustment.customer_id).toBe(child.accountId);
    const strangerChild = await request(
      other.auth,
      "POST",
      `/customers/${child.accountId}/sandbox/shipments/${childShipment.id}/adjust`,
      {},
    );
    expect(strangerChild.statusCode).toBe(404);
    const mine = (await request(merchant.auth, "GET", "/reports/shipment_adjustments")).json().shipment_adjustments;
    expect(mine.map((r: { customer_id: number }) => r.customer_id)).not.toContain(child.accountId);
    const withChildren = (
      await request(merchant.auth, "GET", "/reports/shipment_adjustments?include_children=true")
    ).json().shipment_adjustments;
    expect(withChildren.at(-1)).toMatchObject({ customer_id: child.accountId, shipment_id: childShipment.id });
  });
});

describe("USPS audits at acceptance", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let worker: Worker;

  beforeAll(async () => {
    t = await buildTestApp({ config: { sandboxAuditPercent: 100 } });
    ({ merchant } = await createTestTenants(t.services));
    await connectSandboxCarriers(t.services, merchant.accountId);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    const stamp = t.clock.now().toISOString();
    await appendMeterEntry(t.services.db, {
      account_id: merchant.accountId,
      mode: "production",
      kind: "refill",
      amount_cents: 100_000,
      shipment_id: null,
      description: "Refill for the audit test",
      status: "posted",
      available_at: stamp,
      created_at: stamp,
    });
  });
  afterAll(() => t.close());

  const buy = async (auth: TestAccount["auth"], overrides: Record<string, unknown> = {}) =>
    (await buyLabel(t, auth, overrides)).id as number;
  const adjustmentsOf = (shipmentId: number) =>
    t.services.db
      .selectFrom("shipment_adjustments")
      .innerJoin("meter_entries", "meter_entries.id", "shipment_adjustments.meter_entry_id")
      .select([
        "source",
        "meter_adj_cents",
        "meter_entries.amount_cents",
        "meter_entries.kind",
        "shipment_adjustments.created_at",
      ])
      .where("shipment_adjustments.shipment_id", "=", shipmentId)
      .execute();

  it("adjusts an accepted production parcel once, charging or refunding the meter by the difference", async () => {
    const id = await buy(liveAuth(merchant));
    t.clock.advance(2 * 60_000);
    await worker.drain();
    expect(await adjustmentsOf(id)).toEqual([]);
    t.clock.advance(3 * DAY);
    await worker.drain();
    const [adjustment, ...more] = await adjustmentsOf(id);
    expect(more).toEqual([]);
    expect(adjustment).toMatchObject({ source: "audit", kind: "adjustment" });
    expect(adjustment?.amount_cents).toBe(-(adjustment?.meter_adj_cents ?? 0));
    expect(adjustment?.meter_adj_cents).not.toBe(0);
    t.clock.advance(40 * DAY);
    await worker.drain();
    expect(await adjustmentsOf(id)).toHaveLength(1);
    const report = await t.app.inject({ url: "/api/v2/reports/shipment_adjustments", headers: liveAuth(merchant) });
    expect(report.json().shipment_adjustments).toHaveLength(1);
  });

  it("audits a test parcel moved on by the advance control, charging the test meter", async () => {
    const id = await buy(merchant.auth);
    const moved = await t.app.inject({
      method: "POST",
      url: `/api/v2/sandbox/shipments/${id}/advance`,
      headers: merchant.auth,
      payload: { to: "in_transit" },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [adjustment] = await adjustmentsOf(id);
    expect(adjustment).toMatchObject({ source: "audit", amount_cents: -(adjustment?.meter_adj_cents ?? 0) });
    expect(adjustment?.amount_cents).not.toBe(0);
  });

  it("leaves other carriers' parcels alone", async () => {
    const id = await buy(merchant.auth, { service_id: 666 });
    t.clock.advance(5 * DAY);
    await worker.drain();
    expect(await adjustmentsOf(id)).toEqual([]);
  });
});
