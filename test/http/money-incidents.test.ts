import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PURCHASE_RECOVERY_DELAY_MS } from "../../src/domain/shipments/purchase-shipment.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { refuseShipmentStatuses } from "../helpers/failures.js";
import { loggedLines } from "../helpers/log-lines.js";
import { shipmentToBuy } from "../helpers/shipments.js";
import { UpsStandIn } from "../stand-ins/ups/ups-stand-in.js";

const UPS_SECRET = "ups-s3cr3t-value";
const REAL_UPS = {
  carrier_code: "ups",
  credentials: { client_id: "porter-ups-app", client_secret: UPS_SECRET, shipper_number: "A1B2C3" },
};
const UPS_GROUND = 666;
/** Past every breaker's cool-off and the purchase recovery's delay. */
const LATER_MS = PURCHASE_RECOVERY_DELAY_MS + 60_000;

describe("money incidents: a failure where money moves is logged, recorded and repaired (against the UPS stand-in)", () => {
  let ups: UpsStandIn;
  let t: TestApp;
  let worker: Worker;
  let log: ReturnType<typeof loggedLines>;

  beforeAll(async () => {
    ups = await new UpsStandIn({
      clientId: "porter-ups-app",
      clientSecret: UPS_SECRET,
      shipperNumber: "A1B2C3",
    }).start();
    t = await buildTestApp({
      config: { upsApiBaseUrl: ups.baseUrl, carrierApiTimeoutMs: 2000 },
    });
    ups.now = () => t.clock.now();
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  afterAll(async () => {
    await t.close();
    await ups.stop();
  });
  beforeEach(() => {
    log = loggedLines();
    t.services.logger = log.logger;
  });

  async function connected(carrier: object): Promise<TestAccount> {
    const account = await createTestAccount(t.services);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/carrier_accounts",
      headers: account.auth,
      payload: { carrier_account: carrier },
    });
    expect(response.statusCode, response.body).toBe(201);
    return account;
  }
  const buy = (account: TestAccount, shipment: object) =>
    t.app.inject({ method: "POST", url: "/api/v2/shipments/ship", headers: account.auth, payload: { shipment } });
  const lastShipment = (account: TestAccount) =>
    t.services.db
      .selectFrom("shipments")
      .selectAll()
      .where("account_id", "=", account.accountId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
  const incidentsOf = (shipmentId: number) =>
    t.services.db.selectFrom("money_incidents").selectAll().where("shipment_id", "=", shipmentId).execute();
  const loggedIncident = (kind: string, shipmentId: number) =>
    log.lines.find(
      (line) =>
        line.level === 50 &&
        (line.incident as { kind?: string; shipment_id?: number } | undefined)?.kind === kind &&
        (line.incident as { shipment_id?: number }).shipment_id === shipmentId,
    );
  /** The shipment's one incident: open, naming the account, UPS and the labels, and logged. */
  async function openIncident(account: TestAccount, shipmentId: number, kind: string, trackingNumbers: string[]) {
    const [incident, ...more] = await incidentsOf(shipmentId);
    expect(more).toEqual([]);
    expect(incident).toMatchObject({
      kind,
      account_id: account.accountId,
      mode: "test",
      carrier_code: "ups",
      repaired_at: null,
    });
    expect(JSON.parse(incident!.tracking_numbers)).toEqual(trackingNumbers);
    expect(loggedIncident(kind, shipmentId)).toBeDefined();
    return incident!;
  }
  const later = async () => {
    ups.clearFaults();
    t.clock.advance(LATER_MS);
    await worker.drain();
  };

  it("records a label the carrier sold when neither the purchase nor the void could be written, and the recovery job voids it", async () => {
    const account = await connected(REAL_UPS);
    const restore = await refuseShipmentStatuses(t.database.db, ["shipped"]);
    ups.fail("500", { operation: "void", times: 50 });
    try {
      const response = await buy(account, shipmentToBuy({ service_id: UPS_GROUND, label_format: "zpl" }));
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json().error_code).toBe("errors.unavailable");
      expect(response.headers["retry-after"]).toBe("30");
    } finally {
      await restore();
    }
    const shipment = await lastShipment(account);
    const [trackingNumber] = [...ups.shipments.keys()].slice(-1) as [string];
    expect(ups.isVoided(trackingNumber)).toBe(false);
    const incident = await openIncident(account, shipment.id, "labels_not_voided", [trackingNumber]);
    expect(incident.job_kind).toBe("shipment.recover_purchase");
    expect(Number(incident.amount_cents)).toBeGreaterThan(0);

    await later();
    expect(ups.isVoided(trackingNumber)).toBe(true);
    expect((await lastShipment(account)).status).toBe("failed");
    expect((await incidentsOf(shipment.id))[0]).toMatchObject({
      repaired_at: t.clock.now().toISOString(),
      repair: "voided by the purchase recovery job",
    });
  });

  it("records the labels a carrier adapter could not void after a purchase failed, and a repair job voids them", async () => {
    const account = await connected(REAL_UPS);
    // UPS sells the shipment but answers without its packages; every void after it fails.
    ups.fail("unlabelled", { operation: "ship" });
    ups.fail("500", { operation: "void", times: 50 });
    const response = await buy(account, shipmentToBuy({ service_id: UPS_GROUND, label_format: "zpl" }));
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    const shipment = await lastShipment(account);
    expect(shipment.status).toBe("failed");
    const [trackingNumber] = [...ups.shipments.keys()].slice(-1) as [string];
    expect(ups.isVoided(trackingNumber)).toBe(false);
    expect((await openIncident(account, shipment.id, "labels_not_voided", [trackingNumber])).job_kind).toBe(
      "money.void_labels",
    );

    await later();
    expect(ups.isVoided(trackingNumber)).toBe(true);
    expect((await incidentsOf(shipment.id))[0]).toMatchObject({
      repaired_at: t.clock.now().toISOString(),
      repair: "voided at the carrier by the repair job",
    });
  });

  it("records a cancel whose refund could not be written after the carrier voided, and a repair job refunds it once", async () => {
    const account = await connected(REAL_UPS);
    const bought = await buy(account, shipmentToBuy({ service_id: UPS_GROUND, label_format: "zpl" }));
    expect(bought.statusCode, bought.body).toBe(201);
    const { id, parcels } = bought.json().shipment as { id: number; parcels: { tracking_number: string }[] };
    const restore = await refuseShipmentStatuses(t.database.db, ["cancel_pending"]);
    try {
      const cancel = await t.app.inject({
        method: "PUT",
        url: `/api/v2/shipments/${id}/cancel`,
        headers: account.auth,
      });
      expect(cancel.statusCode, cancel.body).toBe(503);
      expect(cancel.json().error_code).toBe("errors.unavailable");
      expect(cancel.headers["retry-after"]).toBe("30");
    } finally {
      await restore();
    }
    expect(ups.isVoided(parcels[0]!.tracking_number)).toBe(true);
    const refunds = () =>
      t.services.db
        .selectFrom("meter_entries")
        .select(["amount_cents", "status"])
        .where("shipment_id", "=", id)
        .where("kind", "=", "refund")
        .execute();
    expect(await refunds()).toEqual([]);
    const incident = await openIncident(account, id, "refund_not_recorded", [parcels[0]!.tracking_number]);
    expect(incident.job_kind).toBe("money.record_refund");
    expect(Number(incident.amount_cents)).toBeGreaterThan(0);

    await later();
    const [refund, ...more] = await refunds();
    expect(more).toEqual([]);
    expect(Number(refund!.amount_cents)).toBe(Number(incident.amount_cents));
    expect((await lastShipment(account)).status).not.toBe("shipped");
    expect((await incidentsOf(id))[0]?.repaired_at).toBe(t.clock.now().toISOString());

    // A second run of the repair (a retried job) writes nothing more.
    await t.services.jobs.enqueue("money.record_refund", { incidentId: incident.id });
    await t.services.db
      .updateTable("money_incidents")
      .set({ repaired_at: null })
      .where("id", "=", incident.id)
      .execute();
    await worker.drain();
    expect(await refunds()).toHaveLength(1);
  });
});
