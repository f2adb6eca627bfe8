import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PRUNE_JOB,
  pruneExpiredData,
  type RetentionPolicy,
  runPruning,
  schedulePruning,
} from "../../src/domain/retention/prune.js";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Retention: what passes (idempotent answers, finished jobs, delivered events, finished webhook
 * deliveries) is pruned in small batches after its time; shipments, labels and the meter's ledger
 * never are. The clock is the test's: a week passes in a loop.
 */
describe("pruning old records", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let subscriptionId: number;
  // Short windows, so a simulated week shows several of them pass; small batches, so a run needs several.
  const policy: RetentionPolicy = {
    jobRetentionMs: DAY,
    eventRetentionMs: 2 * DAY,
    webhookDeliveryRetentionMs: 2 * DAY,
    pruneIntervalMs: HOUR,
    pruneBatchSize: 10,
  };

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    // The test key buys: its meter pays for a week of labels.
    await fundMeter(t.services, merchant, "test", 100_000_000);
    await connectSandboxCarriers(t.services, merchant.accountId);
    const now = t.clock.now().toISOString();
    const subscription = await t.services.db
      .insertInto("webhook_subscriptions")
      .values({
        account_id: merchant.accountId,
        mode: "test",
        subscription_type: "shipment_tracking",
        status: "active",
        url: "https://hooks.example.com/porter",
        payload_format: "json",
        auth_type: "hmac",
        hmac_secret_sealed: null,
        hmac_secret_last4: null,
        http_basic_sealed: null,
        cursor_event_id: 0,
        batch_through_id: null,
        batch_message_id: null,
        last_pushed_id: null,
        last_pushed_at: null,
        error_count: 0,
        last_response_code: null,
        last_response_message: null,
        next_attempt_at: now,
        locked_by: null,
        locked_until: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    subscriptionId = subscription.id;
  });
  afterAll(() => t.close());

  const buy = (key: string, inline = false) =>
    t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: { ...merchant.auth, "idempotency-key": key },
      payload: { shipment: shipmentToBuy({ inline_image: inline, label_format: "png" }) },
    });
  const stored = (key: string) =>
    t.services.db.selectFrom("idempotency_keys").selectAll().where("idempotency_key", "=", key).executeTakeFirst();
  const count = async (table: "idempotency_keys" | "jobs" | "events" | "webhook_deliveries" | "shipments") =>
    Number(
      (
        await t.services.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const finishedJobs = async () =>
    Number(
      (
        await t.services.db
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("state", "in", ["done", "failed"])
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** One hour's traffic besides the purchase: finished jobs, events the subscription delivered, deliveries. */
  const hourOfTraffic = async () => {
    const now = t.clock.now().toISOString();
    for (let i = 0; i < 3; i += 1) {
      const id = await t.services.jobs.enqueue("test.noop", { i });
      await t.services.db.updateTable("jobs").set({ state: "done", updated_at: now }).where("id", "=", id).execute();
    }
    const events = await t.services.db
      .insertInto("events")
      .values(
        Array.from({ length: 4 }, () => ({
          account_id: merchant.accountId,
          mode: "test" as const,
          stream: "shipment_tracking" as const,
          payload: "{}",
          occurred_at: now,
          created_at: now,
        })),
      )
      .returning("id")
      .execute();
    const last = Math.max(...events.map((e) => e.id));
    // The subscription delivered them: its cursor moved past them, and each delivery is recorded.
    await t.services.db
      .updateTable("webhook_subscriptions")
      .set({ cursor_event_id: last })
      .where("id", "=", subscriptionId)
      .execute();
    for (let i = 0; i < 2; i += 1) {
      await t.services.db
        .insertInto("webhook_deliveries")
        .values({
          subscription_id: subscriptionId,
          message_id: `msg_${randomUUID()}`,
          trigger: "stream",
          status: "succeeded",
          first_event_id: last - 3,
          last_event_id: last,
          event_count: 4,
          response_code: 200,
          response_excerpt: null,
          error_message: null,
          latency_ms: 5,
          created_at: now,
          completed_at: now,
        })
        .execute();
    }
  };

  it("stores a purchase's inline label image as a reference to the file, and a replay shows it whole", async () => {
    const first = await buy("inline-1", true);
    expect(first.statusCode, first.body).toBe(201);
    const image = first.json().shipment.parcels[0].postage_label.base64_image as string;
    expect(image.length).toBeGreaterThan(1000);

    const row = await stored("inline-1");
    expect(row?.response_body).not.toContain(image);
    expect(row?.response_body).toContain("stored-file:");
    expect((row?.response_body ?? "").length).toBeLessThan(first.body.length - image.length + 200);

    const replay = await buy("inline-1", true);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(first.json());
  });

  it("replays an answer for 24 hours after it was given; then it is pruned and the key is free", async () => {
    const first = await buy("day-1");
    expect(first.statusCode).toBe(201);
    t.clock.advance(DAY - HOUR);
    await pruneExpiredData(t.services, policy);
    expect((await buy("day-1")).json()).toEqual(first.json());

    t.clock.advance(HOUR + 1);
    const counts = await pruneExpiredData(t.services, policy);
    expect(counts.idempotency_keys).toBeGreaterThanOrEqual(1);
    expect(await stored("day-1")).toBeUndefined();
    const again = await buy("day-1");
    expect(again.statusCode).toBe(201);
    expect(again.json().shipment.id).not.toBe(first.json().shipment.id);
  });

  it("keeps an event an active subscription has yet to deliver, however old", async () => {
    const now = t.clock.now().toISOString();
    const undelivered = await t.services.db
      .insertInto("events")
      .values({
        account_id: merchant.accountId,
        mode: "test",
        stream: "shipment_tracking",
        payload: "{}",
        occurred_at: now,
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    t.clock.advance(10 * DAY);
    await pruneExpiredData(t.services, policy);
    const kept = await t.services.db.selectFrom("events").select("id").where("id", "=", undelivered.id).execute();
    expect(kept).toHaveLength(1);

    await t.services.db
      .updateTable("webhook_subscriptions")
      .set({ cursor_event_id: undelivered.id })
      .where("id", "=", subscriptionId)
      .execute();
    await pruneExpiredData(t.services, policy);
    expect(await t.services.db.selectFrom("events").select("id").where("id", "=", undelivered.id).execute()).toEqual(
      [],
    );
  });

  it("keeps the tables bounded through a week of hourly traffic; shipments and the ledger stay whole", async () => {
    await pruneExpiredData(t.services, policy);
    const shipmentsBefore = await count("shipments");
    const ledgerBefore = Number(
      (
        await t.services.db
          .selectFrom("meter_entries")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const sizes: Array<Record<string, number>> = [];
    for (let hour = 0; hour < 7 * 24; hour += 1) {
      const bought = await buy(`week-${hour}`, hour % 4 === 0);
      expect(bought.statusCode, bought.body).toBe(201);
      await hourOfTraffic();
      t.clock.advance(HOUR);
      await pruneExpiredData(t.services, policy);
      if (hour % 24 === 23) {
        sizes.push({
          idempotency_keys: await count("idempotency_keys"),
          jobs: await finishedJobs(),
          events: await count("events"),
          webhook_deliveries: await count("webhook_deliveries"),
        });
      }
    }
    // Each table holds about its retention's worth of traffic and no more, from the third day on.
    const last = sizes.at(-1) as Record<string, number>;
    expect(last.idempotency_keys).toBeLessThanOrEqual(25);
    // Three finished jobs an hour, kept a day.
    expect(last.jobs).toBeLessThanOrEqual(25 * 3);
    expect(last.events).toBeLessThanOrEqual(49 * 4);
    expect(last.webhook_deliveries).toBeLessThanOrEqual(49 * 2);
    expect(sizes[6]).toEqual(sizes[3]);

    expect(await count("shipments")).toBe(shipmentsBefore + 7 * 24);
    const ledgerAfter = Number(
      (
        await t.services.db
          .selectFrom("meter_entries")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(ledgerAfter).toBeGreaterThanOrEqual(ledgerBefore + 7 * 24);
  }, 300_000);

  it("works a backlog off in batches, and a worker keeps one pruning run queued", async () => {
    const old = t.clock.now().toISOString();
    await t.services.db
      .insertInto("webhook_deliveries")
      .values(
        Array.from({ length: 35 }, () => ({
          subscription_id: subscriptionId,
          message_id: `msg_${randomUUID()}`,
          trigger: "stream" as const,
          status: "failed" as const,
          first_event_id: 1,
          last_event_id: 1,
          event_count: 1,
          response_code: 500,
          response_excerpt: null,
          error_message: "refused",
          latency_ms: 5,
          created_at: old,
          completed_at: old,
        })),
      )
      .execute();
    t.clock.advance(3 * DAY);
    const counts = await pruneExpiredData(t.services, policy);
    expect(counts.webhook_deliveries).toBeGreaterThanOrEqual(35);
    expect(await count("webhook_deliveries")).toBe(0);

    await t.services.db.deleteFrom("jobs").where("kind", "=", PRUNE_JOB).execute();
    await schedulePruning(t.services);
    await schedulePruning(t.services);
    const queued = await t.services.db.selectFrom("jobs").selectAll().where("kind", "=", PRUNE_JOB).execute();
    expect(queued).toHaveLength(1);

    // A run queues the next one an interval later.
    await runPruning(t.services, policy);
    const next = await t.services.db
      .selectFrom("jobs")
      .selectAll()
      .where("kind", "=", PRUNE_JOB)
      .where("id", ">", queued[0]?.id ?? 0)
      .executeTakeFirstOrThrow();
    expect(next.run_at).toBe(new Date(t.clock.now().getTime() + HOUR).toISOString());
  });
});
