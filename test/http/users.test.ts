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

describe("adding users and changing their roles", () => {
  let t: TestApp;
  let owner: TestAccount;
  let apiOnly: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createTestAccount(t.services);
    apiOnly = await addTestUser(t.services, owner.accountId, ["API"]);
    stranger = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const add = (caller: TestAccount, user: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: "/api/v2/users", headers: caller.auth, payload: { user } });
  const change = (caller: TestAccount, userId: number, roles: unknown) =>
    t.app.inject({ method: "PUT", url: `/api/v2/users/${userId}`, headers: caller.auth, payload: { user: { roles } } });
  const ping = (key: string) =>
    t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: { authorization: `Bearer ${key}` } });
  const listedIds = async (caller: TestAccount) =>
    (await t.app.inject({ method: "GET", url: "/api/v2/users", headers: caller.auth }))
      .json()
      .users.map((u: { id: number }) => u.id);

  it("adds an API user whose keys come once in the answer and work; the listing masks them", async () => {
    const response = await add(owner, { email: "Packer@Example.com", first_name: "Pat", roles: ["API", "Billing"] });
    expect(response.statusCode).toBe(201);
    const { user, api_keys } = response.json();
    expect(user).toMatchObject({ email: "packer@example.com", first_name: "Pat", last_name: null });
    expect(user.roles).toEqual(["API", "Billing"]);
    expect(api_keys.test).toMatch(/^pk_test_/);
    expect(api_keys.production).toMatch(/^pk_live_/);
    expect(user.api_keys.map((k: { api_key: string }) => k.api_key)).toEqual([
      `pk_test_…${api_keys.test.slice(-4)}`,
      `pk_live_…${api_keys.production.slice(-4)}`,
    ]);
    expect((await ping(api_keys.test)).statusCode).toBe(200);
    expect(await listedIds(owner)).toContain(user.id);
    const listing = await t.app.inject({ method: "GET", url: "/api/v2/users", headers: owner.auth });
    expect(listing.body).not.toContain(api_keys.test);
  });

  it("adds a user without the API role with no keys", async () => {
    const response = await add(owner, { email: "finance@example.com", roles: ["Billing"] });
    expect(response.statusCode).toBe(201);
    expect(response.json().api_keys).toBeUndefined();
    expect(response.json().user.api_keys).toEqual([]);
  });

  it("refuses a taken email with 409 user.email_taken, also when two requests race for it", async () => {
    expect((await add(owner, { email: "first@example.com", roles: ["Member"] })).statusCode).toBe(201);
    const taken = await add(owner, { email: "FIRST@example.com", roles: ["Member"] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error_code).toBe("user.email_taken");

    const racing = await Promise.all([1, 2, 3].map(() => add(owner, { email: "twin@example.com", roles: ["API"] })));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    for (const refused of racing.filter((r) => r.statusCode === 409)) {
      expect(refused.json().error_code).toBe("user.email_taken");
    }
  });

  it("validates the body: a known role at least, an email address", async () => {
    for (const user of [
      { email: "x@example.com", roles: [] },
      { email: "x@example.com", roles: ["Admin"] },
      { email: "not an address", roles: ["API"] },
      { roles: ["API"] },
    ]) {
      const response = await add(owner, user);
      expect(response.statusCode, JSON.stringify(user)).toBe(400);
      expect(response.json().error_code).toBe("request.invalid");
    }
    expect((await change(owner, apiOnly.userId, ["Root"])).statusCode).toBe(400);
  });

  it("revokes the keys of a user who loses API: keys revoked; regaining API issues new ones once", async () => {
    const user = await addTestUser(t.services, owner.accountId, ["API"]);
    const demoted = await change(owner, user.userId, ["Billing"]);
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json().user).toMatchObject({ id: user.userId, roles: ["Billing"], api_keys: [] });
    expect(demoted.json().api_keys).toBeUndefined();
    expect((await ping(user.keys.test)).statusCode).toBe(401);
    expect((await ping(user.keys.production)).statusCode).toBe(401);

    const promoted = await change(owner, user.userId, ["Billing", "API"]);
    expect(promoted.statusCode).toBe(200);
    const fresh = promoted.json().api_keys;
    expect((await ping(fresh.test)).statusCode).toBe(200);
    expect((await ping(fresh.production)).statusCode).toBe(200);
    expect((await ping(user.keys.test)).statusCode).toBe(401);
  });

  it("applies new roles to a key at once: a Primary made API-only can no longer list users", async () => {
    const admin = await addTestUser(t.services, owner.accountId, ["Primary", "API"]);
    expect((await t.app.inject({ method: "GET", url: "/api/v2/users", headers: admin.auth })).statusCode).toBe(200);
    expect((await change(owner, admin.userId, ["API"])).statusCode).toBe(200);
    const after = await t.app.inject({ method: "GET", url: "/api/v2/users", headers: admin.auth });
    expect(after.statusCode).toBe(403);
    expect((await ping(admin.keys.test)).statusCode).toBe(200);
  });

  it("keeps one administrator: the last Primary or Owner cannot lose the role", async () => {
    const alone = await createTestAccount(t.services);
    const refused = await change(alone, alone.userId, ["API"]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error_code).toBe("user.last_administrator");
    expect((await t.app.inject({ method: "GET", url: "/api/v2/users", headers: alone.auth })).statusCode).toBe(200);

    const second = await addTestUser(t.services, alone.accountId, ["Primary", "API"]);
    expect((await change(alone, alone.userId, ["API"])).statusCode).toBe(200);
    expect((await change(second, second.userId, ["API"])).json().error_code).toBe("user.last_administrator");
  });

  it("answers 404 user.not_found for another account's user and changes nothing there", async () => {
    const foreign = await change(owner, stranger.userId, ["Member"]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error_code).toBe("user.not_found");
    expect((await ping(stranger.keys.test)).statusCode).toBe(200);
    expect((await change(owner, 999_999, ["Member"])).statusCode).toBe(404);
    const added = (await add(stranger, { email: "their-user@example.com", roles: ["Member"] })).json().user;
    expect(await listedIds(owner)).not.toContain(added.id);
    expect(await listedIds(stranger)).toContain(added.id);
  });

  it("lets only Primary and Owner add users or change roles (403 errors.forbidden)", async () => {
    const refusedAdd = await add(apiOnly, { email: "sneaky@example.com", roles: ["Owner", "API"] });
    expect(refusedAdd.statusCode).toBe(403);
    expect(refusedAdd.json().error_code).toBe("errors.forbidden");
    const refusedChange = await change(apiOnly, apiOnly.userId, ["Owner", "API"]);
    expect(refusedChange.statusCode).toBe(403);
    const roles = await t.services.db
      .selectFrom("users")
      .select("roles")
      .where("id", "=", apiOnly.userId)
      .executeTakeFirstOrThrow();
    expect(roles.roles).toBe("API");
    expect(
      await t.services.db.selectFrom("users").select("id").where("email", "=", "sneaky@example.com").executeTakeFirst(),
    ).toBeUndefined();
  });
});
