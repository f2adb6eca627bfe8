import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, buildTestApp, createTestAccount, liveAuth, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { deferred } from "../helpers/deferred.js";
import { VISA } from "../helpers/payment-methods.js";
import { waitFor } from "../helpers/processes.js";
import { shipmentToBuy } from "../helpers/shipments.js";

describe("a purchase waiting for another purchase's automatic refill", () => {
  let t: TestApp;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("wakes as soon as the refill settles, without the clock moving, and buys on it without a second charge", async () => {
    const account = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, account.accountId);
    const live = liveAuth(account);
    const method = await call(live, "POST", "/payment_methods", {
      payment_method: { ...VISA, default_payment_method: true },
    });
    expect(method.statusCode).toBe(201);
    const settings = await call(live, "PUT", "/meter", { meter: { refill_trigger_balance: 5, refill_amount: 200 } });
    expect(settings.statusCode).toBe(200);

    // The first charge reaches the gateway and stays there until the test lets it answer.
    const gateway = t.services.payments;
    const charge = gateway.charge.bind(gateway);
    const charging = deferred<void>();
    const answer = deferred<void>();
    gateway.charge = async (...args) => {
      charging.resolve();
      await answer.promise;
      return charge(...args);
    };
    const ship = () => call(live, "POST", "/shipments/ship", { shipment: shipmentToBuy() });
    const first = ship();
    await charging.promise;
    const second = ship();
    await waitFor(
      () => "the second purchase to wait for the refill in flight",
      () => t.clock.nextWake(),
    );
    const asleepAt = t.clock.now();

    answer.resolve();
    expect((await first).statusCode).toBe(201);
    expect((await second).statusCode).toBe(201);
    expect(t.clock.now()).toEqual(asleepAt);
    const charges = await t.services.db
      .selectFrom("payment_transactions")
      .select(["status", "amount_cents"])
      .where("account_id", "=", account.accountId)
      .execute();
    expect(charges).toEqual([{ status: "accepted", amount_cents: 20_000 }]);
  });
});
