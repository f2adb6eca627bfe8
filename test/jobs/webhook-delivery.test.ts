import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebhookDispatcher } from "../../src/app.js";
import { appendEvents, type OutboxEvent } from "../../src/events/outbox.js";
import type { WebhookDispatcher } from "../../src/events/webhook-dispatcher.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { waitFor } from "../helpers/processes.js";
import { WebhookReceiver } from "../helpers/webhook-receiver.js";

const RETRY_BASE_MS = 10_000;
const TIMEOUT_MS = 300;

describe("webhook delivery to a real receiver on loopback", () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let merchant: TestAccount;
  let sequence = 0;

  beforeAll(async () => {
    t = await buildTestApp({
      config: { outboundAllowPrivateTargets: true, webhookRetryBaseMs: RETRY_BASE_MS, webhookTimeoutMs: TIMEOUT_MS },
    });
    dispatcher = createWebhookDispatcher(t.services);
  });
  afterAll(async () => {
    await dispatcher.stop();
    await t.close();
  });
  beforeEach(async () => {
    receiver = new WebhookReceiver();
    await receiver.listen();
    merchant = await createTestAccount(t.services);
  });
  afterEach(async () => {
    await receiver.close();
  });

  const call = (method: "GET" | "POST" | "PUT", url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `/api/v2${url}`, headers: merchant.auth, payload });
  const subscribe = async (body: Record<string, unknown> = {}) => {
    const response = await call("POST", "/subscriptions", {
      subscription_type: "shipment_tracking",
      url: receiver.url,
      auth_type: "hmac",
      ...body,
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: number; hmac_shared_secret: string };
  };
  const track = (count: number, account = merchant.accountId): Promise<void> => {
    const events: OutboxEvent[] = Array.from({ length: count }, () => {
      sequence += 1;
      return {
        accountId: account,
        mode: "test",
        stream: "shipment_tracking",
        payload: {
          shipment_id: 7,
          tracking_number: "9400100000000000000000",
          tracking_event_id: sequence,
          parcel_id: 9,
          code: "03",
          secondary_code: null,
          description: "Accepted at USPS Origin Facility",
          event_timestamp: "2026-01-15T14:00:00.000Z",
          city: "Columbus",
          state: "OH",
          postal_code: "43215",
          country: "US",
        },
        occurredAt: "2026-01-15T14:00:00.000Z",
      };
    });
    return appendEvents(t.services.db, events, t.clock);
  };
  const ids = (items: Record<string, unknown>[]) => items.map((item) => item.tracking_event_id as number);
  const subscription = async (id: number) => (await call("GET", `/subscriptions/${id}`)).json();

  it("posts eHub's payload, signed with Standard Webhooks headers that the stock library verifies", async () => {
    const { id, hmac_shared_secret: secret } = await subscribe();
    await track(2);
    expect(await dispatcher.drain()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [message] = receiver.received;
    if (!message) throw new Error("no message");
    expect(message.json).toMatchObject({ subscription_type: "shipment_tracking", status: "active" });
    expect(message.json.payload).toHaveLength(2);
    expect(Object.keys(message.json.payload[0] ?? {}).sort()).toEqual(
      [
        "shipment_id",
        "tracking_number",
        "tracking_event_id",
        "parcel_id",
        "code",
        "secondary_code",
        "description",
        "event_timestamp",
        "city",
        "state",
        "postal_code",
        "country",
      ].sort(),
    );
    const headers = message.headers as Record<string, string>;
    expect(headers["webhook-id"]).toMatch(/^msg_/);
    expect(new Webhook(secret).verify(message.body, headers)).toEqual(message.json);
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another key of 32 bytes........").toString("base64")}`).verify(
        message.body,
        headers,
      ),
    ).toThrow();

    const after = await subscription(id);
    expect(after).toMatchObject({
      error_count: 0,
      last_response_code: 200,
      last_response_message: "OK",
      last_pushed_at: t.clock.now().toISOString(),
    });
    expect(after.last_pushed_id).toBeGreaterThan(0);
    const deliveries = (await call("GET", `/subscriptions/${id}/deliveries`)).json().deliveries;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      subscription_id: id,
      request_id: headers["webhook-id"],
      trigger: "stream",
      status: "succeeded",
      event_count: 2,
      last_event_id: after.last_pushed_id,
      response_code: 200,
      response_excerpt: "ok",
      error_message: null,
    });
    expect(deliveries[0].latency_ms).toBeGreaterThanOrEqual(0);
    // Nothing new: nothing sent.
    expect(await dispatcher.drain()).toBe(0);
  });

  it("verifies a client-chosen secret with the library's raw format", async () => {
    const secret = "a secret the client picked";
    await subscribe({ hmac_shared_secret: secret.replaceAll(" ", "-") });
    await track(1);
    await dispatcher.drain();
    const [message] = receiver.received;
    expect(
      new Webhook(Buffer.from(secret.replaceAll(" ", "-")), { format: "raw" }).verify(
        message?.body ?? "",
        message?.headers as Record<string, string>,
      ),
    ).toMatchObject({ subscription_type: "shipment_tracking" });
  });

  it("sends Basic authentication for http_basic", async () => {
    await subscribe({ auth_type: "http_basic", http_username: "porter", http_password: "s3cret:pass" });
    await track(1);
    await dispatcher.drain();
    expect(receiver.received[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("porter:s3cret:pass").toString("base64")}`,
    );
    expect(receiver.received[0]?.headers["webhook-signature"]).toBeUndefined();
  });

  it("delivers in order, at most 100 events per message, only the subscription's own account and mode", async () => {
    await subscribe();
    const other = await createTestAccount(t.services);
    const first = sequence + 1;
    await track(120);
    await track(5, other.accountId);
    await appendEvents(
      t.services.db,
      [
        {
          accountId: merchant.accountId,
          mode: "production",
          stream: "shipment_tracking",
          payload: { tracking_event_id: -1 },
          occurredAt: "2026-01-15T14:00:00.000Z",
        },
      ],
      t.clock,
    );
    await track(130);
    expect(await dispatcher.drain()).toBe(3);
    expect(receiver.received.map((r) => r.json.payload.length)).toEqual([100, 100, 50]);
    expect(ids(receiver.items())).toEqual(
      Array.from({ length: 255 }, (_, i) => first + i).filter((n) => n < first + 120 || n >= first + 125),
    );
  });

  it("retries with backoff, disables after five consecutive failures, and resumes in order when re-enabled", async () => {
    const { id } = await subscribe();
    receiver.fallback = { status: 500, body: "receiver broke" };
    await track(3);
    const start = t.clock.now().getTime();
    expect(await dispatcher.drain()).toBe(1);
    let state = await subscription(id);
    expect(state).toMatchObject({
      status: "active",
      error_count: 1,
      last_response_code: 500,
      last_response_message: "Internal Server Error",
      last_pushed_id: null,
    });
    // Not before the backoff has passed, then the same message again.
    expect(await dispatcher.drain()).toBe(0);
    t.clock.advance(RETRY_BASE_MS);
    expect(await dispatcher.drain()).toBe(1);
    expect((await subscription(id)).error_count).toBe(2);
    for (const wait of [2, 4, 8]) {
      t.clock.advance(RETRY_BASE_MS * wait - 1);
      expect(await dispatcher.drain()).toBe(0);
      t.clock.advance(1);
      expect(await dispatcher.drain()).toBe(1);
    }
    state = await subscription(id);
    expect(state).toMatchObject({ status: "error_disabled", error_count: 5 });
    expect(t.clock.now().getTime() - start).toBe(RETRY_BASE_MS * 15);
    const messageIds = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    expect(messageIds.size).toBe(1);

    // Disabled: nothing more is sent, however long we wait, while events keep arriving.
    await track(2);
    t.clock.advance(RETRY_BASE_MS * 100);
    expect(await dispatcher.drain()).toBe(0);
    const deliveries = (await call("GET", `/subscriptions/${id}/deliveries?per_page=2`)).json();
    expect(deliveries.deliveries).toHaveLength(2);
    expect(deliveries.deliveries[0]).toMatchObject({
      status: "failed",
      response_code: 500,
      response_excerpt: "receiver broke",
    });

    receiver.fallback = { status: 204 };
    const reenabled = await call("PUT", `/subscriptions/${id}`, { status: "active" });
    expect(reenabled.json()).toMatchObject({ status: "active", error_count: 0 });
    expect(await dispatcher.drain()).toBe(2);
    const delivered = receiver.received.slice(5);
    expect(delivered[0]?.headers["webhook-id"]).toBe([...messageIds][0]);
    expect(delivered.map((r) => r.json.payload.length)).toEqual([3, 2]);
    expect(ids(delivered.flatMap((r) => r.json.payload))).toEqual(
      Array.from({ length: 5 }, (_, i) => sequence - 4 + i),
    );
    expect(await subscription(id)).toMatchObject({ error_count: 0, last_response_code: 204 });
  });

  it("counts a receiver that never answers as a failure after WEBHOOK_TIMEOUT_MS", async () => {
    const { id } = await subscribe();
    receiver.script.push("hang");
    await track(1);
    expect(await dispatcher.drain()).toBe(1);
    expect(await subscription(id)).toMatchObject({
      error_count: 1,
      last_response_code: null,
      last_response_message: `no answer within ${TIMEOUT_MS} ms`,
    });
    const [attempt] = (await call("GET", `/subscriptions/${id}/deliveries`)).json().deliveries;
    expect(attempt).toMatchObject({
      status: "failed",
      response_code: null,
      error_message: `no answer within ${TIMEOUT_MS} ms`,
    });
    t.clock.advance(RETRY_BASE_MS);
    expect(await dispatcher.drain()).toBe(1);
    expect(await subscription(id)).toMatchObject({ error_count: 0, last_response_code: 200 });
    expect(receiver.received).toHaveLength(2);
  });

  it("rewinds to a date and re-sends everything created since then", async () => {
    const { id } = await subscribe();
    const dayOne = t.clock.now();
    await track(2);
    t.clock.advance(2 * 86_400_000);
    await track(3);
    await dispatcher.drain();
    expect(receiver.items()).toHaveLength(5);
    const lastPushed = (await subscription(id)).last_pushed_id;

    // Back to the second day: only the three events created then come again.
    const secondDay = new Date(dayOne.getTime() + 86_400_000).toISOString().slice(0, 10);
    const rewound = await call("PUT", `/subscriptions/${id}`, { rewind_to_date: secondDay });
    expect(rewound.statusCode).toBe(200);
    expect(await dispatcher.drain()).toBe(1);
    expect(ids(receiver.received[1]?.json.payload ?? [])).toEqual(ids(receiver.items().slice(2, 5)));
    expect((await subscription(id)).last_pushed_id).toBe(lastPushed);

    // Back to the first day: all five.
    await call("PUT", `/subscriptions/${id}`, { rewind_to_date: dayOne.toISOString().slice(0, 10) });
    await dispatcher.drain();
    expect(ids(receiver.received.at(-1)?.json.payload ?? [])).toEqual(ids(receiver.items().slice(0, 5)));
  });

  it("re-sends one delivery on request, with the same webhook-id, without moving the cursor", async () => {
    const { id } = await subscribe();
    await track(2);
    await dispatcher.drain();
    const [original] = (await call("GET", `/subscriptions/${id}/deliveries`)).json().deliveries;
    const before = await subscription(id);

    const retried = await call("POST", `/subscriptions/${id}/deliveries/${original.id}/retry`);
    expect(retried.statusCode).toBe(201);
    expect(retried.json().delivery).toMatchObject({
      trigger: "manual_retry",
      status: "pending",
      request_id: original.request_id,
      event_count: 2,
      completed_at: null,
    });
    const worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    expect(await worker.drain()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.headers["webhook-id"]).toBe(original.request_id);
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
    const [latest] = (await call("GET", `/subscriptions/${id}/deliveries`)).json().deliveries;
    expect(latest).toMatchObject({ id: retried.json().delivery.id, status: "succeeded", response_code: 200 });
    expect(await subscription(id)).toEqual(before);
    expect((await call("POST", `/subscriptions/${id}/deliveries/999999/retry`)).json().error_code).toBe(
      "delivery.not_found",
    );
  });

  it("checks the address again at delivery: a target that became private is refused and nothing is sent", async () => {
    const { id } = await subscribe();
    await track(1);
    const strict = createWebhookDispatcher({
      ...t.services,
      config: { ...t.services.config, outboundAllowPrivateTargets: false },
    });
    expect(await strict.drain()).toBe(1);
    await strict.stop();
    expect(receiver.received).toHaveLength(0);
    const state = await subscription(id);
    expect(state.error_count).toBe(1);
    expect(state.last_response_message).toMatch(/private or reserved/);
  });

  it("counts a message that cannot be signed (a secret sealed with another key) as a failed attempt", async () => {
    const { id } = await subscribe();
    await t.services.db
      .updateTable("webhook_subscriptions")
      .set({ hmac_secret_sealed: "v1.AAAA.AAAA.AAAA" })
      .where("id", "=", id)
      .execute();
    await track(1);
    expect(await dispatcher.drain()).toBe(1);
    expect(receiver.received).toHaveLength(0);
    const state = await subscription(id);
    expect(state).toMatchObject({ error_count: 1, last_response_code: null });
    expect(state.last_response_message).toMatch(/^could not send: /);
    expect(await dispatcher.drain()).toBe(0);
    await t.app.inject({ method: "DELETE", url: `/api/v2/subscriptions/${id}`, headers: merchant.auth });
  });

  it("delivers payment events without a top-level status once they arrive", async () => {
    await subscribe({ subscription_type: "payment_status" });
    await track(1);
    await appendEvents(
      t.services.db,
      [
        {
          accountId: merchant.accountId,
          mode: "test",
          stream: "payment_status",
          payload: { payment_transaction_id: 11, status: "accepted", amount: 12.5 },
          occurredAt: "2026-01-15T14:00:00.000Z",
        },
      ],
      t.clock,
    );
    expect(await dispatcher.drain()).toBe(1);
    expect(receiver.received[0]?.json).toEqual({
      subscription_type: "payment_status",
      payload: [{ payment_transaction_id: 11, status: "accepted", amount: 12.5 }],
    });
  });

  it("stops delivering once a subscription is deleted", async () => {
    const { id } = await subscribe();
    await t.app.inject({ method: "DELETE", url: `/api/v2/subscriptions/${id}`, headers: merchant.auth });
    await track(1);
    expect(await dispatcher.drain()).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it("keeps delivering to other subscriptions while one receiver hangs (a running worker's lanes)", async () => {
    const hanging = new WebhookReceiver();
    hanging.fallback = "hang";
    await hanging.listen();
    const running = createWebhookDispatcher({
      ...t.services,
      config: { ...t.services.config, webhookTimeoutMs: 60_000, webhookConcurrency: 2, jobPollMs: 20 },
    });
    try {
      await subscribe({ url: hanging.url });
      await subscribe();
      running.start();
      await track(1);
      await waitFor(
        () => "the hanging receiver to hold a request",
        () => (hanging.inFlight === 1 ? true : undefined),
      );
      await track(2);
      await waitFor(
        () => `the other receiver to get the later events (it has ${receiver.items().length})`,
        () => (receiver.items().length === 3 ? true : undefined),
      );
      expect(hanging.inFlight).toBe(1);
      expect(ids(receiver.items())).toEqual([sequence - 2, sequence - 1, sequence]);
    } finally {
      await hanging.close();
      await running.stop();
    }
  });
});
