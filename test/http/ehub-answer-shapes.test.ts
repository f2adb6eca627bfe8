import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiCaller,
  buildTestApp,
  createTestAccount,
  fundMeter,
  liveAuth,
  type TestAccount,
  type TestApp,
} from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { VISA } from "../helpers/payment-methods.js";
import { shipmentToBuy } from "../helpers/shipments.js";

/** The parts of eHub's answers real clients read as eHub writes them: the ship answer's `payment`, cancel failures. */
describe("eHub's answer shapes", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    await fundMeter(t.services, merchant);
    other = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, other.accountId);
  });
  afterAll(() => t.close());

  const ship = (auth: TestAccount["auth"], overrides: Record<string, unknown> = {}) =>
    call(auth, "POST", "/shipments/ship", { shipment: shipmentToBuy(overrides) });
  const cancel = (auth: TestAccount["auth"], id: number) => call(auth, "PUT", `/shipments/${id}/cancel`);

  describe("the ship answer's top-level payment", () => {
    it("is null beside the shipment when the balance paid, as in eHub's recorded answers", async () => {
      const response = await ship(merchant.auth);
      expect(response.statusCode, response.body).toBe(201);
      expect(Object.keys(response.json())).toEqual(["shipment", "payment"]);
      expect(response.json().payment).toBeNull();
      const live = await ship(liveAuth(merchant));
      expect(live.json().payment).toBeNull();
    });

    it("names the automatic refill that paid for the label, as ship_multiple and cancel do", async () => {
      const account = await createTestAccount(t.services);
      await connectSandboxCarriers(t.services, account.accountId);
      const live = liveAuth(account);
      const added = await call(live, "POST", "/payment_methods", {
        payment_method: { ...VISA, default_payment_method: true },
      });
      const cardId = added.json().payment_method.id as number;
      const settings = await call(live, "PUT", "/meter", { meter: { refill_trigger_balance: 20, refill_amount: 50 } });
      expect(settings.statusCode, settings.body).toBe(200);

      const response = await ship(live);
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      const [refill] = await t.services.db
        .selectFrom("payment_transactions")
        .selectAll()
        .where("account_id", "=", account.accountId)
        .execute();
      expect(body.payment).toEqual({
        currency: "USD",
        amount: body.shipment.shipping_service.rate,
        amount_includes_shipping: true,
        payment_method_id: cardId,
        payment_transaction_id: refill?.id,
      });
    });

    it("is documented in the OpenAPI answer of ship", async () => {
      const spec = (await t.app.inject({ method: "GET", url: "/api/v2/openapi.json" })).json();
      const answer = spec.paths["/api/v2/shipments/ship"].post.responses["201"].content["application/json"].schema;
      expect(answer.required).toEqual(expect.arrayContaining(["shipment", "payment"]));
      expect(answer.properties).toHaveProperty("payment");
      expect(answer.properties).toHaveProperty("warnings");
    });
  });

  it("ship_multiple names a retired service's substitute in warnings, by the shipment's place", async () => {
    const response = await call(merchant.auth, "POST", "/shipments/ship_multiple", {
      shipments: [shipmentToBuy(), shipmentToBuy({ service_id: 160 })],
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.shipments[1].shipping_service).toMatchObject({ service_id: 1172 });
    expect(body.warnings).toEqual([expect.stringMatching(/^shipments\[1\]: USPS Standard Post \(160\) is retired/)]);
  });

  describe("cancel failures", () => {
    /** The sentence inside a cancel failure's `error_message`, which is a JSON document. */
    const errorsOf = (body: { error_message: string }) =>
      (JSON.parse(body.error_message) as { errors: string[] }).errors;

    it("writes an already cancelled shipment's refusal as {errors: [sentence]}", async () => {
      const bought = (await ship(merchant.auth)).json().shipment;
      expect((await cancel(merchant.auth, bought.id)).statusCode).toBe(200);
      const again = await cancel(merchant.auth, bought.id);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ status: "error", error_code: "shipment.already_cancelled" });
      expect(errorsOf(again.json())).toEqual([`Shipment ${bought.id} is already cancel_pending.`]);
    });

    it("writes a closed void window the same way (a test label after a minute)", async () => {
      const bought = (await ship(merchant.auth)).json().shipment;
      t.clock.advance(61_000);
      const late = await cancel(merchant.auth, bought.id);
      expect(late.statusCode).toBe(409);
      expect(late.json().error_code).toBe("shipment.cancel_window_closed");
      expect(errorsOf(late.json())).toEqual([expect.stringContaining(`Shipment ${bought.id} cannot be cancelled`)]);
    });

    it("writes another account's shipment as not found, in the same document", async () => {
      const bought = (await ship(merchant.auth)).json().shipment;
      const foreign = await cancel(other.auth, bought.id);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error_code).toBe("shipment.not_found");
      expect(errorsOf(foreign.json())).toEqual([`No shipment with id ${bought.id}.`]);
    });

    it("leaves a request refused before the cancel (no key) in the plain error body", async () => {
      const response = await t.app.inject({ method: "PUT", url: "/api/v2/shipments/1/cancel" });
      expect(response.statusCode).toBe(401);
      expect(() => JSON.parse(response.json().error_message)).toThrow();
    });
  });
});
