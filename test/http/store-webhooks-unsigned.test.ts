import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

/** What an unsigned caller can send to the store webhook address without a store's secret. */
describe("unsigned requests to a store's webhook address", () => {
  let t: TestApp;
  let merchant: TestAccount;
  const stores: Record<string, number> = {};
  const call = apiCaller(() => t);

  const post = (storeId: number, payload: string | Buffer, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: `/api/v2/store_webhooks/${storeId}`,
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      payload,
    });
  const deliveries = async () =>
    Number(
      (
        await t.services.db
          .selectFrom("store_webhook_deliveries")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    const credentials = {
      woo: { site_url: "https://shop.example.com", consumer_key: "ck", consumer_secret: "cs", webhook_secret: "s" },
      wooWithoutSecret: { site_url: "https://shop.example.com", consumer_key: "ck", consumer_secret: "cs" },
      shopify: { shop_domain: "mugs.myshopify.com", access_token: `shpat_${"1".repeat(32)}`, webhook_secret: "s" },
    };
    for (const [name, creds] of Object.entries(credentials)) {
      const created = await call(merchant.auth, "POST", "/order_stores", {
        order_store: { name, service_type: name === "shopify" ? "shopify" : "woocommerce", credentials: creds },
      });
      expect(created.statusCode, created.body).toBe(201);
      stores[name] = created.json().order_store.id;
    }
    const custom = await call(merchant.auth, "POST", "/order_stores", {
      order_store: { name: "custom", service_type: "custom" },
    });
    stores.custom = custom.json().order_store.id;
  });
  afterAll(async () => t.close());

  it("acknowledge WooCommerce's ping and write nothing, however many arrive", async () => {
    for (let n = 0; n < 20; n += 1) {
      const ping = await post(stores.woo as number, `webhook_id=${"9".repeat(15)}${n}`);
      expect(ping.statusCode, ping.body).toBe(200);
      expect(ping.json()).toMatchObject({ received: true, topic: "ping" });
    }
    expect(await deliveries()).toBe(0);
  });

  it("refuse a body larger than a platform sends before reading it, the same for any store id", async () => {
    const huge = `webhook_id=${"1".repeat(900_000)}`;
    const answers = await Promise.all([post(stores.woo as number, huge), post(999_999, huge)]);
    for (const answer of answers) expect(answer.statusCode).toBe(413);
    expect(answers[0]?.body).toBe(answers[1]?.body);
    expect(await deliveries()).toBe(0);
  });

  it("answer every refusal alike: no word on whether the store exists, its platform or its secret", async () => {
    const order = JSON.stringify({ id: 1 });
    const forged = {
      "content-type": "application/json",
      "x-wc-webhook-signature": "Zm9yZ2Vk",
      "x-wc-webhook-topic": "order.created",
      "x-wc-webhook-delivery-id": "1",
    };
    const answers = await Promise.all(
      [stores.woo, stores.wooWithoutSecret, stores.shopify, stores.custom, 999_999].map((id) =>
        post(id as number, order, forged),
      ),
    );
    const bodies = new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`));
    expect([...bodies]).toHaveLength(1);
    expect(answers[0]?.statusCode).toBe(401);
    expect(await deliveries()).toBe(0);
  });
});
