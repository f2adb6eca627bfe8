import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import type { TestAccount, TestApp } from "../helpers/app.js";
import { type Dashboard, fillAddress, openDashboard } from "../helpers/dashboard-browser.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";

/**
 * The order pages in Chromium against a listening server: the stores with their sync state and
 * Sync now, a store's orders filtered by shipment status, and one order shipped in part (some of
 * its items) with a label rated and bought from the order's page in one call, then cancelled. The
 * test runs the jobs a worker would (the link of the label to the order) when the page waits for them.
 */
describe("the dashboard's order pages in a browser", () => {
  let dashboard: Dashboard;
  let t: TestApp;
  let merchant: TestAccount;
  let page: Page;
  let worker: Worker;
  let customStoreId: number;
  let shopifyStoreId: number;

  const api = async (method: "GET" | "POST", url: string, payload?: object) => {
    const answer = await t.app.inject({ method, url: `/api/v2${url}`, headers: merchant.auth, payload });
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    return answer.json();
  };
  const order = (order_number: string, extra: object = {}) => ({
    order_number,
    shipping_address: SALT_LAKE_RESIDENCE,
    items: [
      { sku: "MUG", name: "Mug", quantity: 2, price: 12 },
      { sku: "TEE", name: "Tee", quantity: 1, price: 20 },
    ],
    ...extra,
  });

  beforeAll(async () => {
    dashboard = await openDashboard();
    ({ t, merchant, page } = dashboard);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 50 });
    customStoreId = (await api("POST", "/order_stores", { order_store: { name: "Web shop", service_type: "custom" } }))
      .order_store.id;
    shopifyStoreId = (
      await api("POST", "/order_stores", {
        order_store: {
          name: "Mug shop",
          service_type: "shopify",
          credentials: { shop_domain: "mug-shop.myshopify.com", access_token: `shpat_${"1".repeat(32)}` },
        },
      })
    ).order_store.id;
    await api("POST", `/order_stores/${customStoreId}/orders`, {
      orders: [order("1001"), order("1002"), order("1003", { shipment_status: "shipped" })],
    });
    await dashboard.signIn();
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it("lists the stores with their sync state, and Sync now queues a platform store's import", async () => {
    await page.getByRole("link", { name: "Orders" }).click();
    await page.getByRole("heading", { name: "Order stores" }).waitFor();
    const state = (id: number) => page.getByTestId(`sync-state-${id}`);
    await state(customStoreId).getByText("Not synced: orders come through the API").waitFor();
    await state(shopifyStoreId).getByText("Never synced").waitFor();
    expect(await page.getByRole("button", { name: "Sync now: Web shop" }).count()).toBe(0);
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    await page.getByRole("button", { name: "Sync now: Mug shop" }).click();
    await state(shopifyStoreId).getByText("queued, last complete sync never").waitFor();
    expect((await api("GET", `/order_stores/${shopifyStoreId}/sync`)).sync.status).toBe("queued");
  });

  it("lists a store's orders and filters them by shipment status", async () => {
    await page.getByRole("link", { name: "Web shop" }).click();
    await page.getByRole("heading", { name: "Orders of Web shop" }).waitFor();
    await page.getByText("2 orders, page 1 of 1").waitFor();
    expect(await page.getByRole("link", { name: "1003" }).count()).toBe(0);
    await page.getByLabel("Shipment status").selectOption("shipped");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("1 order, page 1 of 1").waitFor();
    await page.getByRole("link", { name: "1003" }).waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    await page.getByLabel("Shipment status").selectOption("pending");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("2 orders, page 1 of 1").waitFor();
  });

  it("ships some of an order's items with a label rated and bought from the order", async () => {
    await page.getByRole("link", { name: "Ship order 1001" }).click();
    await page.getByRole("heading", { name: "Order 1001" }).waitFor();
    await page.getByLabel("Quantity of Mug to ship").fill("1");
    await page.getByLabel("Quantity of Tee to ship").fill("0");
    await fillAddress(page, "Ship from", LOS_ANGELES_WAREHOUSE);
    expect(await page.getByRole("group", { name: "Ship to" }).getByLabel("Street address").inputValue()).toBe(
      SALT_LAKE_RESIDENCE.address1,
    );
    await page.getByRole("button", { name: "Get rates" }).click();
    await page.getByRole("group", { name: "Rates" }).getByRole("radio").first().waitFor();
    await page.getByRole("button", { name: "Buy label and ship" }).click();
    await page.getByText("A label was bought for the order;").waitFor();
    await worker.drain();
    await page.getByText("The order shipment is recorded.").waitFor();
    await page.getByRole("cell", { name: "1 × Mug" }).waitFor();
    // Rating and buying a label in the browser, on a busy machine, outlasts the default bound.
  }, 60_000);

  it("records the shipment for the account, leaving the order's other items to ship, and opens its label", async () => {
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    const shipped = await t.services.db
      .selectFrom("order_shipments")
      .innerJoin("orders", "orders.id", "order_shipments.order_id")
      .innerJoin("order_stores", "order_stores.id", "orders.order_store_id")
      .innerJoin("parcels", "parcels.tracking_number", "order_shipments.tracking_number")
      .innerJoin("shipments", "shipments.id", "parcels.shipment_id")
      .select([
        "order_stores.account_id as storeAccount",
        "shipments.account_id as labelAccount",
        "shipments.id",
        "orders.shipment_status",
      ])
      .where("orders.order_number", "=", "1001")
      .execute();
    expect(shipped).toEqual([
      {
        storeAccount: merchant.accountId,
        labelAccount: merchant.accountId,
        id: expect.any(Number),
        shipment_status: "partial",
      },
    ]);
    const [after] = (await api("GET", `/order_stores/${customStoreId}/orders/1001`)).orders;
    expect(
      after.items.map((item: { sku: string; remaining_quantity: number }) => [item.sku, item.remaining_quantity]),
    ).toEqual([
      ["MUG", 1],
      ["TEE", 1],
    ]);

    expect(after.shipments[0].parcels[0].parcel_items).toEqual([expect.objectContaining({ quantity: 1 })]);

    await page.getByRole("link", { name: /^Open shipment / }).click();
    await page.getByRole("heading", { name: /^Shipment \w+$/ }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/shipments/${shipped[0]?.id}`);
    // The label was bought with the order's number: the shipments list shows it.
    await page.getByRole("link", { name: "Shipments", exact: true }).click();
    await page.getByRole("heading", { name: "Shipments" }).waitFor();
    await page.getByRole("cell", { name: "1001", exact: true }).waitFor();
    expect(dashboard.refused).toEqual([]);
    // The axe scan of the order's page, with its label form, is the slowest step of the file.
  }, 60_000);

  it("cancels the order's latest shipment from the order's page: the order is pending again", async () => {
    await page.goto(`${dashboard.base}/dashboard/#/stores/${customStoreId}/orders/1001`);
    await page.getByRole("heading", { name: "Order 1001" }).waitFor();
    await page.getByRole("button", { name: "Cancel latest shipment" }).click();
    await page.getByText("The order's latest shipment is cancelled.").waitFor();
    await page.getByRole("button", { name: "Cancel latest shipment" }).waitFor({ state: "detached" });
    const [after] = (await api("GET", `/order_stores/${customStoreId}/orders/1001`)).orders;
    expect(after.shipment_status).toBe("pending");
    expect(after.shipments).toEqual([]);
    expect(dashboard.refused).toEqual([]);
  });
});
