import { beforeAll, describe, expect, it } from "vitest";
import { appendEvents } from "../../src/events/outbox.js";
import { apiCaller, createTestAccount, liveAuth, type TestAccount, tenantsApp } from "../helpers/app.js";

const HOOK_URL = "https://hooks.example.com/porter";
const SUBSCRIPTION_KEYS = [
  "id",
  "subscription_type",
  "status",
  "url",
  "payload_format",
  "auth_type",
  "hmac_shared_secret",
  "last_pushed_at",
  "last_pushed_id",
  "error_count",
  "last_response_code",
  "last_response_message",
].sort();

describe("webhook subscriptions (private targets refused, as in production)", () => {
  const s = tenantsApp();

  const call = apiCaller(() => s.t);
  const subscribe = (auth: TestAccount["auth"], body: Record<string, unknown> = {}, prefix = "") =>
    call(auth, "POST", `${prefix}/subscriptions`, {
      subscription_type: "shipment_tracking",
      status: "active",
      url: HOOK_URL,
      payload_format: "json",
      auth_type: "hmac",
      ...body,
    });

  it("creates a subscription (201, bare object, every documented key) and shows a generated secret once", async () => {
    const created = await subscribe(s.merchant.auth);
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(Object.keys(body).sort()).toEqual(SUBSCRIPTION_KEYS);
    expect(body).toMatchObject({
      subscription_type: "shipment_tracking",
      status: "active",
      url: HOOK_URL,
      payload_format: "json",
      auth_type: "hmac",
      last_pushed_at: null,
      last_pushed_id: null,
      error_count: 0,
      last_response_code: null,
      last_response_message: null,
    });
    expect(body.hmac_shared_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const fetched = (await call(s.merchant.auth, "GET", `/subscriptions/${body.id}`)).json();
    expect(fetched.hmac_shared_secret).toBe(`****${body.hmac_shared_secret.slice(-4)}`);
    expect(Object.keys(fetched).sort()).toEqual(SUBSCRIPTION_KEYS);

    const stored = await s.t.services.db
      .selectFrom("webhook_subscriptions")
      .selectAll()
      .where("id", "=", body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(body.hmac_shared_secret.slice(6, 30));
    expect(s.t.services.secrets.open(stored.hmac_secret_sealed as string)).toBe(body.hmac_shared_secret);
  });

  it("echoes a secret the client chose, and takes eHub's capitalised auth types", async () => {
    const secret = "my-own-shared-secret-123";
    const created = await subscribe(s.merchant.auth, { hmac_shared_secret: secret, auth_type: "HMAC" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ auth_type: "hmac", hmac_shared_secret: secret });
    const shortSecret = await subscribe(s.merchant.auth, { hmac_shared_secret: "short" });
    expect(shortSecret.statusCode).toBe(400);
    expect(shortSecret.json().error_code).toBe("request.invalid");
  });

  it("takes http_basic with a user name and password, sealed, never shown", async () => {
    const missing = await subscribe(s.merchant.auth, { auth_type: "http_basic", http_username: "porter" });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ status: "error", error_code: "subscription.credentials_missing" });

    const created = await subscribe(s.merchant.auth, {
      auth_type: "HTTP_BASIC",
      http_username: "porter",
      http_password: "correct horse battery",
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ auth_type: "http_basic", hmac_shared_secret: null });
    expect(JSON.stringify(body)).not.toContain("correct horse");
    const stored = await s.t.services.db
      .selectFrom("webhook_subscriptions")
      .select("http_basic_sealed")
      .where("id", "=", body.id)
      .executeTakeFirstOrThrow();
    expect(stored.http_basic_sealed).not.toContain("correct horse");
  });

  it.each([
    ["plain HTTP", "http://hooks.example.com/porter"],
    ["a loopback address", "https://127.0.0.1/hooks"],
    ["localhost", "https://localhost:8443/hooks"],
    ["a private network", "https://10.1.2.3/hooks"],
    ["the cloud metadata address", "https://169.254.169.254/latest"],
    ["IPv6 loopback", "https://[::1]/hooks"],
    ["an IPv4-mapped private address", "https://[::ffff:192.168.1.1]/hooks"],
    ["credentials in the URL", "https://user:pass@hooks.example.com/"],
    ["not a URL", "hooks"],
  ])("refuses %s (422 subscription.target_refused)", async (_name, url) => {
    const response = await subscribe(s.merchant.auth, { url });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: "error", error_code: "subscription.target_refused" });
  });

  it("refuses unknown subscription types and payload formats (400)", async () => {
    for (const body of [{ subscription_type: "orders" }, { payload_format: "xml" }, { auth_type: "oauth" }]) {
      const response = await subscribe(s.merchant.auth, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error_code).toBe("request.invalid");
    }
  });

  it("lists with filters and pagination", async () => {
    const account = await createTestAccount(s.t.services);
    for (let i = 0; i < 3; i += 1) await subscribe(account.auth);
    await subscribe(account.auth, { subscription_type: "payment_status" });
    const all = await call(account.auth, "GET", "/subscriptions");
    expect(all.statusCode).toBe(200);
    expect(all.json().subscriptions).toHaveLength(4);
    expect(all.headers["x-total-count"]).toBe("4");
    for (const subscription of all.json().subscriptions) {
      expect(Object.keys(subscription).sort()).toEqual(SUBSCRIPTION_KEYS);
      expect(subscription.hmac_shared_secret).toMatch(/^\*{4}.{4}$/);
    }
    const payments = await call(account.auth, "GET", "/subscriptions?subscription_type=payment_status");
    expect(payments.json().subscriptions.map((s: { subscription_type: string }) => s.subscription_type)).toEqual([
      "payment_status",
    ]);
    expect((await call(account.auth, "GET", "/subscriptions?status=error_disabled")).json().subscriptions).toEqual([]);
    expect((await call(account.auth, "GET", "/subscriptions?status=all")).json().subscriptions).toHaveLength(4);
    expect((await call(account.auth, "GET", "/subscriptions?status=paused")).statusCode).toBe(400);
    const page2 = await call(account.auth, "GET", "/subscriptions?page=2&per_page=3");
    expect(page2.json().subscriptions).toHaveLength(1);
    expect(page2.headers.link).toContain('rel="prev"');
  });

  it("updates any field, re-enables a disabled subscription and shows a newly set secret once", async () => {
    const { id } = (await subscribe(s.merchant.auth)).json();
    await s.t.services.db
      .updateTable("webhook_subscriptions")
      .set({ status: "error_disabled", error_count: 5 })
      .where("id", "=", id)
      .execute();
    const updated = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, {
      status: "active",
      url: "https://hooks.example.com/v2",
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id, status: "active", error_count: 0, url: "https://hooks.example.com/v2" });
    expect(updated.json().hmac_shared_secret).toMatch(/^\*{4}/);

    const rotated = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, {
      hmac_shared_secret: "a-brand-new-secret-value",
    });
    expect(rotated.json().hmac_shared_secret).toBe("a-brand-new-secret-value");
    expect((await call(s.merchant.auth, "GET", `/subscriptions/${id}`)).json().hmac_shared_secret).toBe("****alue");

    const basic = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, {
      auth_type: "http_basic",
      http_username: "u",
      http_password: "p",
    });
    expect(basic.json()).toMatchObject({ auth_type: "http_basic", hmac_shared_secret: null });
    const backToHmac = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, { auth_type: "hmac" });
    expect(backToHmac.json().hmac_shared_secret).toMatch(/^whsec_/);

    const refused = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, { url: "https://192.168.0.10/x" });
    expect(refused.statusCode).toBe(422);
    const retyped = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, { subscription_type: "payment_status" });
    expect(retyped.statusCode).toBe(422);
    expect(retyped.json().error_code).toBe("subscription.type_unchangeable");
  });

  it("rewinds at most 30 days back and never into the future", async () => {
    const { id } = (await subscribe(s.merchant.auth)).json();
    const now = s.t.clock.now().getTime();
    const day = (offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
    for (const date of [day(-31), day(2)]) {
      const response = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, { rewind_to_date: date });
      expect(response.statusCode).toBe(422);
      expect(response.json().error_code).toBe("subscription.rewind_out_of_range");
    }
    expect((await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, { rewind_to_date: day(-29) })).statusCode).toBe(
      200,
    );
    const garbled = await call(s.merchant.auth, "PUT", `/subscriptions/${id}`, { rewind_to_date: "yesterday" });
    expect(garbled.statusCode).toBe(400);
  });

  it("deletes (204); the subscription is gone from reads and lists", async () => {
    const { id } = (await subscribe(s.merchant.auth)).json();
    const deleted = await call(s.merchant.auth, "DELETE", `/subscriptions/${id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    expect((await call(s.merchant.auth, "GET", `/subscriptions/${id}`)).json().error_code).toBe(
      "subscription.not_found",
    );
    const listed = (await call(s.merchant.auth, "GET", "/subscriptions")).json().subscriptions;
    expect(listed.map((s: { id: number }) => s.id)).not.toContain(id);
    expect((await call(s.merchant.auth, "DELETE", `/subscriptions/${id}`)).statusCode).toBe(404);
  });

  describe("walls between tenants", () => {
    let mine: number;
    beforeAll(async () => {
      mine = (await subscribe(s.merchant.auth)).json().id;
    });

    it.each([
      ["GET", ""],
      ["PUT", ""],
      ["DELETE", ""],
      ["GET", "/deliveries"],
      ["POST", "/deliveries/1/retry"],
    ] as const)("another account gets 404 for %s /subscriptions/{id}%s", async (method, tail) => {
      const response = await call(
        s.other.auth,
        method,
        `/subscriptions/${mine}${tail}`,
        method === "PUT" ? {} : undefined,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json().error_code).toBe("subscription.not_found");
    });

    it("keeps test and production subscriptions apart", async () => {
      expect((await call(liveAuth(s.merchant), "GET", `/subscriptions/${mine}`)).statusCode).toBe(404);
      const ids = (await call(liveAuth(s.merchant), "GET", "/subscriptions"))
        .json()
        .subscriptions.map((s: { id: number }) => s.id);
      expect(ids).not.toContain(mine);
    });

    it("a parent subscribes for its child only through the child form", async () => {
      const forChild = await subscribe(s.merchant.auth, {}, `/customers/${s.child.accountId}`);
      expect(forChild.statusCode).toBe(201);
      const childId = forChild.json().id;
      expect((await call(s.child.auth, "GET", `/subscriptions/${childId}`)).statusCode).toBe(200);
      expect((await call(s.merchant.auth, "GET", `/subscriptions/${childId}`)).statusCode).toBe(404);
      const parentList = (await call(s.merchant.auth, "GET", "/subscriptions")).json().subscriptions;
      expect(parentList.map((s: { id: number }) => s.id)).not.toContain(childId);
      const childForm = await call(s.merchant.auth, "GET", `/customers/${s.child.accountId}/subscriptions/${childId}`);
      expect(childForm.statusCode).toBe(200);
      expect(
        (await call(s.merchant.auth, "GET", `/customers/${s.other.accountId}/subscriptions`)).json().error_code,
      ).toBe("customer.not_found");
      expect((await call(s.child.auth, "GET", `/customers/${s.merchant.accountId}/subscriptions`)).statusCode).toBe(
        404,
      );
    });
  });

  describe("the events pull API", () => {
    const tracking = (accountId: number, n: number, mode: "test" | "production" = "test") => ({
      accountId,
      mode,
      stream: "shipment_tracking" as const,
      payload: { tracking_event_id: n, code: "03" },
      occurredAt: "2026-01-15T12:00:00.000Z",
    });
    let pullAccount: TestAccount;
    let pullChild: TestAccount;

    beforeAll(async () => {
      pullAccount = await createTestAccount(s.t.services);
      pullChild = await createTestAccount(s.t.services, { parentId: pullAccount.accountId });
      await appendEvents(
        s.t.services.db,
        [
          tracking(pullAccount.accountId, 1),
          tracking(s.other.accountId, 2),
          tracking(pullAccount.accountId, 3, "production"),
          tracking(pullChild.accountId, 4),
          {
            ...tracking(pullAccount.accountId, 5),
            stream: "payment_status",
            payload: { payment_transaction_id: 5, status: "accepted" },
          },
          tracking(pullAccount.accountId, 6),
        ],
        s.t.clock,
      );
    });

    it("pages the caller's own events of its key's mode by cursor, oldest first", async () => {
      const first = await call(pullAccount.auth, "GET", "/events?after=0&per_page=2");
      expect(first.statusCode).toBe(200);
      const page1 = first.json();
      expect(page1.events.map((e: { payload: Record<string, number> }) => Object.values(e.payload)[0])).toEqual([1, 5]);
      expect(page1.has_more).toBe(true);
      expect(page1.events[0]).toMatchObject({
        stream: "shipment_tracking",
        occurred_at: "2026-01-15T12:00:00.000Z",
        created_at: s.t.clock.now().toISOString(),
        payload: { tracking_event_id: 1, code: "03" },
      });
      const page2 = (await call(pullAccount.auth, "GET", `/events?after=${page1.next_after}&per_page=2`)).json();
      expect(page2.events.map((e: { payload: { tracking_event_id: number } }) => e.payload.tracking_event_id)).toEqual([
        6,
      ]);
      expect(page2.has_more).toBe(false);
      const done = (await call(pullAccount.auth, "GET", `/events?after=${page2.next_after}`)).json();
      expect(done).toEqual({ events: [], next_after: page2.next_after, has_more: false });
    });

    it("filters by stream, separates modes and shows a child's events only in the child form", async () => {
      const tracked = (await call(pullAccount.auth, "GET", "/events?stream=shipment_tracking")).json().events;
      expect(tracked.map((e: { payload: { tracking_event_id: number } }) => e.payload.tracking_event_id)).toEqual([
        1, 6,
      ]);
      const production = (await call(liveAuth(pullAccount), "GET", "/events")).json().events;
      expect(production.map((e: { payload: { tracking_event_id: number } }) => e.payload.tracking_event_id)).toEqual([
        3,
      ]);
      const childForm = (await call(pullAccount.auth, "GET", `/customers/${pullChild.accountId}/events`)).json().events;
      expect(childForm.map((e: { payload: { tracking_event_id: number } }) => e.payload.tracking_event_id)).toEqual([
        4,
      ]);
      const bad = await call(pullAccount.auth, "GET", "/events?after=-1");
      expect(bad.statusCode).toBe(400);
    });
  });
});
