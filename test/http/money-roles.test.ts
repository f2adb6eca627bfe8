import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestUser, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { VISA } from "../helpers/payment-methods.js";
import { shipmentToBuy } from "../helpers/shipments.js";

/** Long enough for the key holder cache to forget a key, so a changed role is read again. */
const KEY_CACHE_MS = 5001;

describe("roles for money: the API role ships, Billing pays, Owner and Primary administer", () => {
  let t: TestApp;
  let owner: TestAccount;
  let apiOnly: TestAccount;
  let billing: TestAccount;
  let primary: TestAccount;
  let cardId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, owner.accountId);
    apiOnly = await addTestUser(t.services, owner.accountId, ["API"]);
    billing = await addTestUser(t.services, owner.accountId, ["API", "Billing"]);
    primary = await addTestUser(t.services, owner.accountId, ["API", "Primary"]);
    // Not the default, so the refused PUT below would show if it changed it.
    const card = await call(owner, "POST", "/payment_methods", {
      payment_method: { ...VISA, default_payment_method: false },
    });
    cardId = card.json().payment_method.id;
  });
  afterAll(() => t.close());

  function call(
    caller: TestAccount,
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: Record<string, unknown>,
  ) {
    return t.app.inject({ method, url: `/api/v2${url}`, headers: caller.auth, payload });
  }

  const moneyRequests = () =>
    [
      ["GET", "/payment_methods", undefined],
      ["GET", `/payment_methods/${cardId}`, undefined],
      ["POST", "/payment_methods", { payment_method: VISA }],
      ["PUT", `/payment_methods/${cardId}`, { payment_method: { default_payment_method: true } }],
      ["DELETE", `/payment_methods/${cardId}`, undefined],
      ["POST", "/meter/refill", { amount: 25, payment_method_id: cardId }],
      ["PUT", "/meter", { meter: { refill_trigger_balance: 10, refill_amount: 50 } }],
    ] as const;

  it("refuses the API role every payment-method, refill and automatic-refill request: 403, nothing changes", async () => {
    const meterBefore = (await call(apiOnly, "GET", "/meter")).json().meter;
    for (const [method, url, payload] of moneyRequests()) {
      const answer = await call(apiOnly, method, url, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
      expect(answer.json()).toEqual({
        status: "error",
        error_code: "errors.forbidden",
        error_message: expect.stringContaining("Billing"),
      });
    }
    expect((await call(apiOnly, "GET", "/meter")).json().meter).toEqual(meterBefore);
    const methods = (await call(owner, "GET", "/payment_methods")).json().payment_methods;
    expect(methods.map((m: { id: number }) => m.id)).toEqual([cardId]);
    expect(methods[0].default_payment_method).toBe(false);
  });

  it("refuses the API role a child account, whose answer carries the child's keys", async () => {
    const answer = await call(apiOnly, "POST", "/customers", {
      customer: { name: "Not Yours", user: { email: "not-yours@roles.test" } },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error_code).toBe("errors.forbidden");
    expect(answer.body).not.toContain("pk_");
    expect((await call(owner, "GET", "/customers")).json().customers).toEqual([]);
  });

  it("lets Billing pay: payment methods, a refill, automatic refill, but no child account", async () => {
    const added = await call(billing, "POST", "/payment_methods", { payment_method: VISA });
    expect(added.statusCode).toBe(201);
    const id = added.json().payment_method.id;
    const madeDefault = await call(billing, "PUT", `/payment_methods/${id}`, {
      payment_method: { default_payment_method: true },
    });
    expect(madeDefault.statusCode).toBe(200);
    expect((await call(billing, "POST", "/meter/refill", { amount: 25 })).statusCode).toBe(201);
    const automatic = await call(billing, "PUT", "/meter", {
      meter: { refill_trigger_balance: 10, refill_amount: 50 },
    });
    expect(automatic.statusCode).toBe(200);
    const child = await call(billing, "POST", "/customers", {
      customer: { name: "Billing's Child", user: { email: "billing-child@roles.test" } },
    });
    expect(child.statusCode).toBe(403);
  });

  it("lets Primary do what Owner does: pay and make child accounts", async () => {
    expect((await call(primary, "GET", "/payment_methods")).statusCode).toBe(200);
    const child = await call(primary, "POST", "/customers", {
      customer: { name: "Primary's Child", user: { email: "primary-child@roles.test" } },
    });
    expect(child.statusCode).toBe(201);
  });

  it("checks the role before an idempotent replay: a Billing user demoted since hears 403, not the stored refill", async () => {
    const payer = await addTestUser(t.services, owner.accountId, ["API", "Billing"]);
    const refill = () =>
      t.app.inject({
        method: "POST",
        url: "/api/v2/meter/refill",
        headers: { ...payer.auth, "idempotency-key": "refill-once" },
        payload: { amount: 25, payment_method_id: cardId },
      });
    expect((await refill()).statusCode).toBe(201);
    expect((await refill()).headers["idempotent-replayed"]).toBe("true");

    await t.services.db.updateTable("users").set({ roles: "API" }).where("id", "=", payer.userId).execute();
    t.clock.advance(KEY_CACHE_MS);
    const after = await refill();
    expect(after.statusCode).toBe(403);
    expect(after.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("keeps the API role shipping: rate, ship, look up, cancel, batch, read the meter", async () => {
    expect((await call(apiOnly, "GET", "/meter")).statusCode).toBe(200);
    const rated = await call(apiOnly, "POST", "/rates", { shipment: shipmentToBuy({ service_id: undefined }) });
    expect(rated.statusCode).toBe(201);
    const shipped = await call(apiOnly, "POST", "/shipments/ship", { shipment: shipmentToBuy() });
    expect(shipped.statusCode).toBe(201);
    const shipment = shipped.json().shipment;
    expect((await call(apiOnly, "GET", `/shipments/${shipment.id}`)).statusCode).toBe(200);
    const batch = await call(apiOnly, "POST", "/shipments/batches", { shipment_ids: [shipment.id] });
    expect(batch.statusCode, batch.body).toBeLessThan(300);
    const other = await call(apiOnly, "POST", "/shipments/ship", { shipment: shipmentToBuy() });
    expect((await call(apiOnly, "PUT", `/shipments/${other.json().shipment.id}/cancel`)).statusCode).toBe(200);
  });
});
