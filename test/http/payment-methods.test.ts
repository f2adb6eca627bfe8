import { beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_DECLINED_CARD } from "../../src/payments/sandbox-gateway.js";
import { apiCaller, createTestAccount, liveAuth, type TestAccount, tenantsApp } from "../helpers/app.js";
import { BANK, BILLING, VISA } from "../helpers/payment-methods.js";

const METHOD_KEYS = [
  "id",
  "type",
  "billing_location",
  "account_number",
  "brand",
  "expiry_month",
  "expiry_year",
  "default_payment_method",
].sort();

describe("payment methods", () => {
  const s = tenantsApp();

  const call = apiCaller(() => s.t);
  const add = (auth: TestAccount["auth"], method: Record<string, unknown>) =>
    call(auth, "POST", "/payment_methods", { payment_method: method });

  it("adds a card: 201, every documented key, brand from the number, only the last 4 digits", async () => {
    const created = await add(s.merchant.auth, VISA);
    expect(created.statusCode).toBe(201);
    const method = created.json().payment_method;
    expect(Object.keys(method).sort()).toEqual(METHOD_KEYS);
    expect(method).toMatchObject({
      type: "cc",
      account_number: "4242",
      brand: "visa",
      expiry_month: 12,
      expiry_year: 2030,
      // The account's first method: it had no default, so this one is.
      default_payment_method: true,
    });
    expect(method.billing_location).toMatchObject({ ...BILLING, company: null, address2: null, phone: null });
    expect(created.body).not.toContain("4242424242424242");
    expect(created.body).not.toContain('"123"');

    const fetched = await call(s.merchant.auth, "GET", `/payment_methods/${method.id}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual({ payment_method: method });
  });

  it("makes the first method the default when the account has none, and leaves later ones alone", async () => {
    const account = await createTestAccount(s.t.services);
    const first = (await add(account.auth, BANK)).json().payment_method;
    expect(first.default_payment_method).toBe(true);
    const second = (await add(account.auth, VISA)).json().payment_method;
    expect(second.default_payment_method).toBe(false);
    // Asked not to be the default, a first method is not.
    const other = await createTestAccount(s.t.services);
    const declined = (await add(other.auth, { ...VISA, default_payment_method: false })).json().payment_method;
    expect(declined.default_payment_method).toBe(false);
    // With the default unset, the next method added becomes it.
    await call(account.auth, "PUT", `/payment_methods/${first.id}`, {
      payment_method: { default_payment_method: false },
    });
    const third = (await add(account.auth, VISA)).json().payment_method;
    expect(third.default_payment_method).toBe(true);
    // Production keys have their own methods, and so their own first default.
    expect((await add(liveAuth(account), VISA)).json().payment_method.default_payment_method).toBe(true);
  });

  it("names the brand of American Express (4-digit CVV) and Mastercard", async () => {
    const amex = await add(s.merchant.auth, { ...VISA, account_number: "378282246310005", verification_code: "1234" });
    expect(amex.statusCode).toBe(201);
    expect(amex.json().payment_method).toMatchObject({ brand: "amex", account_number: "0005" });
    const mastercard = await add(s.merchant.auth, { ...VISA, account_number: "5555-5555-5555-4444" });
    expect(mastercard.json().payment_method).toMatchObject({ brand: "mastercard", account_number: "4444" });
  });

  it("adds a bank account: the bank's name as brand, no expiry, no billing location when none is given", async () => {
    const created = await add(s.merchant.auth, BANK);
    expect(created.statusCode).toBe(201);
    expect(created.json().payment_method).toEqual({
      id: expect.any(Number),
      type: "ach",
      billing_location: null,
      account_number: "6789",
      brand: "National Test Bank",
      expiry_month: null,
      expiry_year: null,
      default_payment_method: false,
    });
  });

  it.each([
    ["a number failing the Luhn check", { account_number: "4242424242424241" }, "payment_method.invalid_card_number"],
    ["a number of no known issuer", { account_number: "9999999999999995" }, "payment_method.invalid_card_number"],
    ["letters for a number", { account_number: "4242abcd42424242" }, "payment_method.invalid_card_number"],
    ["an expiry that is not MMYY", { expiry: "12/30" }, "payment_method.invalid_expiry"],
    ["month 13", { expiry: "1330" }, "payment_method.invalid_expiry"],
    ["a past month (by the clock)", { expiry: "1225" }, "payment_method.card_expired"],
    ["a 4-digit CVV on a Visa", { verification_code: "1234" }, "payment_method.invalid_verification_code"],
    [
      "a 3-digit CVV on an Amex",
      { account_number: "378282246310005", verification_code: "123" },
      "payment_method.invalid_verification_code",
    ],
    ["no CVV", { verification_code: undefined }, "payment_method.field_required"],
    ["no expiry", { expiry: undefined }, "payment_method.field_required"],
  ])("refuses a card with %s (422, its code, the number not repeated)", async (_, change, code) => {
    const response = await add(s.merchant.auth, { ...VISA, ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ status: "error", error_code: code, error_message: expect.any(String) });
    expect(response.body).not.toMatch(/424242|378282/);
  });

  it("accepts a card in its expiry month", async () => {
    s.t.clock.set("2026-01-31T23:59:59.000Z");
    expect((await add(s.merchant.auth, { ...VISA, expiry: "0126" })).statusCode).toBe(201);
    s.t.clock.set("2026-02-01T00:00:00.000Z");
    expect((await add(s.merchant.auth, { ...VISA, expiry: "0126" })).json().error_code).toBe(
      "payment_method.card_expired",
    );
    s.t.clock.set("2026-01-15T15:00:00.000Z");
  });

  it.each([
    [
      "a routing number failing the ABA checksum",
      { routing_number: "021000022" },
      "payment_method.invalid_routing_number",
    ],
    ["an 8-digit routing number", { routing_number: "02100002" }, "payment_method.invalid_routing_number"],
    ["a 3-digit account number", { account_number: "123" }, "payment_method.invalid_account_number"],
    ["no bank name", { bank_name: undefined }, "payment_method.field_required"],
    ["no account type", { bank_account_type: undefined }, "payment_method.field_required"],
    ["no holder type", { account_holder_type: undefined }, "payment_method.field_required"],
    ["no routing number", { routing_number: undefined }, "payment_method.field_required"],
  ])("refuses a bank account with %s (422, its code)", async (_, change, code) => {
    const response = await add(s.merchant.auth, { ...BANK, ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json().error_code).toBe(code);
  });

  it("refuses an unknown type or account type by schema (400)", async () => {
    expect((await add(s.merchant.auth, { ...VISA, type: "paypal" })).json().error_code).toBe("request.invalid");
    expect((await add(s.merchant.auth, { ...BANK, bank_account_type: "money_market" })).statusCode).toBe(400);
    expect((await call(s.merchant.auth, "POST", "/payment_methods", {})).statusCode).toBe(400);
  });

  describe("the default", () => {
    let scope: TestAccount;
    beforeAll(async () => {
      scope = await createTestAccount(s.t.services);
    });
    const list = async () =>
      (await call(scope.auth, "GET", "/payment_methods")).json().payment_methods as Array<{
        id: number;
        default_payment_method: boolean;
      }>;

    it("is one per account: a new default unsets the old, by POST or PUT", async () => {
      const first = (await add(scope.auth, { ...VISA, default_payment_method: true })).json().payment_method;
      expect(first.default_payment_method).toBe(true);
      const second = (await add(scope.auth, { ...BANK, default_payment_method: true })).json().payment_method;
      expect(second.default_payment_method).toBe(true);
      expect((await list()).filter((m) => m.default_payment_method).map((m) => m.id)).toEqual([second.id]);

      const made = await call(scope.auth, "PUT", `/payment_methods/${first.id}`, {
        payment_method: { default_payment_method: true },
      });
      expect(made.statusCode).toBe(200);
      expect(Object.keys(made.json().payment_method).sort()).toEqual(METHOD_KEYS);
      expect(made.json().payment_method.default_payment_method).toBe(true);
      expect((await list()).filter((m) => m.default_payment_method).map((m) => m.id)).toEqual([first.id]);
    });

    it("keeps one default when many requests make different methods the default at once", async () => {
      const ids = await Promise.all(
        [0, 1, 2, 3].map(async () => (await add(scope.auth, BANK)).json().payment_method.id as number),
      );
      const answers = await Promise.all(
        ids.map((id) =>
          call(scope.auth, "PUT", `/payment_methods/${id}`, { payment_method: { default_payment_method: true } }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      expect((await list()).filter((m) => m.default_payment_method)).toHaveLength(1);
    });

    it("cannot be deleted (409); another method can (204), and is gone", async () => {
      const methods = await list();
      const current = methods.find((m) => m.default_payment_method);
      const spare = methods.find((m) => !m.default_payment_method);
      const refused = await call(scope.auth, "DELETE", `/payment_methods/${current?.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error_code).toBe("payment_method.is_default");

      const deleted = await call(scope.auth, "DELETE", `/payment_methods/${spare?.id}`);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe("");
      expect((await call(scope.auth, "GET", `/payment_methods/${spare?.id}`)).statusCode).toBe(404);
      expect((await list()).map((m) => m.id)).not.toContain(spare?.id);
      expect((await call(scope.auth, "DELETE", `/payment_methods/${spare?.id}`)).statusCode).toBe(404);
    });

    it("can be unset, after which the method can be deleted", async () => {
      const current = (await list()).find((m) => m.default_payment_method);
      const unset = await call(scope.auth, "PUT", `/payment_methods/${current?.id}`, {
        payment_method: { default_payment_method: false },
      });
      expect(unset.json().payment_method.default_payment_method).toBe(false);
      expect((await call(scope.auth, "DELETE", `/payment_methods/${current?.id}`)).statusCode).toBe(204);
    });
  });

  it("updates a card's expiry and billing location, checking the expiry", async () => {
    const card = (await add(s.merchant.auth, VISA)).json().payment_method;
    const changed = await call(s.merchant.auth, "PUT", `/payment_methods/${card.id}`, {
      payment_method: { expiry: "0631", billing_location: { ...BILLING, city: "Dallas" } },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().payment_method).toMatchObject({ expiry_month: 6, expiry_year: 2031, account_number: "4242" });
    expect(changed.json().payment_method.billing_location.city).toBe("Dallas");
    const expired = await call(s.merchant.auth, "PUT", `/payment_methods/${card.id}`, {
      payment_method: { expiry: "0125" },
    });
    expect(expired.json().error_code).toBe("payment_method.card_expired");
  });

  describe("a billing location is checked whole before anything is written", () => {
    let scope: TestAccount;
    beforeAll(async () => {
      scope = await createTestAccount(s.t.services);
    });
    const listed = async () => {
      const listing = await call(scope.auth, "GET", "/payment_methods");
      expect(listing.statusCode).toBe(200);
      return listing.json().payment_methods as Array<{ id: number; billing_location: Record<string, unknown> }>;
    };
    const stored = async (id: number) =>
      (
        await s.t.services.db
          .selectFrom("payment_methods")
          .select("billing_location")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).billing_location;

    it("drops a phone (not part of a billing address) and unknown fields, on POST and PUT", async () => {
      const extra = { ...BILLING, phone: 5125550100, email: "ada@example.com", fax: { number: 1 }, notes: [1, 2] };
      const created = await add(scope.auth, { ...VISA, billing_location: extra });
      expect(created.statusCode).toBe(201);
      const method = created.json().payment_method;
      expect(method.billing_location).toMatchObject({ ...BILLING, phone: null, email: null });
      expect(JSON.parse((await stored(method.id)) ?? "null")).toEqual(BILLING);

      const changed = await call(scope.auth, "PUT", `/payment_methods/${method.id}`, {
        payment_method: { billing_location: { ...extra, city: "Dallas" }, surprise: true },
      });
      expect(changed.statusCode).toBe(200);
      expect(JSON.parse((await stored(method.id)) ?? "null")).toEqual({ ...BILLING, city: "Dallas" });
      expect((await listed()).map((m) => m.id)).toEqual([method.id]);
    });

    it("refuses a wrongly typed field with 400 and writes nothing", async () => {
      const before = (await listed()).length;
      for (const billing_location of [
        { ...BILLING, city: { name: "Austin" } },
        { ...BILLING, address2: ["a", "b"] },
        { ...BILLING, postal_code: undefined },
      ]) {
        const refused = await add(scope.auth, { ...VISA, billing_location });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({
          status: "error",
          error_code: "request.invalid",
          error_message: expect.any(String),
        });
      }
      expect(await listed()).toHaveLength(before);
    });

    it("lists a method whose billing location an older version stored with odd values", async () => {
      const method = (await add(scope.auth, VISA)).json().payment_method;
      await s.t.services.db
        .updateTable("payment_methods")
        .set({
          billing_location: JSON.stringify({
            ...BILLING,
            phone: 5125550100,
            company: { name: "x" },
            fax: [1],
            city: true,
          }),
        })
        .where("id", "=", method.id)
        .execute();
      const shown = (await listed()).find((m) => m.id === method.id);
      expect(shown?.billing_location).toMatchObject({
        first_name: "Ada",
        phone: "5125550100",
        company: null,
        city: null,
      });
      expect(shown?.billing_location).not.toHaveProperty("fax");
      const one = await call(scope.auth, "GET", `/payment_methods/${method.id}`);
      expect(one.statusCode).toBe(200);
      expect(one.json().payment_method.billing_location).toEqual(shown?.billing_location);
    });
  });

  it("accepts a sandbox test number that the gateway will decline when charged", async () => {
    const created = await add(s.merchant.auth, { ...VISA, account_number: SANDBOX_DECLINED_CARD });
    expect(created.statusCode).toBe(201);
    expect(created.json().payment_method.account_number).toBe("0002");
  });

  describe("walls between tenants", () => {
    let cardId: number;
    beforeAll(async () => {
      cardId = (await add(s.merchant.auth, VISA)).json().payment_method.id;
    });

    it("another account gets 404 for every operation on the id and never sees it listed", async () => {
      for (const [method, payload] of [
        ["GET", undefined],
        ["PUT", { payment_method: { default_payment_method: true } }],
        ["DELETE", undefined],
      ] as const) {
        const response = await call(s.other.auth, method, `/payment_methods/${cardId}`, payload);
        expect(response.statusCode).toBe(404);
        expect(response.json().error_code).toBe("payment_method.not_found");
      }
      const listed = (await call(s.other.auth, "GET", "/payment_methods")).json().payment_methods;
      expect(listed.map((m: { id: number }) => m.id)).not.toContain(cardId);
      expect((await call(s.merchant.auth, "GET", `/payment_methods/${cardId}`)).statusCode).toBe(200);
    });

    it("test and production keys have separate payment methods", async () => {
      expect((await call(liveAuth(s.merchant), "GET", `/payment_methods/${cardId}`)).statusCode).toBe(404);
      expect((await call(liveAuth(s.merchant), "GET", "/payment_methods")).json().payment_methods).toEqual([]);
      const production = (await add(liveAuth(s.merchant), VISA)).json().payment_method;
      expect((await call(s.merchant.auth, "GET", `/payment_methods/${production.id}`)).statusCode).toBe(404);
    });

    it("a child's methods are its own: the parent's key does not reach them, and there is no child form", async () => {
      const childCard = (await add(s.child.auth, VISA)).json().payment_method;
      expect((await call(s.merchant.auth, "GET", `/payment_methods/${childCard.id}`)).statusCode).toBe(404);
      expect((await call(s.child.auth, "GET", `/payment_methods/${cardId}`)).statusCode).toBe(404);
      const childForm = await call(s.merchant.auth, "GET", `/customers/${s.child.accountId}/payment_methods`);
      expect(childForm.statusCode).toBe(404);
    });
  });
});
