import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestUser, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { everythingStored } from "../helpers/stored-bytes.js";

describe("secrets never rest in clear text, idempotent or not", () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp({ config: { outboundAllowPrivateTargets: true } });
    owner = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const post = (url: string, key: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url, headers: { ...owner.auth, "idempotency-key": key }, payload });

  it("stores a new customer's keys nowhere; a replay shows them as shown once", async () => {
    const body = { customer: { name: "Secret Co", user: { email: "secret-co@secrets.test" } } };
    const first = await post("/api/v2/customers", "customer-keys", body);
    expect(first.statusCode).toBe(201);
    const keys = first.json().api_keys as { test: string; production: string };
    expect(keys.test).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);

    const stored = await everythingStored(t.database);
    expect(stored).toContain("secret-co@secrets.test");
    expect(stored).not.toContain(keys.test);
    expect(stored).not.toContain(keys.production);

    const replay = await post("/api/v2/customers", "customer-keys", body);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().customer).toEqual(first.json().customer);
    expect(replay.json().api_keys).toEqual({
      test: `shown once: pk_test_…${keys.test.slice(-4)}`,
      production: `shown once: pk_live_…${keys.production.slice(-4)}`,
    });
  });

  it("stores rotated keys nowhere; a replay shows them as shown once", async () => {
    const member = await addTestUser(t.services, owner.accountId, ["API"]);
    const url = `/api/v2/users/${member.userId}/keys/rotate`;
    const first = await post(url, "rotate-member");
    expect(first.statusCode).toBe(201);
    // A test key rotates the test key only.
    const keys = first.json().api_keys as { test: string };
    expect(keys.test).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);

    const stored = await everythingStored(t.database);
    expect(stored).not.toContain(keys.test);

    const replay = await post(url, "rotate-member");
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual({
      user: first.json().user,
      api_keys: { test: `shown once: pk_test_…${keys.test.slice(-4)}` },
    });
  });

  it("keeps carrier credentials sealed and leaves no plain hash of the request that carried them", async () => {
    const password = `pw-${randomBytes(12).toString("hex")}`;
    const url = "/api/v2/carrier_accounts";
    const body = { carrier_account: { carrier_code: "ups", credentials: { account_number: "A1B2C3", password } } };
    const response = await post(url, "connect-ups", body);
    expect(response.statusCode).toBe(201);
    expect(response.body).not.toContain(password);

    const stored = await everythingStored(t.database);
    expect(stored).not.toContain(password);
    // The old fingerprint, plain SHA-256 of the request, would let anyone test guesses offline.
    const plainHash = createHash("sha256")
      .update(`POST ${url}\n${JSON.stringify(body)}`)
      .digest("hex");
    expect(stored).not.toContain(plainHash);
    const row = await t.services.db
      .selectFrom("idempotency_keys")
      .select("request_hash")
      .where("idempotency_key", "=", "connect-ups")
      .executeTakeFirstOrThrow();
    expect(row.request_hash).toMatch(/^[0-9a-f]{64}$/);

    const replay = await post(url, "connect-ups", body);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    const reused = await post(url, "connect-ups", {
      carrier_account: { ...body.carrier_account, credentials: { account_number: "A1B2C3", password: "guess" } },
    });
    expect(reused.json().error_code).toBe("idempotency.key_reused");
  });

  it("stores a webhook signing secret nowhere in clear; a replay shows it as shown once", async () => {
    const secret = `whsec-${randomBytes(16).toString("hex")}`;
    const body = {
      subscription_type: "shipment_tracking",
      url: "http://127.0.0.1:9/hooks",
      auth_type: "hmac",
      hmac_shared_secret: secret,
    };
    const first = await post("/api/v2/subscriptions", "subscribe", body);
    expect(first.statusCode).toBe(201);
    expect(first.json().hmac_shared_secret).toBe(secret);
    expect(await everythingStored(t.database)).not.toContain(secret);

    const replay = await post("/api/v2/subscriptions", "subscribe", body);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual({ ...first.json(), hmac_shared_secret: `shown once: ****${secret.slice(-4)}` });
  });
});
