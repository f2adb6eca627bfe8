import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeKeys } from "../../src/domain/accounts/manage-keys.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

const REJECTED = {
  status: "error",
  error_code: "errors.insufficient_scope",
  error_message: "Token does not allow access to service.",
};

describe("API key authentication", () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    account = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const ping = (authorization?: string) =>
    t.app.inject({
      method: "GET",
      url: "/api/v2/test/ping",
      headers: authorization === undefined ? {} : { authorization },
    });

  it("answers pong to a test key and to a production key", async () => {
    for (const key of [account.keys.test, account.keys.production]) {
      const response = await ping(`Bearer ${key}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: "pong" });
    }
  });

  it.each([
    ["no header", undefined],
    ["no Bearer word", "KEY"],
    ["two spaces", "Bearer  KEY"],
    ["empty key", "Bearer "],
    ["lower-case scheme", "bearer KEY"],
    ["unknown key", "Bearer pk_test_00000000000000000000000000000000"],
  ])("rejects %s with 401 and exactly the spec's body", async (_name, header) => {
    const response = await ping(header?.replace("KEY", account.keys.test));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(REJECTED);
  });

  it("rejects a key revoked by another process once the key cache entry expires", async () => {
    const other = await createTestAccount(t.services);
    expect((await ping(other.auth.authorization)).statusCode).toBe(200);
    await revokeKeys(t.services, other.userId);
    t.clock.advance(5001);
    const response = await ping(other.auth.authorization);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(REJECTED);
  });

  it("stores keys only as hashes", async () => {
    const rows = await t.services.db.selectFrom("api_keys").selectAll().execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(account.keys.test);
    expect(stored).not.toContain(account.keys.production);
  });
});
