import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTLE_PAYMENT_DELAY_MS } from "../../src/domain/meter/charge-refill.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { SANDBOX_DECLINED_CARD, SANDBOX_RETURNED_BANK_ACCOUNT } from "../../src/payments/sandbox-gateway.js";
import {
  apiCaller,
  buildTestApp,
  createTestAccount,
  createTestTenants,
  fundMeter,
  liveAuth,
  type TestAccount,
  type TestApp,
} from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { BANK, VISA } from "../helpers/payment-methods.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("a prepaid meter: labels need funds, refills are automatic, bank charges can come back", () => {
  let t: TestApp;
  let worker: Worker;
  const call = apiCaller(() => t);

  afterAll(() => t.close());

  /** An account with sandbox carriers, acting with its production key unless told otherwise. */
  async function shipper(): Promise<{ account: TestAccount; live: TestAccount["auth"] }> {
    const account = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, account.accountId);
    return { account, live: liveAuth(account) };
  }
  const meter = async (auth: TestAccount["auth"]) => (await call(auth, "GET", "/meter")).json().meter;
  const ship = (auth: TestAccount["auth"]) => call(auth, "POST", "/shipments/ship", { shipment: shipmentToBuy() });
  const addMethod = async (auth: TestAccount["auth"], method: Record<string, unknown>) =>
    (await call(auth, "POST", "/payment_methods", { payment_method: method })).json().payment_method.id as number;
  const autoRefill = (auth: TestAccount["auth"], trigger: number | string | null, amount: number | string | null) =>
    call(auth, "PUT", "/meter", { meter: { refill_trigger_balance: trigger, refill_amount: amount } });
  const shipments = (accountId: number) =>
    t.services.db.selectFrom("shipments").selectAll().where("account_id", "=", accountId).execute();
  const transactions = (accountId: number) =>
    t.services.db
      .selectFrom("payment_transactions")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("id")
      .execute();
  const paymentEvents = async (auth: TestAccount["auth"]) =>
    (await call(auth, "GET", "/events?stream=payment_status"))
      .json()
      .events.map((e: { payload: unknown }) => e.payload);
  /** What one label of the test shipment costs, read from a rate. */
  let priceCents: number;

  beforeAll(async () => {
    t = await buildTestApp();
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    const { account } = await shipper();
    const rates = await call(account.auth, "POST", "/rates", { shipment: shipmentToBuy() });
    const rate = rates.json().service_rates.find((r: { service_id: number }) => r.service_id === 1172);
    priceCents = Math.round(rate.rate * 100);
  });

  it("refuses a label the balance does not cover: 402, no shipment, the carrier never asked", async () => {
    const { account, live } = await shipper();
    const response = await ship(live);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ status: "error", error_code: "meter.insufficient_funds" });
    expect(response.json().error_message).toContain("no label was bought");
    expect(await shipments(account.accountId)).toEqual([]);
    expect((await meter(live)).balance).toBe(0);
  });

  it("charges each label at its price, in test mode too (the test meter opens with sandbox credit)", async () => {
    const { account } = await shipper();
    const response = await ship(account.auth);
    expect(response.statusCode).toBe(201);
    expect(response.json().shipment.payment).toEqual({
      amount: priceCents / 100,
      currency: "USD",
      payment_method_id: null,
    });
    expect(Math.round((await meter(account.auth)).balance * 100)).toBe(100_000 - priceCents);
  });

  it("refills automatically below the trigger, before buying, and names the charge in the shipment", async () => {
    const { account, live } = await shipper();
    const cardId = await addMethod(live, { ...VISA, default_payment_method: true });
    const settings = await autoRefill(live, 20, 50);
    expect(settings.statusCode).toBe(200);
    expect(settings.json().meter).toMatchObject({ balance: 0, refill_trigger_balance: 20, refill_amount: 50 });

    const response = await ship(live);
    expect(response.statusCode).toBe(201);
    expect(response.json().shipment.payment).toEqual({
      amount: priceCents / 100,
      currency: "USD",
      payment_method_id: String(cardId),
    });
    const [refill] = await transactions(account.accountId);
    expect(refill).toMatchObject({ purpose: "auto_refill", status: "accepted", amount_cents: 5000 });
    expect(Math.round((await meter(live)).balance * 100)).toBe(5000 - priceCents);
    expect(await paymentEvents(live)).toEqual([
      expect.objectContaining({ payment_method_id: cardId, payment_transaction_id: refill?.id, status: "accepted" }),
    ]);

    // Still above the trigger after the next label: no second charge.
    expect((await ship(live)).statusCode).toBe(201);
    expect(await transactions(account.accountId)).toHaveLength(5000 - 2 * priceCents >= 2000 ? 1 : 2);
  });

  it("answers 402 when the automatic refill is declined, saying so, with a rejected payment event", async () => {
    const { account, live } = await shipper();
    await addMethod(live, { ...VISA, account_number: SANDBOX_DECLINED_CARD, default_payment_method: true });
    await autoRefill(live, 10, 25);
    const response = await ship(live);
    expect(response.statusCode).toBe(402);
    expect(response.json().error_code).toBe("meter.insufficient_funds");
    expect(response.json().error_message).toContain("automatic refill of 25.00 was declined");
    expect(await shipments(account.accountId)).toEqual([]);
    expect(await paymentEvents(live)).toEqual([
      expect.objectContaining({ status: "rejected", type: "cc", amount: 25 }),
    ]);
  });

  it("buys on the balance when it covers the label even if the refill below the trigger is declined", async () => {
    const { account, live } = await shipper();
    await fundMeter(t.services, account, "production", priceCents + 100);
    await addMethod(live, { ...VISA, account_number: SANDBOX_DECLINED_CARD, default_payment_method: true });
    await autoRefill(live, 10, 25);
    expect((await ship(live)).statusCode).toBe(201);
    expect((await meter(live)).balance).toBe(1);
  });

  it.each([
    [{ refill_trigger_balance: 10, refill_amount: null }, 422, "meter.invalid_settings"],
    [{ refill_trigger_balance: 10 }, 422, "meter.invalid_settings"],
    [{ refill_amount: 100 }, 422, "meter.invalid_settings"],
    [{}, 422, "meter.invalid_settings"],
    [{ refill_trigger_balance: 10, refill_amount: 0.5 }, 422, "meter.invalid_settings"],
    [{ refill_trigger_balance: 10.001, refill_amount: 20 }, 422, "meter.invalid_amount"],
    [{ refill_trigger_balance: -1, refill_amount: 20 }, 400, "request.invalid"],
    [{ refill_trigger_balance: true, refill_amount: true }, 400, "request.invalid"],
    [{ refill_trigger_balance: false, refill_amount: false }, 400, "request.invalid"],
    [{ refill_trigger_balance: "0x10", refill_amount: 20 }, 400, "request.invalid"],
    [{ refill_trigger_balance: 10, refill_amount: "2e1" }, 400, "request.invalid"],
    [{ refill_trigger_balance: "10.001", refill_amount: 20 }, 422, "meter.invalid_amount"],
  ])("refuses the settings %j (%i %s)", async (body, status, code) => {
    const { live } = await shipper();
    const response = await call(live, "PUT", "/meter", { meter: body });
    expect(response.statusCode).toBe(status);
    expect(response.json().error_code).toBe(code);
  });

  it("turns automatic refill on only with a default payment method: 409 naming the fix; off needs none", async () => {
    const { live } = await shipper();
    const refused = await autoRefill(live, 20, 50);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ status: "error", error_code: "meter.no_default_payment_method" });
    expect(refused.json().error_message).toContain("default_payment_method");
    expect(await meter(live)).toMatchObject({ refill_trigger_balance: null, refill_amount: null });
    expect((await autoRefill(live, null, null)).statusCode).toBe(200);

    await addMethod(live, VISA);
    expect((await autoRefill(live, 20, 50)).statusCode).toBe(200);
  });

  it("answers 402 saying no refill could be made when automatic refill is on and the default is gone", async () => {
    const { account, live } = await shipper();
    const cardId = await addMethod(live, VISA);
    expect((await autoRefill(live, 20, 50)).statusCode).toBe(200);
    await call(live, "PUT", `/payment_methods/${cardId}`, { payment_method: { default_payment_method: false } });
    const response = await ship(live);
    expect(response.statusCode).toBe(402);
    expect(response.json().error_code).toBe("meter.insufficient_funds");
    expect(response.json().error_message).toContain("automatic refill could not be made");
    expect(response.json().error_message).toContain("no default payment method");
    expect(await shipments(account.accountId)).toEqual([]);
    expect(await transactions(account.accountId)).toEqual([]);
  });

  it("takes the settings as decimal strings, and a trigger of 0 as 0", async () => {
    const { live } = await shipper();
    await addMethod(live, VISA);
    const strings = await autoRefill(live, "12.50", "100.00");
    expect(strings.statusCode).toBe(200);
    expect(strings.json().meter).toMatchObject({ refill_trigger_balance: 12.5, refill_amount: 100 });
    const zero = await autoRefill(live, 0, 25);
    expect(zero.statusCode).toBe(200);
    expect(zero.json().meter).toMatchObject({ refill_trigger_balance: 0, refill_amount: 25 });
  });

  it("turns automatic refill off with both settings null", async () => {
    const { live } = await shipper();
    await addMethod(live, VISA);
    await autoRefill(live, 5, 10);
    const response = await autoRefill(live, null, null);
    expect(response.json().meter).toMatchObject({ refill_trigger_balance: null, refill_amount: null });
  });

  it("takes refill settings for a child from the customer's template_data.payment and returns them", async () => {
    const { account: parent } = await shipper();
    const created = await call(parent.auth, "POST", "/customers", {
      customer: {
        name: "Child Shop",
        user: { email: `child-${parent.accountId}@example.com` },
        template_data: {
          shipper_id: "S-1",
          accounting_contact: { accounting_email: "books@example.com" },
          payment: { refill_trigger_balance: 15, refill_amount: 100 },
        },
      },
    });
    expect(created.statusCode).toBe(201);
    const { customer, api_keys } = created.json();
    expect(customer.template_data).toMatchObject({
      shipper_id: "S-1",
      accounting_contact: { accounting_email: "books@example.com", contact_type: null },
      payment: { refill_trigger_balance: 15, refill_amount: 100, payment_method: null },
    });
    const fetched = await call(parent.auth, "GET", `/customers/${customer.id}`);
    expect(fetched.json().template_data).toEqual(customer.template_data);
    const childLive = { authorization: `Bearer ${api_keys.production}` };
    expect(await meter(childLive)).toMatchObject({ balance: 0, refill_trigger_balance: 15, refill_amount: 100 });
  });

  describe("payment methods in use", () => {
    it("refuses to delete a method with a pending charge (409) and settles the charge after a crash", async () => {
      const { account, live } = await shipper();
      // Not the default (which cannot be deleted at all): only the pending charge holds it.
      const cardId = await addMethod(live, { ...VISA, default_payment_method: false });
      // What a process that died between writing the charge and calling the gateway leaves behind.
      const stamp = t.clock.now().toISOString();
      const pending = await t.services.db
        .insertInto("payment_transactions")
        .values({
          account_id: account.accountId,
          mode: "production",
          payment_method_id: cardId,
          purpose: "refill",
          amount_cents: 4200,
          status: "pending",
          charge_key: `crashed-${account.accountId}`,
          gateway_reference: null,
          reason: null,
          return_check_at: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await t.services.jobs.enqueue(
        "payment.settle_pending",
        { paymentTransactionId: pending.id },
        { runAt: new Date(t.clock.now().getTime() + SETTLE_PAYMENT_DELAY_MS) },
      );
      const refused = await call(live, "DELETE", `/payment_methods/${cardId}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error_code).toBe("payment_method.in_use");
      // One charge in flight per meter: a refill asked for meanwhile waits its turn.
      const busy = await call(live, "POST", "/meter/refill", { amount: 10, payment_method_id: cardId });
      expect(busy.statusCode).toBe(409);
      expect(busy.json().error_code).toBe("meter.refill_in_progress");

      t.clock.advance(SETTLE_PAYMENT_DELAY_MS + 1);
      await worker.drain();
      const [settled] = await transactions(account.accountId);
      expect(settled).toMatchObject({ status: "accepted", gateway_reference: expect.stringMatching(/^sbx_txn_/) });
      expect((await meter(live)).balance).toBe(42);
      expect(await paymentEvents(live)).toEqual([
        expect.objectContaining({ payment_transaction_id: pending.id, status: "accepted", amount: 42 }),
      ]);
      expect((await call(live, "DELETE", `/payment_methods/${cardId}`)).statusCode).toBe(204);
    });

    it("refuses to delete the default (409 is_default) and a bank account whose charge can still be returned", async () => {
      const { live } = await shipper();
      const defaultId = await addMethod(live, { ...VISA, default_payment_method: true });
      expect((await call(live, "DELETE", `/payment_methods/${defaultId}`)).json().error_code).toBe(
        "payment_method.is_default",
      );
      const bankId = await addMethod(live, BANK);
      expect((await call(live, "POST", "/meter/refill", { amount: 30, payment_method_id: bankId })).statusCode).toBe(
        201,
      );
      const refused = await call(live, "DELETE", `/payment_methods/${bankId}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error_code).toBe("payment_method.in_use");
      // Once the return window has passed without a return, the charge is settled for good.
      t.clock.advance(3 * DAY_MS + 1);
      await worker.drain();
      expect((await call(live, "DELETE", `/payment_methods/${bankId}`)).statusCode).toBe(204);
      expect((await meter(live)).balance).toBe(30);
    });
  });

  it("takes an ACH refill back days later when the bank returns it: returned, reversed, and a payment_status event", async () => {
    const { account, live } = await shipper();
    const bankId = await addMethod(live, { ...BANK, account_number: SANDBOX_RETURNED_BANK_ACCOUNT });
    const refill = await call(live, "POST", "/meter/refill", { amount: 60, payment_method_id: bankId });
    expect(refill.statusCode).toBe(201);
    expect((await ship(live)).statusCode).toBe(201);

    t.clock.advance(DAY_MS);
    await worker.drain();
    expect((await transactions(account.accountId))[0]?.status).toBe("accepted");

    t.clock.advance(2 * DAY_MS + 1);
    await worker.drain();
    const [returned] = await transactions(account.accountId);
    expect(returned).toMatchObject({ status: "returned", reason: expect.stringMatching(/^R01/) });
    // The postage was spent before the money came back: the meter owes it.
    expect(Math.round((await meter(live)).balance * 100)).toBe(-priceCents);
    const reversal = await t.services.db
      .selectFrom("meter_entries")
      .selectAll()
      .where("payment_transaction_id", "=", returned?.id ?? 0)
      .orderBy("id")
      .execute();
    expect(reversal.map((e) => [e.kind, e.amount_cents])).toEqual([
      ["refill", 6000],
      ["refill_return", -6000],
    ]);
    expect(await paymentEvents(live)).toEqual([
      expect.objectContaining({ payment_transaction_id: returned?.id, status: "accepted", type: "ach" }),
      {
        payment_method_id: bankId,
        payment_transaction_id: returned?.id,
        gateway_txn_reference: refill.json().refill.gateway_reference,
        transaction_time: returned?.updated_at,
        amount: 60,
        type: "ach",
        status: "returned",
      },
    ]);
    // Below zero, nothing more is bought until the meter is refilled.
    expect((await ship(live)).statusCode).toBe(402);
  });

  it("shows the paying transaction in ship_multiple's top-level payment", async () => {
    const { account, live } = await shipper();
    const cardId = await addMethod(live, { ...VISA, default_payment_method: true });
    await autoRefill(live, 5, 100);
    const response = await call(live, "POST", "/shipments/ship_multiple", {
      shipments: [shipmentToBuy(), shipmentToBuy()],
    });
    expect(response.statusCode).toBe(201);
    const [refill] = await transactions(account.accountId);
    expect(response.json().payment).toEqual({
      currency: "USD",
      amount: (2 * priceCents) / 100,
      amount_includes_shipping: true,
      payment_method_id: cardId,
      payment_transaction_id: refill?.id,
    });
  });

  it("never overdraws when labels are bought in parallel against a small balance, nor loses a debit", async () => {
    const { account, live } = await shipper();
    const affordable = 3;
    await fundMeter(t.services, account, "production", affordable * priceCents + priceCents - 1);
    const answers = await Promise.all(Array.from({ length: 10 }, () => ship(live)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([...Array(affordable).fill(201), ...Array(10 - affordable).fill(402)]);
    const debits = await t.services.db
      .selectFrom("meter_entries")
      .selectAll()
      .where("account_id", "=", account.accountId)
      .where("mode", "=", "production")
      .where("kind", "=", "label_purchase")
      .execute();
    expect(debits).toHaveLength(affordable);
    expect((await shipments(account.accountId)).filter((s) => s.status === "shipped")).toHaveLength(affordable);
    expect(Math.round((await meter(live)).balance * 100)).toBe(priceCents - 1);
  });

  it("keeps tenants apart: another account's meter settings and methods are its own", async () => {
    const { merchant, other } = await createTestTenants(t.services);
    const cardId = await addMethod(liveAuth(merchant), VISA);
    expect((await autoRefill(liveAuth(merchant), 10, 20)).statusCode).toBe(200);
    expect(await meter(liveAuth(other))).toMatchObject({ refill_trigger_balance: null, refill_amount: null });
    expect((await call(liveAuth(other), "DELETE", `/payment_methods/${cardId}`)).statusCode).toBe(404);
  });
});
