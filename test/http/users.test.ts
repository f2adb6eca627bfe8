import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/domain/accounts/create-user.js";
import { addTestUser, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

describe("users and keys", () => {
  let t: TestApp;
  let owner: TestAccount;
  let apiOnly: TestAccount;
  let primary: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createTestAccount(t.services);
    apiOnly = await addTestUser(t.services, owner.accountId, ["API"]);
    primary = await addTestUser(t.services, owner.accountId, ["Primary", "API"]);
    stranger = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  it("lists the account's users with keys masked to prefix and last 4, for Owner and Primary", async () => {
    for (const caller of [owner, primary]) {
      const response = await t.app.inject({ method: "GET", url: "/api/v2/users", headers: caller.auth });
      expect(response.statusCode).toBe(200);
      const users = response.json().users;
      expect(users.map((u: { id: number }) => u.id)).toEqual([owner.userId, apiOnly.userId, primary.userId]);
      const first = users[0];
      expect(first.roles).toEqual(["Owner", "API"]);
      expect(first.api_keys.map((k: { api_key: string }) => k.api_key)).toEqual([
        `pk_test_…${owner.keys.test.slice(-4)}`,
        `pk_live_…${owner.keys.production.slice(-4)}`,
      ]);
      expect(response.body).not.toContain(owner.keys.test);
      expect(response.body).not.toContain(stranger.keys.test.slice(-8));
    }
  });

  it("forbids users without Primary or Owner with 403 errors.forbidden", async () => {
    const list = await t.app.inject({ method: "GET", url: "/api/v2/users", headers: apiOnly.auth });
    expect(list.statusCode).toBe(403);
    expect(list.json()).toMatchObject({ status: "error", error_code: "errors.forbidden" });
    const rotate = await t.app.inject({
      method: "POST",
      url: `/api/v2/users/${owner.userId}/keys/rotate`,
      headers: apiOnly.auth,
    });
    expect(rotate.statusCode).toBe(403);
  });

  const ping = (key: string) =>
    t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: { authorization: `Bearer ${key}` } });
  const rotateWith = (key: string, userId: number) =>
    t.app.inject({
      method: "POST",
      url: `/api/v2/users/${userId}/keys/rotate`,
      headers: { authorization: `Bearer ${key}` },
    });

  it("rotates with a test key only the user's test key: the new one works at once, the old one stops", async () => {
    const member = await addTestUser(t.services, owner.accountId, ["API"]);
    const response = await rotateWith(owner.keys.test, member.userId);
    expect(response.statusCode).toBe(201);
    const fresh = response.json().api_keys;
    expect(Object.keys(fresh)).toEqual(["test"]);
    expect(fresh.test).toMatch(/^pk_test_/);
    expect(fresh.test).not.toBe(member.keys.test);
    expect(response.body).not.toContain("pk_live_");

    expect((await ping(member.keys.test)).statusCode).toBe(401);
    expect((await ping(fresh.test)).statusCode).toBe(200);
    // The production key is not the test key's to replace: it keeps working.
    expect((await ping(member.keys.production)).statusCode).toBe(200);
  });

  it("rotates with a production key only the user's production key", async () => {
    const member = await addTestUser(t.services, owner.accountId, ["API"]);
    const response = await rotateWith(owner.keys.production, member.userId);
    expect(response.statusCode).toBe(201);
    const fresh = response.json().api_keys;
    expect(Object.keys(fresh)).toEqual(["production"]);
    expect(fresh.production).toMatch(/^pk_live_/);

    expect((await ping(member.keys.production)).statusCode).toBe(401);
    expect((await ping(fresh.production)).statusCode).toBe(200);
    expect((await ping(member.keys.test)).statusCode).toBe(200);
  });

  it("lists a user's keys of both modes after rotating one of them", async () => {
    const member = await addTestUser(t.services, owner.accountId, ["API"]);
    const fresh = (await rotateWith(owner.keys.test, member.userId)).json().api_keys;
    const users = (await t.app.inject({ method: "GET", url: "/api/v2/users", headers: owner.auth })).json().users;
    const listed = users.find((u: { id: number }) => u.id === member.userId);
    expect(listed.api_keys.map((k: { api_key: string }) => k.api_key)).toEqual([
      `pk_live_…${member.keys.production.slice(-4)}`,
      `pk_test_…${fresh.test.slice(-4)}`,
    ]);
  });

  it("cannot rotate another account's user (404) or a user without the API role (422)", async () => {
    const foreign = await t.app.inject({
      method: "POST",
      url: `/api/v2/users/${stranger.userId}/keys/rotate`,
      headers: owner.auth,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error_code).toBe("user.not_found");
    expect((await t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: stranger.auth })).statusCode).toBe(
      200,
    );

    const { user } = await createUser(t.services, {
      accountId: owner.accountId,
      email: "member-no-api@example.com",
      roles: ["Member"],
    });
    const noKeys = await t.app.inject({
      method: "POST",
      url: `/api/v2/users/${user.id}/keys/rotate`,
      headers: owner.auth,
    });
    expect(noKeys.statusCode).toBe(422);
    expect(noKeys.json().error_code).toBe("user.not_api_user");
  });
});
