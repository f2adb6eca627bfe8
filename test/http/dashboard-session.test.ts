import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSignInLink, setPassword } from "../../src/domain/accounts/dashboard-sessions.js";
import type { Role } from "../../src/domain/accounts/roles.js";
import { SIGN_IN_LIMITS } from "../../src/domain/accounts/sign-in-limits.js";
import { pruneExpiredData } from "../../src/domain/retention/prune.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const PASSWORD = "a long enough passphrase";

interface SignedIn {
  cookie: string;
  csrf: string;
  body: Record<string, unknown> & { account: { id: number }; mode: string };
}

describe("dashboard sessions", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let child: TestAccount;
  let other: TestAccount;
  let emails: Map<number, string>;
  /** A client address per test, so one test's failures do not count against another's. */
  let address = 0;

  const emailOf = async (userId: number) =>
    (await t.services.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    child = await createTestAccount(t.services, { parentId: merchant.accountId });
    other = await createTestAccount(t.services);
    emails = new Map();
    for (const account of [merchant, child, other]) {
      await connectSandboxCarriers(t.services, account.accountId);
      await setPassword(t.services, account.userId, PASSWORD);
      emails.set(account.userId, await emailOf(account.userId));
    }
  });
  afterAll(() => t.close());

  const signIn = (email: string, password: string, remoteAddress = `10.0.0.${address}`) =>
    t.app.inject({ method: "POST", url: "/dashboard/session", payload: { email, password }, remoteAddress });

  const signedIn = async (account: TestAccount): Promise<SignedIn> => {
    address += 1;
    const response = await signIn(emails.get(account.userId) as string, PASSWORD);
    expect(response.statusCode, response.body).toBe(201);
    const cookie = String(response.headers["set-cookie"]).split(";")[0] as string;
    return { cookie, csrf: response.json().csrf_token, body: response.json() };
  };

  const withSession = (
    session: Pick<SignedIn, "cookie"> & { csrf?: string },
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: session.cookie, ...(session.csrf ? { "x-csrf-token": session.csrf } : {}) },
      ...(payload ? { payload } : {}),
    });

  const buy = async (auth: TestAccount["auth"]) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: auth,
      payload: { shipment: shipmentToBuy() },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().shipment.id as number;
  };
  const listedIds = async (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json().shipments.map((s: { id: number }) => s.id) as number[];
  };
  const errorCode = (response: LightMyRequestResponse) => response.json().error_code;

  it("signs in with a password: an HttpOnly, Secure, SameSite=Strict cookie and the session with its CSRF token", async () => {
    address += 1;
    const response = await signIn(`  ${(emails.get(merchant.userId) as string).toUpperCase()} `, PASSWORD);
    expect(response.statusCode, response.body).toBe(201);
    const cookie = String(response.headers["set-cookie"]);
    expect(cookie).toMatch(/^porter_session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    expect(response.json()).toEqual({
      user: { id: merchant.userId, email: emails.get(merchant.userId), roles: ["Owner", "API"] },
      permissions: ["shipping", "billing", "administration"],
      account: { id: merchant.accountId, name: expect.any(String), parent_id: null },
      own_account: { id: merchant.accountId, name: expect.any(String) },
      mode: "test",
      csrf_token: expect.stringMatching(/^[\w-]{43}$/),
    });
    const session = { cookie: cookie.split(";")[0] as string };
    const current = await withSession(session, "GET", "/dashboard/session");
    expect(current.json()).toEqual(response.json());
  });

  it("keeps only hashes of session ids and passwords", async () => {
    const session = await signedIn(merchant);
    const secret = session.cookie.split("=")[1] as string;
    const rows = await t.services.db.selectFrom("dashboard_sessions").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);
    const user = await t.services.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", merchant.userId)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(user.password_hash).not.toContain(PASSWORD);
  });

  it("refuses a wrong password, an unknown email and a user without a password alike", async () => {
    address += 1;
    const noPassword = await createTestAccount(t.services);
    for (const [email, password] of [
      [emails.get(merchant.userId) as string, "not the passphrase"],
      ["nobody@example.com", PASSWORD],
      [await emailOf(noPassword.userId), ""],
      [await emailOf(noPassword.userId), PASSWORD],
    ] as const) {
      const response = await signIn(email, password);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      if (password === "") {
        expect(errorCode(response)).toBe("request.invalid");
        continue;
      }
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        status: "error",
        error_code: "session.invalid_credentials",
        error_message: "The email address or the password is wrong.",
      });
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("limits failed sign-ins per email (429 with Retry-After), even with the right password, until the window ends", {
    timeout: 120_000,
  }, async () => {
    const account = await createTestAccount(t.services);
    await setPassword(t.services, account.userId, PASSWORD);
    const email = await emailOf(account.userId);
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i += 1) {
      expect((await signIn(email, "wrong passphrase!", `10.1.0.${i}`)).statusCode).toBe(401);
    }
    const limited = await signIn(email, PASSWORD, "10.1.1.1");
    expect(limited.statusCode).toBe(429);
    expect(errorCode(limited)).toBe("session.too_many_attempts");
    expect(limited.headers["retry-after"]).toBe(String(SIGN_IN_LIMITS.windowMs / 1000));
    t.clock.advance(SIGN_IN_LIMITS.windowMs);
    expect((await signIn(email, PASSWORD, "10.1.1.1")).statusCode).toBe(201);
  });

  // Each refusal costs a scrypt hash, however loaded the machine.
  it("limits failed sign-ins per client address across emails", { timeout: 180_000 }, async () => {
    const ip = "10.2.0.1";
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i += 1) {
      expect((await signIn(`guess${i}@example.com`, "wrong passphrase!", ip)).statusCode).toBe(401);
    }
    const limited = await signIn(emails.get(merchant.userId) as string, PASSWORD, ip);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await signIn(emails.get(merchant.userId) as string, PASSWORD, "10.2.0.2")).statusCode).toBe(201);
    t.clock.advance(SIGN_IN_LIMITS.windowMs);
  });

  it("signs in once with a link, which then stops working; an unused link expires after 15 minutes", async () => {
    const link = await issueSignInLink(t.services, merchant.userId);
    const stored = await t.services.db.selectFrom("sign_in_links").selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(link.token);
    const use = () => t.app.inject({ method: "POST", url: "/dashboard/session/link", payload: { token: link.token } });
    const first = await use();
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().user.id).toBe(merchant.userId);
    expect(String(first.headers["set-cookie"])).toContain("HttpOnly; Secure; SameSite=Strict");
    const again = await use();
    expect(again.statusCode).toBe(401);
    expect(errorCode(again)).toBe("session.invalid_link");

    const late = await issueSignInLink(t.services, merchant.userId);
    t.clock.advance(15 * 60_000);
    const expired = await t.app.inject({
      method: "POST",
      url: "/dashboard/session/link",
      payload: { token: late.token },
    });
    expect(expired.statusCode).toBe(401);
    expect(errorCode(expired)).toBe("session.invalid_link");
  });

  it("authenticates /api/v2 as the session's user; a change without X-CSRF-Token is refused, Bearer keys need none", async () => {
    const session = await signedIn(merchant);
    const id = await buy(merchant.auth);
    expect(await listedIds(await withSession(session, "GET", "/api/v2/shipments"))).toContain(id);

    const altered = `${session.csrf.slice(0, -1)}${session.csrf.endsWith("A") ? "E" : "A"}`;
    for (const csrf of [undefined, "", "x".repeat(43), altered]) {
      const refused = await withSession({ cookie: session.cookie, csrf }, "PUT", `/api/v2/shipments/${id}/cancel`);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(errorCode(refused)).toBe("session.csrf_failed");
    }
    const cancelled = await withSession(session, "PUT", `/api/v2/shipments/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);

    // Another session's token does not do.
    const second = await signedIn(merchant);
    const crossed = await withSession({ cookie: session.cookie, csrf: second.csrf }, "PUT", "/dashboard/session", {
      mode: "production",
    });
    expect(errorCode(crossed)).toBe("session.csrf_failed");

    const byKey = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: merchant.auth,
      payload: { shipment: shipmentToBuy() },
    });
    expect(byKey.statusCode).toBe(201);
  });

  it("answers 401 to an unknown, malformed or signed-out session cookie", async () => {
    const session = await signedIn(merchant);
    for (const cookie of ["porter_session=unknown", "porter_session=", "porter_session=a;b", "other=1"]) {
      const response = await withSession({ cookie }, "GET", "/api/v2/shipments");
      expect(response.statusCode).toBe(401);
      expect(errorCode(response)).toBe("errors.insufficient_scope");
      expect((await withSession({ cookie }, "GET", "/dashboard/session")).statusCode).toBe(401);
    }
    const out = await withSession(session, "DELETE", "/dashboard/session");
    expect(out.statusCode).toBe(204);
    expect(String(out.headers["set-cookie"])).toMatch(
      /^porter_session=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect((await withSession(session, "GET", "/dashboard/session")).statusCode).toBe(401);
    expect((await withSession(session, "GET", "/api/v2/shipments")).statusCode).toBe(401);
  });

  it("ends a session after 2 idle hours, and 12 hours after sign-in however busy", async () => {
    const idle = await signedIn(merchant);
    t.clock.advance(2 * 60 * 60_000);
    expect((await withSession(idle, "GET", "/dashboard/session")).statusCode).toBe(401);

    const busy = await signedIn(merchant);
    for (let hour = 1; hour < 12; hour += 1) {
      t.clock.advance(60 * 60_000);
      expect((await withSession(busy, "GET", "/dashboard/session")).statusCode).toBe(200);
    }
    t.clock.advance(60 * 60_000);
    expect((await withSession(busy, "GET", "/dashboard/session")).statusCode).toBe(401);
  });

  it("a new password ends the user's sessions", async () => {
    const account = await createTestAccount(t.services);
    await setPassword(t.services, account.userId, PASSWORD);
    emails.set(account.userId, await emailOf(account.userId));
    const session = await signedIn(account);
    await setPassword(t.services, account.userId, `${PASSWORD} again`);
    expect((await withSession(session, "GET", "/dashboard/session")).statusCode).toBe(401);
  });

  it("switches between test and production: the API then answers in that mode", async () => {
    const session = await signedIn(merchant);
    const testId = await buy(merchant.auth);
    const switched = await withSession(session, "PUT", "/dashboard/session", { mode: "production" });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json()).toMatchObject({ mode: "production", csrf_token: session.csrf });
    expect(await listedIds(await withSession(session, "GET", "/api/v2/shipments"))).not.toContain(testId);
    await withSession(session, "PUT", "/dashboard/session", { mode: "test" });
    expect(await listedIds(await withSession(session, "GET", "/api/v2/shipments"))).toContain(testId);
  });

  it("switches a parent to its child, and refuses any account that is not the user's child", async () => {
    const session = await signedIn(merchant);
    const childShipment = await buy(child.auth);
    const merchantShipment = await buy(merchant.auth);
    const toChild = await withSession(session, "PUT", "/dashboard/session", { account_id: child.accountId });
    expect(toChild.statusCode, toChild.body).toBe(200);
    expect(toChild.json().account).toEqual({
      id: child.accountId,
      name: expect.any(String),
      parent_id: merchant.accountId,
    });
    expect(toChild.json().own_account.id).toBe(merchant.accountId);
    const asChild = await listedIds(await withSession(session, "GET", "/api/v2/shipments"));
    expect(asChild).toContain(childShipment);
    expect(asChild).not.toContain(merchantShipment);
    // The child form of the API works as with a key.
    expect(
      await listedIds(await withSession(session, "GET", `/api/v2/customers/${child.accountId}/shipments`)),
    ).toContain(childShipment);
    const back = await withSession(session, "PUT", "/dashboard/session", { account_id: merchant.accountId });
    expect(back.json().account.id).toBe(merchant.accountId);

    for (const accountId of [other.accountId, 999_999]) {
      const refused = await withSession(session, "PUT", "/dashboard/session", { account_id: accountId });
      expect(refused.statusCode).toBe(404);
      expect(errorCode(refused)).toBe("customer.not_found");
    }
    // A child cannot act as its parent.
    const childSession = await signedIn(child);
    const up = await withSession(childSession, "PUT", "/dashboard/session", { account_id: merchant.accountId });
    expect(errorCode(up)).toBe("customer.not_found");
  });

  it("keeps accounts apart: another account's session cannot see or void the merchant's shipment", async () => {
    const id = await buy(merchant.auth);
    const stranger = await signedIn(other);
    expect(await listedIds(await withSession(stranger, "GET", "/api/v2/shipments"))).not.toContain(id);
    expect((await withSession(stranger, "GET", `/api/v2/shipments/${id}`)).statusCode).toBe(404);
    expect((await withSession(stranger, "PUT", `/api/v2/shipments/${id}/cancel`)).statusCode).toBe(404);
    expect(errorCode(await withSession(stranger, "GET", `/api/v2/customers/${child.accountId}/shipments`))).toBe(
      "customer.not_found",
    );
  });

  it("gives a session its user's roles: a Billing or Member user signs in but cannot ship", async () => {
    for (const roles of [["Billing"], ["Member"]] satisfies Role[][]) {
      const account = await createTestAccount(t.services, { roles: [...roles, "API"] });
      await t.services.db
        .updateTable("users")
        .set({ roles: roles.join(",") })
        .where("id", "=", account.userId)
        .execute();
      await setPassword(t.services, account.userId, PASSWORD);
      emails.set(account.userId, await emailOf(account.userId));
      const session = await signedIn(account);
      expect(session.body).toMatchObject({
        user: { roles },
        permissions: roles[0] === "Billing" ? ["billing"] : [],
      });
      const shipments = await withSession(session, "GET", "/api/v2/shipments");
      expect(shipments.statusCode).toBe(403);
      expect(errorCode(shipments)).toBe("errors.forbidden");
      const meter = await withSession(session, "POST", "/api/v2/meter/refill", { amount: 10 });
      // Billing may ask for a refill (refused further on: no payment method); Member may not.
      expect(errorCode(meter) === "errors.forbidden").toBe(roles[0] === "Member");
    }
  });

  it("the pruning job deletes ended sessions and expired sign-in links, and keeps live ones", async () => {
    const ended = await signedIn(merchant);
    await issueSignInLink(t.services, merchant.userId);
    t.clock.advance(2 * 60 * 60_000);
    const live = await signedIn(merchant);
    const fresh = await issueSignInLink(t.services, merchant.userId);
    const policy = {
      jobRetentionMs: 86_400_000,
      eventRetentionMs: 86_400_000,
      webhookDeliveryRetentionMs: 86_400_000,
      pruneIntervalMs: 3_600_000,
      pruneBatchSize: 2,
    };
    const counts = await pruneExpiredData(t.services, policy);
    expect(counts.dashboard_sessions).toBeGreaterThanOrEqual(1);
    expect(counts.sign_in_links).toBeGreaterThanOrEqual(1);
    const sessions = await t.services.db.selectFrom("dashboard_sessions").select("id").execute();
    expect(sessions).toHaveLength(1);
    expect((await withSession(live, "GET", "/dashboard/session")).statusCode).toBe(200);
    expect((await withSession(ended, "GET", "/dashboard/session")).statusCode).toBe(401);
    const links = await t.services.db.selectFrom("sign_in_links").select("expires_at").execute();
    expect(links).toEqual([{ expires_at: fresh.expiresAt }]);
  });
});
