import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestUser, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { rateShipment } from "../helpers/shipments.js";

/** Long enough for the key holder cache to forget a key, so a changed role is read again. */
const KEY_CACHE_MS = 5001;

describe("an idempotent replay is only for a caller allowed to make the request", () => {
  let t: TestApp;
  let owner: TestAccount;
  let apiOnly: TestAccount;
  let target: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createTestAccount(t.services);
    apiOnly = await addTestUser(t.services, owner.accountId, ["API"]);
    target = await addTestUser(t.services, owner.accountId, ["API"]);
  });
  afterAll(() => t.close());

  const rotate = (caller: TestAccount, userId: number, key: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/v2/users/${userId}/keys/rotate`,
      headers: { ...caller.auth, "idempotency-key": key },
    });
  const ping = (key: string) =>
    t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: { authorization: `Bearer ${key}` } });

  it("refuses an API-role user who repeats an Owner's key rotation: 403, no replay, no keys", async () => {
    const first = await rotate(owner, target.userId, "rotate-target");
    expect(first.statusCode).toBe(201);
    const ownersKeys = first.json().api_keys;

    const replayAttempt = await rotate(apiOnly, target.userId, "rotate-target");
    expect(replayAttempt.statusCode).toBe(403);
    expect(replayAttempt.json()).toMatchObject({ status: "error", error_code: "errors.forbidden" });
    expect(replayAttempt.headers["idempotent-replayed"]).toBeUndefined();
    expect(replayAttempt.body).not.toContain(ownersKeys.test.slice(-4));
    // The keys the Owner got are still the live ones: nothing ran again.
    expect((await ping(ownersKeys.test)).statusCode).toBe(200);
  });

  it("checks the role again on every replay: an Owner demoted since hears 403", async () => {
    const demoted = await addTestUser(t.services, owner.accountId, ["Owner", "API"]);
    const other = await addTestUser(t.services, owner.accountId, ["API"]);
    expect((await rotate(demoted, other.userId, "before-demotion")).statusCode).toBe(201);
    const replay = await rotate(demoted, other.userId, "before-demotion");
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");

    await t.services.db.updateTable("users").set({ roles: "API" }).where("id", "=", demoted.userId).execute();
    t.clock.advance(KEY_CACHE_MS);
    const after = await rotate(demoted, other.userId, "before-demotion");
    expect(after.statusCode).toBe(403);
    expect(after.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("keeps stored answers per user: another Owner of the account with the same key makes its own request", async () => {
    const colleague = await addTestUser(t.services, owner.accountId, ["Owner", "API"]);
    const create = (caller: TestAccount, name: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v2/customers",
        headers: { ...caller.auth, "idempotency-key": "same-key-two-users" },
        payload: { customer: { name, user: { email: `${name}@per-user.test` } } },
      });
    const mine = await create(owner, "mine");
    const theirs = await create(colleague, "mine");
    expect(mine.statusCode).toBe(201);
    // Not the Owner's answer replayed: the colleague's own run (the email is taken by then).
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(theirs.json().error_code).toBe("user.email_taken");
  });
});

describe("an idempotent replay on the child form /customers/{customer_id}/… checks the child scope first", () => {
  let t: TestApp;
  let parent: TestAccount;
  let child: TestAccount;
  let otherParent: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp({ config: { outboundAllowPrivateTargets: true } });
    parent = await createTestAccount(t.services);
    child = await createTestAccount(t.services, { parentId: parent.accountId });
    otherParent = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const shipBody = () => ({ shipment: { ...rateShipment().shipment, service_id: 1172, label_format: "pdf" } });
  /** Every POST and PUT of the child form, with a body that passes validation (so its answer is stored). */
  const childWrites = (childId: number) =>
    [
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/carrier_accounts`,
        body: { carrier_account: { carrier_code: "usps" } },
      },
      { method: "POST", url: `/api/v2/customers/${childId}/rates`, body: rateShipment() },
      { method: "POST", url: `/api/v2/customers/${childId}/shipments/ship`, body: shipBody() },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/shipments/ship_multiple`,
        body: { shipments: [shipBody().shipment] },
      },
      { method: "POST", url: `/api/v2/customers/${childId}/shipments/batches`, body: { shipments_ids: [999999] } },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/shipments/batches/daily`,
        body: { shipment_date: "2026-01-15" },
      },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/subscriptions`,
        body: { subscription_type: "shipment_tracking", url: "http://127.0.0.1:9/hooks" },
      },
      { method: "PUT", url: `/api/v2/customers/${childId}/subscriptions/999999`, body: { status: "active" } },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/subscriptions/999999/deliveries/999999/retry`,
        body: undefined,
      },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/shipments/999999/tracking_events`,
        body: { code: 80, event_timestamp: "2026-01-15T15:00:00.000Z" },
      },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/tracking_events`,
        body: { code: 80, event_timestamp: "2026-01-15T15:00:00.000Z", shipment_ids: [999999] },
      },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/sandbox/shipments/999999/advance`,
        body: { to: "in_transit" },
      },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/sandbox/shipments/999999/adjust`,
        body: { adj_weight: 70 },
      },
      { method: "PUT", url: `/api/v2/customers/${childId}/shipments/999999/cancel`, body: undefined },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/order_stores`,
        body: { order_store: { name: "Shop", service_type: "custom" } },
      },
      {
        method: "PUT",
        url: `/api/v2/customers/${childId}/order_stores/999999`,
        body: { order_store: { name: "Shop" } },
      },
      { method: "POST", url: `/api/v2/customers/${childId}/order_stores/999999/sync`, body: undefined },
      {
        method: "POST",
        url: `/api/v2/customers/${childId}/order_stores/999999/orders`,
        body: { orders: [{ order_number: "UA1" }] },
      },
      {
        method: "PUT",
        url: `/api/v2/customers/${childId}/order_stores/999999/orders/UA1`,
        body: { order: { payment_status: "paid" } },
      },
      ...["shipments", "shipment"].flatMap((noun) => [
        {
          method: "POST" as const,
          url: `/api/v2/customers/${childId}/order_stores/999999/orders/UA1/${noun}`,
          body: { shipping_cost: 5, ship_date: "2026-01-15", tracking_number: "1Z", carrier: "ups", service: "ground" },
        },
        {
          method: "POST" as const,
          url: `/api/v2/customers/${childId}/order_stores/999999/orders/UA1/${noun}/cancel`,
          body: undefined,
        },
      ]),
    ] as const;

  const send = (caller: TestAccount, write: ReturnType<typeof childWrites>[number], key: string) =>
    t.app.inject({
      method: write.method,
      url: write.url,
      headers: { ...caller.auth, "idempotency-key": key },
      ...(write.body === undefined ? {} : { payload: write.body }),
    });

  it("covers every POST and PUT route of the child form", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/api/v2/openapi.json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths)
      .filter(([path]) => path.startsWith("/api/v2/customers/{customer_id}/"))
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => method === "post" || method === "put")
          .map(
            (method) =>
              `${method.toUpperCase()} ${path.replace(/\{(id|delivery_id|order_store_id)\}/g, "999999").replace("{order_number}", "UA1")}`,
          ),
      );
    const tested = childWrites(0).map(
      (w) => `${w.method} ${w.url.replace("/customers/0/", "/customers/{customer_id}/")}`,
    );
    // A new POST or PUT on the child form belongs in `childWrites`, with a body that passes validation.
    expect(tested.sort()).toEqual(documented.sort());
  });

  it("answers 404 customer.not_found, not the stored answer, once the child is no longer the caller's", async () => {
    for (const [index, write] of childWrites(child.accountId).entries()) {
      const key = `child-write-${index}`;
      const first = await send(parent, write, key);
      expect(first.statusCode, write.url).toBeLessThan(500);
      const replay = await send(parent, write, key);
      expect(replay.headers["idempotent-replayed"], write.url).toBe("true");

      await t.services.db
        .updateTable("accounts")
        .set({ parent_id: otherParent.accountId })
        .where("id", "=", child.accountId)
        .execute();
      try {
        const moved = await send(parent, write, key);
        expect(moved.statusCode, write.url).toBe(404);
        expect(moved.json().error_code, write.url).toBe("customer.not_found");
        expect(moved.headers["idempotent-replayed"], write.url).toBeUndefined();
      } finally {
        await t.services.db
          .updateTable("accounts")
          .set({ parent_id: parent.accountId })
          .where("id", "=", child.accountId)
          .execute();
      }
    }
  });

  it("answers another parent 404 for the same key and path, never the first parent's answer", async () => {
    for (const [index, write] of childWrites(child.accountId).entries()) {
      const key = `stranger-${index}`;
      expect((await send(parent, write, key)).statusCode, write.url).toBeLessThan(500);
      const stranger = await send(otherParent, write, key);
      expect(stranger.statusCode, write.url).toBe(404);
      expect(stranger.json().error_code, write.url).toBe("customer.not_found");
      expect(stranger.headers["idempotent-replayed"], write.url).toBeUndefined();
    }
  });
});
