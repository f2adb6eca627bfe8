import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

describe("customers (child accounts)", () => {
  let t: TestApp;
  let parent: TestAccount;
  let otherParent: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    parent = await createTestAccount(t.services, { name: "Parent Co" });
    otherParent = await createTestAccount(t.services, { name: "Other Co" });
  });
  afterAll(() => t.close());

  const create = (auth: TestAccount, customer: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: "/api/v2/customers", headers: auth.auth, payload: { customer } });

  it("creates a child account with its first API user and shows its keys once", async () => {
    const response = await create(parent, {
      name: "Child One",
      email: "ops@child.one",
      phone: "5551234567",
      external_id: "ext-1",
      user: { first_name: "Ada", last_name: "Lovelace", email: "ada@child.one" },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.customer).toMatchObject({
      parent_id: parent.accountId,
      name: "Child One",
      email: "ops@child.one",
      external_id: "ext-1",
      user: { first_name: "Ada", last_name: "Lovelace", email: "ada@child.one" },
    });
    expect(body.api_keys.test).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);
    expect(body.api_keys.production).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    expect(body.customer.user.api_key).toBe(`pk_test_…${body.api_keys.test.slice(-4)}`);

    const child = { authorization: `Bearer ${body.api_keys.test}` };
    const ping = await t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: child });
    expect(ping.statusCode).toBe(200);

    const again = await t.app.inject({
      method: "GET",
      url: `/api/v2/customers/${body.customer.id}`,
      headers: parent.auth,
    });
    expect(again.statusCode).toBe(200);
    expect(JSON.stringify(again.json())).not.toContain(body.api_keys.test);
    expect(again.json().id).toBe(body.customer.id);
  });

  it("lists only the caller's own children, filtered by ids", async () => {
    const a = (await create(parent, { name: "A", user: { email: "a@kids.test" } })).json().customer;
    const b = (await create(parent, { name: "B", user: { email: "b@kids.test" } })).json().customer;
    const foreign = (await create(otherParent, { name: "Foreign", user: { email: "f@kids.test" } })).json().customer;

    const all = await t.app.inject({ method: "GET", url: "/api/v2/customers", headers: parent.auth });
    const ids = all.json().customers.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(ids).not.toContain(foreign.id);

    const filtered = await t.app.inject({
      method: "GET",
      url: `/api/v2/customers?ids=${b.id}, ${foreign.id}`,
      headers: parent.auth,
    });
    expect(filtered.json().customers.map((c: { id: number }) => c.id)).toEqual([b.id]);
  });

  it("answers 404 customer.not_found for another account's child, the caller itself and unknown ids", async () => {
    const foreign = (await create(otherParent, { name: "Hidden", user: { email: "hidden@kids.test" } })).json()
      .customer;
    for (const id of [foreign.id, parent.accountId, 999_999]) {
      const response = await t.app.inject({ method: "GET", url: `/api/v2/customers/${id}`, headers: parent.auth });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ status: "error", error_code: "customer.not_found" });
    }
  });

  it("refuses grandchildren: a child cannot create customers", async () => {
    const child = (await create(parent, { name: "Mid", user: { email: "mid@kids.test" } })).json();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/customers",
      headers: { authorization: `Bearer ${child.api_keys.test}` },
      payload: { customer: { name: "Grandchild", user: { email: "gc@kids.test" } } },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error_code).toBe("customer.nesting_not_allowed");
  });

  it("names the field path of a schema violation", async () => {
    const missing = await create(parent, { name: "No user" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      status: "error",
      error_code: "request.invalid",
      error_message: "customer.user is required.",
    });
    const badEmail = await create(parent, { name: "Bad", user: { email: "not-an-email" } });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error_message).toContain("customer.user.email");
  });

  it("refuses a second user with the same email", async () => {
    await create(parent, { name: "Dup 1", user: { email: "dup@kids.test" } });
    const response = await create(parent, { name: "Dup 2", user: { email: "DUP@kids.test" } });
    expect(response.statusCode).toBe(409);
    expect(response.json().error_code).toBe("user.email_taken");
  });

  it("answers 400 request.invalid for a non-numeric customer id", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/v2/customers/abc", headers: parent.auth });
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe("request.invalid");
  });
});
