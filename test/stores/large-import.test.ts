import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrderStore } from "../../src/domain/orders/order-stores.js";
import { syncOrderStore } from "../../src/domain/orders/sync-order-store.js";
import { StoreConnectors } from "../../src/stores/registry.js";
import { shopifyPlatform } from "../../src/stores/shopify/shopify-connector.js";
import { MAX_ORDERS_PER_PAGE } from "../../src/stores/shopify/shopify-wire.js";
import type { StorePlatform } from "../../src/stores/store-connector.js";
import { buildTestApp, createTestAccount, type TestApp } from "../helpers/app.js";
import { ShopifyStandIn, standInOrder } from "../stand-ins/shopify/shopify-stand-in.js";

/** A large shop imports in flat memory: pages are imported and dropped, never gathered. */
// Shopify's cost limit keeps a page to 10 orders: 5,000 orders are 500 pages, enough to see growth.
const ORDERS = Number(process.env.STORE_IMPORT_ORDERS ?? 5_000);
const PAGE = MAX_ORDERS_PER_PAGE;
const START = Date.parse("2025-01-01T00:00:00Z");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function heapAfterCollection(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe(`importing a Shopify store of ${ORDERS} orders`, () => {
  const standIn = new ShopifyStandIn();
  let t: TestApp;

  beforeAll(async () => {
    await standIn.start();
    t = await buildTestApp();
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await standIn.stop();
  });

  it("imports every order once, with heap use that does not grow with the store", { timeout: 900_000 }, async () => {
    const shop = standIn.addShop({
      orders: {
        count: ORDERS,
        at: (i) => standInOrder(i, new Date(START + i * 1000).toISOString()),
      },
    });
    // Heap samples taken as pages arrive, through the real connector (the platform entry only watches it).
    const samples: number[] = [];
    let pages = 0;
    const watched: StorePlatform = {
      ...shopifyPlatform,
      open: (credentials, settings) => {
        const connector = shopifyPlatform.open(credentials, { ...settings, baseUrl: standIn.baseUrl });
        return {
          ...connector,
          verifyWebhook: connector.verifyWebhook.bind(connector),
          verifyCredentials: connector.verifyCredentials.bind(connector),
          writeShipment: connector.writeShipment.bind(connector),
          fetchOrders: async (request) => {
            pages += 1;
            if (pages % 20 === 0) samples.push(heapAfterCollection());
            return connector.fetchOrders(request);
          },
        };
      },
    };
    t.services.storeConnectors = new StoreConnectors({ clock: t.clock, timeoutMs: 30_000, wait: async () => {} }, [
      watched,
    ]);
    const account = await createTestAccount(t.services);
    const store = await createOrderStore(t.services, { accountId: account.accountId, mode: "test" }, "shopify", {
      name: "Large shop",
      credentials: { shop_domain: shop.domain, access_token: shop.accessToken },
    });

    const state = await syncOrderStore(t.services, { storeId: store.id }, { pageSize: PAGE });
    expect(state).toMatchObject({ sync_status: "succeeded", sync_error: null });
    const count = await t.services.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("order_store_id", "=", store.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(ORDERS);
    expect(pages).toBe(Math.ceil(ORDERS / PAGE));

    // Holding the imported orders would take well over 100 MB; the heap after the first pages and
    // at the end of the import stay within a few MB of each other.
    const growthMb = (Math.max(...samples.slice(1)) - (samples[0] ?? 0)) / 1_048_576;
    console.info(`heap samples (MB): ${samples.map((s) => (s / 1_048_576).toFixed(1)).join(" ")}`);
    expect(samples.length).toBeGreaterThan(2);
    expect(growthMb).toBeLessThan(25);
  });
});
