import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWebhookDispatcher, openServices } from "../../src/app.js";
import type { AppServices } from "../../src/app-services.js";
import { ManualClock } from "../../src/clock.js";
import { loadConfig } from "../../src/config.js";
import { createAccount } from "../../src/domain/accounts/create-account.js";
import { createSubscription } from "../../src/domain/subscriptions/create-subscription.js";
import { appendEvents } from "../../src/events/outbox.js";
import { OutboundPolicy } from "../../src/net/outbound-guard.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import {
  exited,
  PROCESS_TEST_TIMEOUT_MS,
  type RunningProcess,
  startProcess,
  stopProcess,
  waitFor,
  waitForProcess,
} from "../helpers/processes.js";
import { WebhookReceiver } from "../helpers/webhook-receiver.js";

/** Workers must become ready, then deliver for up to 90 s. */
const PROCESS_TEST_MS = PROCESS_TEST_TIMEOUT_MS + 90_000;

/** Two real worker processes against one database, delivering to one loopback receiver. */
describe("webhook worker processes", () => {
  let testDb: TestDatabase;
  let services: AppServices;
  let clock: ManualClock;
  let receiver: WebhookReceiver;
  let dataDir: string;
  const workers: RunningProcess[] = [];
  const output = () => workers.map((worker) => worker.output()).join(" | ");
  const env: Record<string, string> = {};

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-webhook-workers-"));
    Object.assign(env, testDb.env, {
      SECRET_KEY: randomBytes(32).toString("hex"),
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_CONCURRENCY: "1",
      JOB_POLL_MS: "20",
    });
    // Real time at first, so the children (system clock) find the subscriptions due.
    clock = new ManualClock(new Date());
    services = await openServices(loadConfig(env), clock);
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) await stopProcess(worker);
    await receiver?.close();
  });
  afterAll(async () => {
    await services.database.close();
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function startWorker(extraEnv: Record<string, string> = {}): RunningProcess {
    const worker = startProcess(["test/fixtures/webhook-worker.ts"], { ...env, ...extraEnv });
    workers.push(worker);
    return worker;
  }

  async function subscribedAccount(url: string): Promise<{ accountId: number; subscriptionId: number }> {
    const account = await createAccount(services, { name: "Webhook workers" });
    const { row } = await createSubscription(
      services,
      { accountId: account.id, mode: "test" },
      { subscriptionType: "shipment_tracking", url, authType: "hmac" },
      new OutboundPolicy(true),
    );
    return { accountId: account.id, subscriptionId: row.id };
  }

  const track = (accountId: number, events: number) =>
    appendEvents(
      services.db,
      Array.from({ length: events }, (_, n) => ({
        accountId,
        mode: "test" as const,
        stream: "shipment_tracking" as const,
        payload: { tracking_event_id: n + 1 },
        occurredAt: clock.now().toISOString(),
      })),
      clock,
    );

  const started = () =>
    Promise.all(
      workers.map((worker) =>
        waitForProcess(worker, "the worker to start", () => (worker.output().includes("started") ? true : undefined)),
      ),
    );

  const cursorOf = async (id: number) =>
    services.db
      .selectFrom("webhook_subscriptions")
      .select(["cursor_event_id", "last_pushed_id", "locked_by", "locked_until", "batch_message_id"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it(
    "two workers never deliver one subscription's batch at once, and each event arrives once, in order",
    async () => {
      receiver = new WebhookReceiver();
      await receiver.listen();
      receiver.answerDelayMs = 40;
      const subscriptions = await Promise.all(["/a", "/b", "/c"].map((p) => subscribedAccount(receiver.urlFor(p))));
      startWorker();
      startWorker();
      await started();
      for (const { accountId } of subscriptions) await track(accountId, 300);
      await waitFor(
        () => `900 events to arrive (got ${receiver.items().length}; workers said: ${output()})`,
        () => (receiver.items().length >= 900 ? true : undefined),
        { timeoutMs: 90_000 },
      );
      for (const p of ["/a", "/b", "/c"]) {
        const items = receiver.received.filter((r) => r.path === p).flatMap((r) => r.json.payload);
        expect(items.map((item) => item.tracking_event_id)).toEqual(Array.from({ length: 300 }, (_, n) => n + 1));
        expect(receiver.maxInFlightByPath.get(p)).toBe(1);
      }
      // Both processes were delivering at the same time (each delivers one subscription at a time).
      expect(receiver.maxInFlight).toBe(2);
      for (const { subscriptionId } of subscriptions) {
        await waitFor(
          () => `subscription ${subscriptionId}'s cursor to pass its last event`,
          async () => {
            const state = await cursorOf(subscriptionId);
            return state.locked_by === null && state.batch_message_id === null ? true : undefined;
          },
        );
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    "a worker killed mid-delivery loses nothing: once its lease ends, another sends the same message",
    async () => {
      receiver = new WebhookReceiver();
      await receiver.listen();
      receiver.script.push("hang");
      const { accountId, subscriptionId } = await subscribedAccount(receiver.urlFor("/killed"));
      await track(accountId, 150);
      const worker = startWorker({ WEBHOOK_TIMEOUT_MS: "120000" });
      await waitForProcess(worker, "the child to post the first batch", () =>
        receiver.received.length === 1 ? true : undefined,
      );
      const { child } = worker;
      child.kill("SIGKILL");
      expect(await exited(child)).toEqual({ code: null, signal: "SIGKILL" });

      const orphaned = await cursorOf(subscriptionId);
      expect(orphaned.locked_by).toMatch(/^webhooks-/);
      expect(orphaned.batch_message_id).toBe(receiver.received[0]?.headers["webhook-id"]);
      const leaseEnd = new Date(orphaned.locked_until as string).getTime();

      const rescuer = createWebhookDispatcher(services);
      clock.set(new Date(leaseEnd));
      expect(await rescuer.deliverOne()).toBe(false);
      clock.set(new Date(leaseEnd + 1));
      expect(await rescuer.drain()).toBe(2);
      await rescuer.stop();

      const [first, again, rest] = receiver.received;
      expect(again?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
      expect(again?.body).toBe(first?.body);
      expect(rest?.headers["webhook-id"]).not.toBe(first?.headers["webhook-id"]);
      const delivered = [again, rest].flatMap((r) => r?.json.payload ?? []);
      expect(delivered.map((item) => item.tracking_event_id)).toEqual(Array.from({ length: 150 }, (_, n) => n + 1));
      const after = await cursorOf(subscriptionId);
      expect(after).toMatchObject({ locked_by: null, batch_message_id: null });
      expect(after.last_pushed_id).toBe(after.cursor_event_id);
    },
    PROCESS_TEST_MS,
  );
});
