import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

describe("Idempotency-Key on POST /customers", () => {
  let t: TestApp;
  let account: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    account = await createTestAccount(t.services);
    other = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const post = (auth: TestAccount, key: string, name: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/v2/customers",
      headers: { ...auth.auth, "idempotency-key": key },
      payload: { customer: { name, user: { email: `${name.toLowerCase().replaceAll(" ", "-")}@idem.test` } } },
    });

  const childCount = async (parentId: number) =>
    (await t.services.db.selectFrom("accounts").select("id").where("parent_id", "=", parentId).execute()).length;

  /** The answer as a replay shows it: the API keys it carried were shown once. */
  const withKeysShownOnce = (body: string) => {
    const answer = JSON.parse(body);
    return {
      ...answer,
      api_keys: {
        test: `shown once: pk_test_…${answer.api_keys.test.slice(-4)}`,
        production: `shown once: pk_live_…${answer.api_keys.production.slice(-4)}`,
      },
    };
  };

  it("replays the stored response to a repeat and creates nothing more", async () => {
    const first = await post(account, "key-1", "Replay Co");
    const before = await childCount(account.accountId);
    const second = await post(account, "key-1", "Replay Co");
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(withKeysShownOnce(first.body));
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(await childCount(account.accountId)).toBe(before);
  });

  it("refuses the same key with another body: 409 idempotency.key_reused", async () => {
    await post(account, "key-2", "First Body");
    const response = await post(account, "key-2", "Second Body");
    expect(response.statusCode).toBe(409);
    expect(response.json().error_code).toBe("idempotency.key_reused");
  });

  it("keeps keys per account: the same key elsewhere is a new request", async () => {
    await post(account, "shared-key", "Mine");
    const response = await post(other, "shared-key", "Theirs");
    expect(response.statusCode).toBe(201);
    expect(response.json().customer.name).toBe("Theirs");
  });

  it("runs one of many concurrent requests with one key; the others wait and get the same response", async () => {
    const before = await childCount(account.accountId);
    const responses = await Promise.all(Array.from({ length: 8 }, () => post(account, "race", "Racer")));
    expect(await childCount(account.accountId)).toBe(before + 1);
    const ran = responses.filter((r) => r.headers["idempotent-replayed"] !== "true");
    expect(ran).toHaveLength(1);
    for (const response of responses) {
      expect(response.statusCode).toBe(201);
      if (response !== ran[0]) expect(response.json()).toEqual(withKeysShownOnce(ran[0]?.body ?? ""));
    }
  });

  it("stores a refusal too, so a retry with the key hears the same refusal", async () => {
    const conflict = await post(account, "dup-email", "Replay Co");
    expect(conflict.statusCode).toBe(409);
    expect((await post(account, "dup-email", "Replay Co")).body).toBe(conflict.body);
  });

  it("expires keys after 24 hours", async () => {
    await post(account, "old-key", "Old One");
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    const response = await post(account, "old-key", "Old Two");
    expect(response.statusCode).toBe(201);
    expect(response.json().customer.name).toBe("Old Two");
  });

  it("refuses a malformed key", async () => {
    const response = await post(account, "x".repeat(300), "Too Long");
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe("request.invalid");
  });
});
