import type { FastifyPluginAsync } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAccountScopedRoutes } from "../../src/http/plugins/account-scope.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

/** A route declared once as account-scoped; it reports whose data the request acts on. */
const whoAmI: FastifyPluginAsync = async (app) => {
  app.get("/shipments/scope-probe", { config: { permission: "shipping" } }, async (request) => ({
    scope: request.scope,
  }));
};

describe("the child-account path form /api/v2/customers/{customer_id}/...", () => {
  let t: TestApp;
  let parent: TestAccount;
  let child: TestAccount;
  let sibling: TestAccount;
  let otherParent: TestAccount;
  let otherChild: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp({ extraApiRoutes: (api) => registerAccountScopedRoutes(api, whoAmI) });
    parent = await createTestAccount(t.services);
    child = await createTestAccount(t.services, { parentId: parent.accountId });
    sibling = await createTestAccount(t.services, { parentId: parent.accountId });
    otherParent = await createTestAccount(t.services);
    otherChild = await createTestAccount(t.services, { parentId: otherParent.accountId });
  });
  afterAll(() => t.close());

  const probe = (auth: TestAccount["auth"], customerId?: number | string) =>
    t.app.inject({
      method: "GET",
      url:
        customerId === undefined
          ? "/api/v2/shipments/scope-probe"
          : `/api/v2/customers/${customerId}/shipments/scope-probe`,
      headers: auth,
    });

  it("acts as the caller's own account on the plain path", async () => {
    const response = await probe(parent.auth);
    expect(response.json().scope).toEqual({ accountId: parent.accountId, mode: "test" });
  });

  it("lets a parent act as its child, in the mode of its key", async () => {
    const response = await probe(parent.auth, child.accountId);
    expect(response.statusCode).toBe(200);
    expect(response.json().scope).toEqual({ accountId: child.accountId, mode: "test" });
    const live = await probe({ authorization: `Bearer ${parent.keys.production}` }, child.accountId);
    expect(live.json().scope).toEqual({ accountId: child.accountId, mode: "production" });
  });

  it.each([
    ["another parent's child", () => [parent, otherChild.accountId]],
    ["a sibling acting for a sibling", () => [child, sibling.accountId]],
    ["a child acting for its parent", () => [child, parent.accountId]],
    ["an account acting for itself", () => [parent, parent.accountId]],
    ["an unknown id", () => [parent, 987_654]],
    ["a non-numeric id", () => [parent, "abc"]],
  ] as const)("answers 404 customer.not_found for %s", async (_name, pick) => {
    const [caller, id] = pick() as [TestAccount, number | string];
    const response = await probe(caller.auth, id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      status: "error",
      error_code: "customer.not_found",
      error_message: `No customer with id ${id} belongs to this account.`,
    });
  });

  it("still needs a valid key", async () => {
    const response = await probe({ authorization: "Bearer nope" }, child.accountId);
    expect(response.statusCode).toBe(401);
  });

  it("leaves GET /customers/{id} its own route", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: `/api/v2/customers/${child.accountId}`,
      headers: parent.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(child.accountId);
  });
});
