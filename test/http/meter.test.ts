import { describe, expect, it } from "vitest";
import { appendMeterEntry } from "../../src/domain/meter/meter.repository.js";
import { SANDBOX_DECLINED_BANK_ACCOUNT, SANDBOX_DECLINED_CARD } from "../../src/payments/sandbox-gateway.js";
import { createTestAccount, liveAuth, type TestAccount, tenantsApp } from "../helpers/app.js";
import { BANK, VISA } from "../helpers/payment-methods.js";

describe("the postage meter", () => {
  const s = tenantsApp();
  let cardId: number;

  const call = (
    auth: TestAccount["auth"],
    method: "GET" | "POST" | "PUT",
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) => s.t.app.inject({ method, url: `/api/v2${url}`, headers: { ...auth, ...headers }, payload });
  const meter = async (auth: TestAccount["auth"]) => (await call(auth, "GET", "/meter")).json().meter;
  const refill = (auth: TestAccount["auth"], body: Record<string, unknown>, headers?: Record<string, string>) =>
    call(auth, "POST", "/meter/refill", body, headers);
  const addMethod = async (auth: TestAccount["auth"], method: Record<string, unknown>) =>
    (await call(auth, "POST", "/payment_methods", { payment_method: method })).json().payment_method.id as number;
  const refills = (accountId: number) =>
    s.t.services.db
      .selectFrom("meter_entries")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("kind", "=", "refill")
      .where("status", "=", "posted")
      .execute();

  it("opens with every key: the test meter funded with sandbox credit, the production meter at zero", async () => {
    const response = await call(s.merchant.auth, "GET", "/meter");
    expect(response.statusCode).toBe(200);
    const opened = { currency: "USD", pending_refunds: 0, pending_refund_count: 0 };
    const off = { refill_trigger_balance: null, refill_amount: null };
    expect(response.json()).toEqual({ meter: { ...opened, balance: 1000, ...off } });
    expect(await meter(liveAuth(s.merchant))).toEqual({ ...opened, balance: 0, ...off });
  });

  it("refuses a refill without a default payment method (409)", async () => {
    const first = await addMethod(s.merchant.auth, VISA);
    await call(s.merchant.auth, "PUT", `/payment_methods/${first}`, {
      payment_method: { default_payment_method: false },
    });
    const response = await refill(s.merchant.auth, { amount: 25 });
    expect(response.statusCode).toBe(409);
    expect(response.json().error_code).toBe("meter.no_payment_method");
    expect(await refills(s.merchant.accountId)).toEqual([]);
  });

  it("charges the default method and appends the refill to the ledger (201)", async () => {
    cardId = await addMethod(s.merchant.auth, { ...VISA, default_payment_method: true });
    const response = await refill(s.merchant.auth, { amount: 25.5 });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      refill: {
        id: expect.any(Number),
        payment_transaction_id: expect.any(Number),
        amount: 25.5,
        payment_method_id: cardId,
        gateway_reference: expect.stringMatching(/^sbx_txn_[0-9a-f]{20}$/),
        description: "Refill charged to visa ending 4242",
        created_at: "2026-01-15T15:00:00.000Z",
      },
      meter: {
        currency: "USD",
        balance: 1025.5,
        pending_refunds: 0,
        pending_refund_count: 0,
        refill_trigger_balance: null,
        refill_amount: null,
      },
    });
    const [entry] = await refills(s.merchant.accountId);
    expect(entry).toMatchObject({ amount_cents: 2550, status: "posted", mode: "test", payment_method_id: cardId });
  });

  it("adds in whole cents: 10.10 + 20.20 is exactly 30.30 more", async () => {
    const before = (await meter(s.merchant.auth)).balance;
    expect((await refill(s.merchant.auth, { amount: 10.1 })).statusCode).toBe(201);
    expect((await refill(s.merchant.auth, { amount: "20.20" })).statusCode).toBe(201);
    expect((await meter(s.merchant.auth)).balance).toBe(before + 30.3);
    expect(JSON.stringify(await meter(s.merchant.auth))).toContain('"balance":1055.8,');
  });

  it.each([
    [{ amount: 10.005 }, 422, "meter.invalid_amount"],
    [{ amount: 0.5 }, 400, "request.invalid"],
    [{ amount: 10_000.01 }, 400, "request.invalid"],
    [{}, 400, "request.invalid"],
    [{ amount: true }, 400, "request.invalid"],
    [{ amount: false }, 400, "request.invalid"],
    [{ amount: null }, 400, "request.invalid"],
    [{ amount: "0x10" }, 400, "request.invalid"],
    [{ amount: "1e2" }, 400, "request.invalid"],
    [{ amount: " 16" }, 400, "request.invalid"],
    [{ amount: "" }, 400, "request.invalid"],
    [{ amount: "Infinity" }, 400, "request.invalid"],
    [{ amount: { dollars: 16 } }, 400, "request.invalid"],
    [{ amount: "0.50" }, 400, "request.invalid"],
    [{ amount: "10000.01" }, 400, "request.invalid"],
    [{ amount: "10.005" }, 422, "meter.invalid_amount"],
  ])("refuses the refill %j (%i %s)", async (body, status, code) => {
    const before = (await refills(s.merchant.accountId)).length;
    const response = await refill(s.merchant.auth, body);
    expect(response.statusCode).toBe(status);
    expect(response.json().error_code).toBe(code);
    expect(await refills(s.merchant.accountId)).toHaveLength(before);
  });

  it("takes a decimal string as exact dollars: 16.10 and 10000.00", async () => {
    const before = (await refills(s.merchant.accountId)).length;
    const small = await refill(s.merchant.auth, { amount: "16.10" });
    expect(small.statusCode).toBe(201);
    expect(small.json().refill.amount).toBe(16.1);
    const large = await refill(s.merchant.auth, { amount: "10000.00" });
    expect(large.statusCode).toBe(201);
    expect(large.json().refill.amount).toBe(10_000);
    expect(await refills(s.merchant.accountId)).toHaveLength(before + 2);
  });

  it("charges a named method instead of the default", async () => {
    const bankId = await addMethod(s.merchant.auth, BANK);
    const response = await refill(s.merchant.auth, { amount: 5, payment_method_id: bankId });
    expect(response.statusCode).toBe(201);
    expect(response.json().refill).toMatchObject({
      payment_method_id: bankId,
      description: "Refill charged to National Test Bank ending 6789",
    });
  });

  it("leaves the balance as it was when the gateway declines (402), card or bank", async () => {
    const before = await meter(s.merchant.auth);
    const count = (await refills(s.merchant.accountId)).length;
    for (const method of [
      { ...VISA, account_number: SANDBOX_DECLINED_CARD },
      { ...BANK, account_number: SANDBOX_DECLINED_BANK_ACCOUNT },
    ]) {
      const id = await addMethod(s.merchant.auth, method);
      const response = await refill(s.merchant.auth, { amount: 100, payment_method_id: id });
      expect(response.statusCode).toBe(402);
      expect(response.json().error_code).toBe("meter.payment_declined");
    }
    expect(await meter(s.merchant.auth)).toEqual(before);
    expect(await refills(s.merchant.accountId)).toHaveLength(count);
  });

  it("charges once for a refill retried with the same Idempotency-Key", async () => {
    const count = (await refills(s.merchant.accountId)).length;
    const first = await refill(s.merchant.auth, { amount: 7 }, { "idempotency-key": "refill-7" });
    const again = await refill(s.merchant.auth, { amount: 7 }, { "idempotency-key": "refill-7" });
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(await refills(s.merchant.accountId)).toHaveLength(count + 1);
  });

  it("derives the balance from the ledger: label charges spend it, held refunds are pending until posted", async () => {
    const account = await createTestAccount(s.t.services);
    const live = { authorization: `Bearer ${account.keys.production}` };
    await addMethod(live, { ...VISA, default_payment_method: true });
    await refill(live, { amount: 50 });
    const entry = (amount_cents: number, kind: "label_purchase" | "refund", status: "posted" | "held") =>
      appendMeterEntry(s.t.services.db, {
        account_id: account.accountId,
        mode: "production",
        kind,
        amount_cents,
        shipment_id: null,
        description: kind,
        status,
        available_at: "2026-01-15T15:00:00.000Z",
        created_at: "2026-01-15T15:00:00.000Z",
      });
    await entry(-1234, "label_purchase", "posted");
    await entry(-866, "label_purchase", "posted");
    await entry(866, "refund", "held");
    expect(await meter(live)).toMatchObject({
      currency: "USD",
      balance: 29,
      pending_refunds: 8.66,
      pending_refund_count: 1,
    });
    // The test key's meter of the same account is another meter, opened with sandbox credit.
    expect((await meter(account.auth)).balance).toBe(1000);
  });

  it("sends each charge, accepted or rejected, as a payment_status event with eHub's payload", async () => {
    const account = await createTestAccount(s.t.services);
    const goodId = await addMethod(account.auth, { ...VISA, default_payment_method: true });
    const badId = await addMethod(account.auth, { ...BANK, account_number: SANDBOX_DECLINED_BANK_ACCOUNT });
    const accepted = (await refill(account.auth, { amount: 12.34 })).json().refill;
    expect((await refill(account.auth, { amount: 20, payment_method_id: badId })).statusCode).toBe(402);

    const events = (await call(account.auth, "GET", "/events?stream=payment_status")).json().events;
    expect(events.map((e: { payload: unknown }) => e.payload)).toEqual([
      {
        payment_method_id: goodId,
        payment_transaction_id: accepted.payment_transaction_id,
        gateway_txn_reference: accepted.gateway_reference,
        transaction_time: "2026-01-15T15:00:00.000Z",
        amount: 12.34,
        type: "cc",
        status: "accepted",
      },
      {
        payment_method_id: badId,
        payment_transaction_id: expect.any(Number),
        gateway_txn_reference: expect.stringMatching(/^sbx_txn_/),
        transaction_time: "2026-01-15T15:00:00.000Z",
        amount: 20,
        type: "ach",
        status: "rejected",
      },
    ]);
    // The rejected charge is a payment transaction, not a ledger entry: the balance is as it was.
    expect((await meter(account.auth)).balance).toBe(1012.34);
    expect((await call(s.other.auth, "GET", "/events?stream=payment_status")).json().events).toEqual([]);
  });

  describe("walls between tenants", () => {
    it("another account cannot charge this account's method (404) and has its own meter", async () => {
      const response = await refill(s.other.auth, { amount: 10, payment_method_id: cardId });
      expect(response.statusCode).toBe(404);
      expect(response.json().error_code).toBe("payment_method.not_found");
      expect((await meter(s.other.auth)).balance).toBe(1000);
    });

    it("production keys cannot charge a test method (404)", async () => {
      const live = { authorization: `Bearer ${s.merchant.keys.production}` };
      expect((await refill(live, { amount: 10, payment_method_id: cardId })).statusCode).toBe(404);
      expect((await meter(live)).balance).toBe(0);
    });

    it("a child has its own meter, and there is no child form", async () => {
      expect((await meter(s.child.auth)).balance).toBe(1000);
      expect((await call(s.merchant.auth, "GET", `/customers/${s.child.accountId}/meter`)).statusCode).toBe(404);
      expect((await refill(s.child.auth, { amount: 10, payment_method_id: cardId })).statusCode).toBe(404);
    });
  });
});
