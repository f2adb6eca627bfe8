import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestTenants, type TestAccount, type TestApp } from "../helpers/app.js";

const ORDER_KEYS = [
  "id",
  "order_store_type",
  "order_store_id",
  "order_store_name",
  "order_id",
  "external_id",
  "order_number",
  "sub_order_count",
  "order_date",
  "payment_status",
  "order_status",
  "shipment_status",
  "items_total",
  "tax_total",
  "total",
  "shipping_total",
  "currency",
  "presentment_currency",
  "notes",
  "tags",
  "items",
  "billing_address",
  "shipping_address",
  "external_customer_email",
  "external_customer_id",
  "shipping_method",
  "ship_by_date",
  "created_at",
  "updated_at",
  "warnings",
];
const ITEM_KEYS = [
  "id",
  "item_id",
  "name",
  "accounting_id",
  "accounting_number",
  "variant_name",
  "variant_id",
  "variant_option1",
  "variant_option2",
  "variant_option3",
  "image_src",
  "external_id",
  "sku",
  "alt_external_id",
  "weight",
  "length",
  "width",
  "height",
  "quantity",
  "price",
  "cost",
  "shipped_quantity",
  "remaining_quantity",
];
const CREATE_ITEM_KEYS = [
  "item_id",
  "name",
  "accounting_id",
  "accounting_number",
  "variant_name",
  "external_id",
  "sku",
  "alt_external_id",
  "weight",
  "quantity",
  "price",
  "cost",
];
const ADDRESS_KEYS = [
  "company",
  "first_name",
  "last_name",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "country",
  "postal_code",
  "phone",
  "email",
];
const sorted = (keys: readonly string[]) => [...keys].sort();

function anOrder(orderNumber: string, extra: Record<string, unknown> = {}) {
  return {
    order_id: "111111",
    order_number: orderNumber,
    order_date: "2024-08-28T21:00:33.162Z",
    payment_status: "unpaid",
    order_status: "active",
    tax_total: 0.2,
    shipping_total: 5,
    notes: "Gift wrap",
    tags: "tag1, tag2",
    external_customer_email: "ann@example.com",
    external_customer_id: "4521",
    shipping_method: "Expedited",
    ship_by_date: "2024-08-30",
    items: [
      { item_id: "77", name: "Mug", sku: "MUG-1", weight: 12, quantity: 3, price: 0.1, accounting_id: "9" },
      { item_id: "78", name: "Tea", sku: "TEA-1", weight: 4, quantity: 1, price: 8 },
    ],
    shipping_address: {
      first_name: "Ann",
      address1: "1 Main St",
      city: "Austin",
      state: "TX",
      country: "US",
      postal_code: "78701",
    },
    ...extra,
  };
}

describe("orders of custom stores", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let child: TestAccount;
  let storeId: number;
  let shopifyId: number;

  const call = (auth: TestAccount["auth"], method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v2${url}`, headers: auth, payload });
  const createStore = async (auth: TestAccount["auth"], store: object, prefix = "") =>
    (await call(auth, "POST", `${prefix}/order_stores`, { order_store: store })).json().order_store.id as number;

  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date("2026-03-02T15:00:00.000Z"));
    ({ merchant, other, child } = await createTestTenants(t.services));
    storeId = await createStore(merchant.auth, { name: "Web shop", service_type: "custom" });
    shopifyId = await createStore(merchant.auth, {
      name: "Shopify",
      service_type: "shopify",
      credentials: { shop_domain: "x.myshopify.com", access_token: `shpat_${"1".repeat(32)}` },
    });
  });
  afterAll(() => t.close());

  it("creates orders (201): the create answer's shape, totals worked out exactly in cents", async () => {
    const created = await call(merchant.auth, "POST", `/order_stores/${storeId}/orders`, {
      orders: [anOrder("UA1001")],
    });
    expect(created.statusCode).toBe(201);
    const [order] = created.json().orders;
    expect(Object.keys(order).sort()).toEqual(sorted(ORDER_KEYS.filter((key) => key !== "sub_order_count")));
    expect(order).toMatchObject({
      order_store_type: "custom",
      order_store_id: String(storeId),
      order_store_name: "Web shop",
      order_id: "111111",
      external_id: null,
      order_number: "UA1001",
      order_date: "2024-08-28T21:00:33.162Z",
      shipment_status: "pending",
      // 3 × 0.10 + 8.00 = 8.30 (a float sum would give 8.299999…); + 0.20 tax + 5.00 shipping
      items_total: 8.3,
      tax_total: 0.2,
      shipping_total: 5,
      total: 13.5,
      // A custom order names no currency: null, as for an imported order whose platform says none.
      currency: null,
      presentment_currency: null,
      ship_by_date: "2024-08-30T00:00:00.000Z",
    });
    expect(Object.keys(order.items[0]).sort()).toEqual(sorted(CREATE_ITEM_KEYS));
    expect(order.items[0]).toMatchObject({ item_id: "77", quantity: 3, price: 0.1, cost: 0.3, accounting_id: "9" });
    expect(Object.keys(order.shipping_address).sort()).toEqual(sorted(ADDRESS_KEYS));
    expect(order.billing_address).toEqual(Object.fromEntries(ADDRESS_KEYS.map((key) => [key, null])));
  });

  it("lists pending orders by default, filters on shipment_status and pages (list shape)", async () => {
    await call(merchant.auth, "POST", `/order_stores/${storeId}/orders`, {
      orders: [anOrder("UA1002"), anOrder("UA1003", { shipment_status: "shipped" })],
    });
    const pending = await call(merchant.auth, "GET", `/order_stores/${storeId}/orders?per_page=1&page=2`);
    expect(pending.statusCode).toBe(200);
    expect(pending.headers["x-total-count"]).toBe("2");
    const [order] = pending.json().orders;
    expect(order.order_number).toBe("UA1002");
    expect(Object.keys(order).sort()).toEqual(sorted([...ORDER_KEYS, "shipments"]));
    expect(order).toMatchObject({
      order_store_id: storeId,
      order_id: 111111,
      external_id: null,
      sub_order_count: "0",
      items_total: "8.3",
      tax_total: "0.2",
      shipping_total: "5.0",
      total: "13.5",
      external_customer_id: "4521",
      shipments: [],
    });
    expect(Object.keys(order.items[1]).sort()).toEqual(sorted(ITEM_KEYS));
    expect(order.items[1]).toMatchObject({ item_id: "78", quantity: "1.0", price: "8.0", cost: "8.0", weight: 4 });
    expect(typeof order.items[1].id).toBe("number");

    const shipped = (await call(merchant.auth, "GET", `/order_stores/${storeId}/orders?status=shipped`)).json().orders;
    expect(shipped.map((o: { order_number: string }) => o.order_number)).toEqual(["UA1003"]);
  });

  it("lists every order with status=all and refuses a status it does not know (400)", async () => {
    const all = await call(merchant.auth, "GET", `/order_stores/${storeId}/orders?status=all&per_page=1000`);
    expect(all.statusCode, all.body).toBe(200);
    const statuses = new Set(all.json().orders.map((o: { shipment_status: string }) => o.shipment_status));
    expect(statuses).toEqual(new Set(["pending", "shipped"]));
    expect(all.headers["x-total-count"]).toBe(String(all.json().orders.length));
    for (const status of ["pending", "partial", "shipped"]) {
      expect((await call(merchant.auth, "GET", `/order_stores/${storeId}/orders?status=${status}`)).statusCode).toBe(
        200,
      );
    }
    const bogus = await call(merchant.auth, "GET", `/order_stores/${storeId}/orders?status=bogus`);
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json()).toMatchObject({ status: "error", error_code: "request.invalid" });
    expect(bogus.json().error_message).toContain("status");
  });

  it("accepts an order whose shipping address has no phone, with a warning on the order", async () => {
    const created = await call(merchant.auth, "POST", `/order_stores/${storeId}/orders`, {
      orders: [
        anOrder("UA1090"),
        anOrder("UA1091", { shipping_address: { ...anOrder("x").shipping_address, phone: "5125550100" } }),
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const [noPhone, withPhone] = created.json().orders;
    expect(noPhone.warnings).toEqual([expect.stringContaining("phone")]);
    expect(withPhone.warnings).toEqual([]);
    const read = (await call(merchant.auth, "GET", `/order_stores/${storeId}/orders/UA1090`)).json().orders[0];
    expect(read.warnings).toEqual(noPhone.warnings);
  });

  it("retrieves one order as an array of one (retrieve shape)", async () => {
    const found = await call(merchant.auth, "GET", `/order_stores/${storeId}/orders/UA1001`);
    expect(found.statusCode).toBe(200);
    const orders = found.json().orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      order_number: "UA1001",
      order_store_id: storeId,
      order_id: 111111,
      sub_order_count: 0,
      items_total: "8.3",
      shipping_total: 5,
      external_customer_id: 4521,
      shipments: [],
    });
    expect(orders[0].items[0]).toMatchObject({ item_id: 77, accounting_id: 9, quantity: 3, price: "0.1", cost: "0.3" });
    const missing = await call(merchant.auth, "GET", `/order_stores/${storeId}/orders/NOPE`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: "error", error_code: "order.not_found" });
  });

  it("updates only the fields sent and answers the bare order (update shape)", async () => {
    t.clock.advance(60_000);
    const updated = await call(merchant.auth, "PUT", `/order_stores/${storeId}/orders/UA1001`, {
      order: { payment_status: "paid" },
    });
    expect(updated.statusCode).toBe(200);
    const order = updated.json();
    expect(Object.keys(order).sort()).toEqual(sorted(ORDER_KEYS));
    expect(order).toMatchObject({
      order_number: "UA1001",
      payment_status: "paid",
      order_status: "active",
      notes: "Gift wrap",
      order_store_id: String(storeId),
      sub_order_count: "0",
      items_total: "8.3",
      total: "13.5",
      updated_at: "2026-03-02T15:01:00.000Z",
    });
    expect(order.items).toHaveLength(2);
    expect(order.items[0]).toMatchObject({ quantity: 3, price: 0.1, cost: 0.3 });
    expect(typeof order.items[0].id).toBe("string");

    const items = await call(merchant.auth, "PUT", `/order_stores/${storeId}/orders/UA1001`, {
      order: { items: [{ name: "Bowl", quantity: 2, price: 12.5, image_src: "https://example.com/bowl.png" }] },
    });
    expect(items.json().items).toEqual([
      expect.objectContaining({
        name: "Bowl",
        quantity: 2,
        price: 12.5,
        cost: 25,
        image_src: "https://example.com/bowl.png",
      }),
    ]);
    const badAddress = await call(merchant.auth, "PUT", `/order_stores/${storeId}/orders/UA1001`, {
      order: { billing_address: { city: "Austin" } },
    });
    expect(badAddress.statusCode).toBe(400);
    expect(badAddress.json().error_code).toBe("request.invalid");
  });

  it("refuses a duplicate order number in the store (409), from the store or within the request", async () => {
    const again = await call(merchant.auth, "POST", `/order_stores/${storeId}/orders`, { orders: [anOrder("UA1001")] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: "error", error_code: "order.duplicate_number" });
    const twice = await call(merchant.auth, "POST", `/order_stores/${storeId}/orders`, {
      orders: [anOrder("UA2000"), anOrder("UA2000")],
    });
    expect(twice.statusCode).toBe(409);
    expect((await call(merchant.auth, "GET", `/order_stores/${storeId}/orders/UA2000`)).statusCode).toBe(404);
    const renamed = await call(merchant.auth, "PUT", `/order_stores/${storeId}/orders/UA1002`, {
      order: { order_number: "UA1001" },
    });
    expect(renamed.statusCode).toBe(409);
  });

  it("takes orders only in custom stores (422) and only in the caller's own stores (404)", async () => {
    const onShopify = await call(merchant.auth, "POST", `/order_stores/${shopifyId}/orders`, {
      orders: [anOrder("S1")],
    });
    expect(onShopify.statusCode).toBe(422);
    expect(onShopify.json()).toMatchObject({ status: "error", error_code: "order_store.not_custom" });
    const putShopify = await call(merchant.auth, "PUT", `/order_stores/${shopifyId}/orders/S1`, { order: {} });
    expect(putShopify.json().error_code).toBe("order_store.not_custom");
    expect((await call(merchant.auth, "GET", `/order_stores/${shopifyId}/orders`)).json().orders).toEqual([]);

    for (const request of [
      call(other.auth, "GET", `/order_stores/${storeId}/orders`),
      call(other.auth, "GET", `/order_stores/${storeId}/orders/UA1001`),
      call(other.auth, "POST", `/order_stores/${storeId}/orders`, { orders: [anOrder("X1")] }),
      call(other.auth, "PUT", `/order_stores/${storeId}/orders/UA1001`, { order: { payment_status: "paid" } }),
      call({ authorization: `Bearer ${merchant.keys.production}` }, "GET", `/order_stores/${storeId}/orders`),
      call(merchant.auth, "GET", "/order_stores/999999/orders"),
    ]) {
      const answer = await request;
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ status: "error", error_code: "order_store.not_found" });
    }
  });

  it("serves a child's store through the child form", async () => {
    const prefix = `/customers/${child.accountId}`;
    const childStore = await createStore(merchant.auth, { name: "Child shop", service_type: "custom" }, prefix);
    const created = await call(merchant.auth, "POST", `${prefix}/order_stores/${childStore}/orders`, {
      orders: [anOrder("C1")],
    });
    expect(created.statusCode).toBe(201);
    const own = (await call(child.auth, "GET", `/order_stores/${childStore}/orders/C1`)).json().orders;
    expect(own[0].order_number).toBe("C1");
    expect((await call(merchant.auth, "GET", `/order_stores/${childStore}/orders`)).statusCode).toBe(404);
    expect(
      (await call(other.auth, "GET", `/customers/${child.accountId}/order_stores/${childStore}/orders`)).statusCode,
    ).toBe(404);
  });
});
