import { afterEach, describe, expect, it } from "vitest";
import { closeOutInstant, POSTAL_CLOSE_OUT_JOB, scheduleCloseOut } from "../../src/domain/batches/close-out.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const GROUND_ADVANTAGE = 1172;

describe("the close-out instant", () => {
  it("finds 02:00 Central in standard and daylight time, and 03:00 CDT on the spring-forward day", () => {
    expect(closeOutInstant("2026-01-15").toISOString()).toBe("2026-01-15T08:00:00.000Z");
    expect(closeOutInstant("2026-07-15").toISOString()).toBe("2026-07-15T07:00:00.000Z");
    expect(closeOutInstant("2026-03-08").toISOString()).toBe("2026-03-08T08:00:00.000Z");
    expect(closeOutInstant("2026-03-09").toISOString()).toBe("2026-03-09T07:00:00.000Z");
    expect(closeOutInstant("2026-11-01").toISOString()).toBe("2026-11-01T08:00:00.000Z");
    expect(closeOutInstant("2026-10-31").toISOString()).toBe("2026-10-31T07:00:00.000Z");
  });
});

describe("the automatic postal close-out at 02:00 America/Chicago", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let live: { authorization: string };
  let worker: Worker;

  async function start(at: string): Promise<void> {
    t = await buildTestApp();
    t.clock.set(at);
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
    live = { authorization: `Bearer ${merchant.keys.production}` };
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    await scheduleCloseOut(t.services);
  }
  afterEach(() => t.close());

  async function ship(overrides: Record<string, unknown> = {}, service_id = GROUND_ADVANTAGE): Promise<number> {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: live,
      payload: {
        shipment: shipmentToBuy({ service_id, ...overrides }),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().shipment.id;
  }
  const shipment = async (id: number) =>
    (await t.app.inject({ method: "GET", url: `/api/v2/shipments/${id}`, headers: live })).json().shipment;
  const cancel = (id: number) => t.app.inject({ method: "PUT", url: `/api/v2/shipments/${id}/cancel`, headers: live });
  const runAt = async (instant: string) => {
    t.clock.set(instant);
    await worker.drain();
  };
  const queuedCloseOuts = () =>
    t.services.db
      .selectFrom("jobs")
      .select(["payload", "run_at"])
      .where("kind", "=", POSTAL_CLOSE_OUT_JOB)
      .where("state", "=", "queued")
      .execute();

  it("closes out across the spring change: CST before, CDT after, nothing an hour early", async () => {
    await start("2026-03-07T18:00:00.000Z"); // Saturday noon, CST
    await scheduleCloseOut(t.services); // a second worker starting queues no second close-out
    expect(await queuedCloseOuts()).toEqual([
      { payload: JSON.stringify({ day: "2026-03-08" }), run_at: "2026-03-08T08:00:00.000Z" },
    ]);
    const today = await ship();
    const spare = await ship();
    const monday = await ship({ ship_date: "2026-03-09" });

    await runAt("2026-03-08T07:59:59.999Z");
    expect((await shipment(today)).status).toBe("shipped");
    // Until the close-out the label can still be voided, by the same 02:00 rule.
    expect((await cancel(spare)).statusCode).toBe(200);

    await runAt("2026-03-08T08:00:00.000Z");
    const closed = await shipment(today);
    expect(closed.status).toBe("manifested");
    expect(closed.batch_id).toBeNull();
    expect(closed.parcels[0].status).toBe("manifested");
    const row = await t.services.db
      .selectFrom("shipments")
      .select("manifested_at")
      .where("id", "=", today)
      .executeTakeFirstOrThrow();
    expect(row.manifested_at).toBe("2026-03-08T08:00:00.000Z");
    expect((await shipment(monday)).status).toBe("shipped");

    const again = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/batches",
      headers: live,
      payload: { shipments_ids: [today] },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error_code).toBe("batch.already_closed_out");
    const late = await cancel(today);
    expect(late.statusCode).toBe(409);
    expect(late.json().error_code).toBe("shipment.cancel_window_closed");

    // The next close-out is 02:00 CDT, an hour earlier in UTC.
    expect((await queuedCloseOuts()).map((j) => j.run_at)).toEqual(["2026-03-09T07:00:00.000Z"]);
    await runAt("2026-03-09T06:59:59.999Z");
    expect((await shipment(monday)).status).toBe("shipped");
    await runAt("2026-03-09T07:00:00.000Z");
    expect((await shipment(monday)).status).toBe("manifested");
  });

  it("closes out across the autumn change: CDT before, CST after, not at the repeated 01:00", async () => {
    await start("2026-10-30T17:00:00.000Z"); // Friday noon, CDT
    const friday = await ship();
    await runAt("2026-10-31T07:00:00.000Z");
    expect((await shipment(friday)).status).toBe("manifested");

    t.clock.set("2026-10-31T17:00:00.000Z");
    const saturday = await ship();
    expect((await queuedCloseOuts()).map((j) => j.run_at)).toEqual(["2026-11-01T08:00:00.000Z"]);
    // 07:00Z is 02:00 CDT no more: clocks went back to 01:00 CST.
    await runAt("2026-11-01T07:00:00.000Z");
    expect((await shipment(saturday)).status).toBe("shipped");
    await runAt("2026-11-01T08:00:00.000Z");
    expect((await shipment(saturday)).status).toBe("manifested");
  });

  it("leaves other carriers, batched and cancelled shipments alone, and catches up missed days", async () => {
    await start("2026-01-15T15:00:00.000Z");
    const batched = await ship();
    const upsServices = await t.app.inject({ method: "GET", url: "/api/v2/services?carrier_code=ups", headers: live });
    const upsGround = upsServices
      .json()
      .services.find((s: { service_code: string }) => s.service_code === "ups_ground");
    const ups = await ship({}, upsGround.service_id);
    const cancelled = await ship();
    const ground = await ship();
    await t.app.inject({ method: "PUT", url: `/api/v2/shipments/${cancelled}/cancel`, headers: live });
    await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/batches",
      headers: live,
      payload: { shipments_ids: [batched] },
    });
    // Two workers that started together queued the same close-out twice: the chain does not double.
    await t.services.jobs.enqueue(
      POSTAL_CLOSE_OUT_JOB,
      { day: "2026-01-16" },
      { runAt: closeOutInstant("2026-01-16") },
    );
    // The worker was away for three days: the close-outs run one after the other.
    t.clock.set("2026-01-19T09:00:00.000Z");
    await t.services.db.deleteFrom("jobs").where("kind", "!=", POSTAL_CLOSE_OUT_JOB).execute();
    await worker.drain();
    expect((await shipment(ground)).status).toBe("manifested");
    expect((await shipment(ups)).status).toBe("shipped");
    expect((await shipment(cancelled)).status).toBe("cancel_pending");
    expect((await shipment(batched)).status).toBe("shipped");
    expect((await queuedCloseOuts()).map((j) => j.run_at)).toEqual(["2026-01-20T08:00:00.000Z"]);
  });
});
