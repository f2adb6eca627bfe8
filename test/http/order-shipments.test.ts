import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

const SHIPMENT = {
  shipping_cost: 7.25,
  ship_date: "2026-03-02",
  tracking_number: "9400100000000000000001",
  carrier: "usps",
  service: "usps_ground_advantage",
  weight: 16,
  notify: false,
};

describe("shipping an order", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let base: string;

  const call = (
    auth: TestAccount["auth"],
    method: "GET" | "POST",
    url: string,
    payload?: object | string,
    type?: string,
  ) =>
    t.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: { ...auth, ...(type && { "content-type": type }) },
      payload,
    });
  const order = async (orderNumber: string) =>
    (await call(merchant.auth, "GET", `${base}/orders/${orderNumber}`)).json().orders[0];

  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date("2026-03-02T15:00:00.000Z"));
    merchant = await createTestAccount(t.services);
    other = await createTestAccount(t.services);
    const store = await call(merchant.auth, "POST", "/order_stores", {
      order_store: { name: "Web shop", service_type: "custom" },
    });
    base = `/order_stores/${store.json().order_store.id}`;
    await call(merchant.auth, "POST", `${base}/orders`, {
      orders: ["O1", "O2", "O3", "O4"].map((n) => ({
        order_number: n,
        items: [{ name: "Mug", quantity: 1, price: 9 }],
      })),
    });
  });
  afterAll(() => t.close());

  it("records the shipment (201, shipment.id) and marks the order shipped", async () => {
    const shipped = await call(merchant.auth, "POST", `${base}/orders/O1/shipments`, SHIPMENT);
    expect(shipped.statusCode).toBe(201);
    const { shipment } = shipped.json();
    expect(shipment).toEqual({ id: expect.any(Number), shipment_id: null });
    const after = await order("O1");
    expect(after.shipment_status).toBe("shipped");
    expect(after.shipments).toEqual([
      {
        id: shipment.id,
        external_id: null,
        shipment_id: null,
        carrier: "usps",
        service: "usps_ground_advantage",
        ship_date: "2026-03-02T00:00:00.000Z",
        tracking_number: "9400100000000000000001",
        weight: "16",
        shipping_cost: "7.25",
        insurance_type: null,
        insurance_amount: null,
        parcels: [
          {
            id: null,
            external_shipment_id: null,
            external_id: null,
            ship_date: "2026-03-02T00:00:00.000Z",
            postage_label: {},
            status: "shipped",
            length: null,
            width: null,
            height: null,
            weight: "16",
            package_type: null,
            tracking_number: "9400100000000000000001",
            shipping_cost: "7.25",
            insurance_amount: null,
            parcel_items: [expect.objectContaining({ id: expect.any(String), name: "Mug", quantity: 1 })],
            created_at: "2026-03-02T15:00:00.000Z",
            updated_at: "2026-03-02T15:00:00.000Z",
          },
        ],
        created_at: "2026-03-02T15:00:00.000Z",
        updated_at: "2026-03-02T15:00:00.000Z",
      },
    ]);
    const pending = (await call(merchant.auth, "GET", `${base}/orders`)).json().orders;
    expect(pending.map((o: { order_number: string }) => o.order_number)).not.toContain("O1");
  });

  it("takes the singular path, XML and form bodies as the same operation", async () => {
    const singular = await call(merchant.auth, "POST", `${base}/orders/O2/shipment`, SHIPMENT);
    expect(singular.statusCode).toBe(201);
    const xml = `<request><shipping_cost>7.25</shipping_cost><ship_date>2026-03-02</ship_date>
      <tracking_number>9400100000000000000003</tracking_number><carrier>usps</carrier>
      <service>usps_ground_advantage</service><notify>false</notify></request>`;
    expect((await call(merchant.auth, "POST", `${base}/orders/O3/shipments`, xml, "application/xml")).statusCode).toBe(
      201,
    );
    const form =
      "shipping_cost=7.25&ship_date=2026-03-02&tracking_number=9400100000000000000004&carrier=usps&service=usps_ground_advantage";
    expect(
      (await call(merchant.auth, "POST", `${base}/orders/O4/shipments`, form, "application/x-www-form-urlencoded"))
        .statusCode,
    ).toBe(201);
    for (const n of ["O2", "O3", "O4"]) {
      const shipped = await order(n);
      expect(shipped.shipment_status).toBe("shipped");
      expect(shipped.shipments[0].shipping_cost).toBe("7.25");
    }
  });

  it("requires the documented fields (400) and a known order (404)", async () => {
    const { tracking_number: _, ...without } = SHIPMENT;
    const missing = await call(merchant.auth, "POST", `${base}/orders/O1/shipments`, without);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ status: "error", error_code: "request.invalid" });
    const unknown = await call(merchant.auth, "POST", `${base}/orders/NOPE/shipments`, SHIPMENT);
    expect(unknown.json().error_code).toBe("order.not_found");
    const foreign = await call(other.auth, "POST", `${base}/orders/O1/shipments`, SHIPMENT);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error_code).toBe("order_store.not_found");
    const foreignCancel = await call(other.auth, "POST", `${base}/orders/O1/shipments/cancel`);
    expect(foreignCancel.statusCode).toBe(404);
  });

  it("cancels the shipment (201, ids as strings) and the order is pending again", async () => {
    const cancelled = await call(merchant.auth, "POST", `${base}/orders/O1/shipments/cancel`);
    expect(cancelled.statusCode).toBe(201);
    expect(cancelled.json().shipment).toEqual({ id: expect.stringMatching(/^\d+$/), shipment_id: null });
    const after = await order("O1");
    expect(after.shipment_status).toBe("pending");
    expect(after.shipments).toEqual([]);
    const again = await call(merchant.auth, "POST", `${base}/orders/O1/shipments/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: "error", error_code: "order.not_shipped" });
  });
  describe("partial shipments", () => {
    const shipItems = (orderNumber: string, items: object[], tracking: string) =>
      call(merchant.auth, "POST", `${base}/orders/${orderNumber}/shipments`, {
        ...SHIPMENT,
        tracking_number: tracking,
        items,
      });

    beforeAll(async () => {
      await call(merchant.auth, "POST", `${base}/orders`, {
        orders: [
          {
            order_number: "P1",
            items: [
              { name: "Mug", sku: "MUG", quantity: 2, price: 9 },
              { name: "Tee", sku: "TEE", item_id: "T-1", quantity: 1, price: 20 },
            ],
          },
        ],
      });
    });

    it("is partial while some items have not shipped, and shipped once all have", async () => {
      const first = await shipItems("P1", [{ sku: "MUG", quantity: 1 }], "T1");
      expect(first.statusCode, first.body).toBe(201);
      expect((await order("P1")).shipment_status).toBe("partial");
      const partialList = (await call(merchant.auth, "GET", `${base}/orders?status=partial`)).json().orders;
      expect(partialList.map((o: { order_number: string }) => o.order_number)).toEqual(["P1"]);

      // The order shows what shipped and what is left, and what the shipment's parcel carries.
      const partial = await order("P1");
      expect(
        partial.items.map((i: Record<string, unknown>) => [i.sku, i.shipped_quantity, i.remaining_quantity]),
      ).toEqual([
        ["MUG", 1, 1],
        ["TEE", 0, 1],
      ]);
      expect(partial.shipments[0].parcels).toHaveLength(1);
      expect(partial.shipments[0].parcels[0].parcel_items).toEqual([
        expect.objectContaining({ sku: "MUG", quantity: 1 }),
      ]);

      // The rest of the mugs (quantity defaults to what is left) and the tee by its item_id.
      const second = await shipItems("P1", [{ sku: "MUG" }, { item_id: "T-1", quantity: 1 }], "T2");
      expect(second.statusCode, second.body).toBe(201);
      const shipped = await order("P1");
      expect(shipped.shipment_status).toBe("shipped");
      expect(
        shipped.items.map((i: Record<string, unknown>) => [i.sku, i.shipped_quantity, i.remaining_quantity]),
      ).toEqual([
        ["MUG", 2, 0],
        ["TEE", 1, 0],
      ]);
      expect(shipped.shipments[1].parcels[0].parcel_items).toEqual([
        expect.objectContaining({ sku: "MUG", quantity: 1 }),
        expect.objectContaining({ sku: "TEE", quantity: 1 }),
      ]);
      expect(shipped.shipments.map((s: { tracking_number: string }) => s.tracking_number)).toEqual(["T1", "T2"]);
    });

    it("refuses an unknown item or more than is left (422), recording nothing", async () => {
      const unknown = await shipItems("P1", [{ sku: "HAT" }], "T9");
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json()).toMatchObject({ status: "error", error_code: "order.item_not_found" });
      const over = await shipItems("P1", [{ sku: "MUG", quantity: 1 }], "T9");
      expect(over.statusCode).toBe(422);
      expect(over.json().error_code).toBe("order.item_over_shipped");
      expect((await order("P1")).shipments).toHaveLength(2);
    });

    it("goes back to partial, then pending, as its shipments are cancelled", async () => {
      await call(merchant.auth, "POST", `${base}/orders/P1/shipments/cancel`);
      expect((await order("P1")).shipment_status).toBe("partial");
      await call(merchant.auth, "POST", `${base}/orders/P1/shipments/cancel`);
      expect((await order("P1")).shipment_status).toBe("pending");
    });

    it("ships the whole rest of the order when the shipment names no items", async () => {
      const byId = (await order("P1")).items.find((i: { sku: string }) => i.sku === "TEE").id;
      expect((await shipItems("P1", [{ id: byId }], "T3")).statusCode).toBe(201);
      expect((await order("P1")).shipment_status).toBe("partial");
      const rest = await call(merchant.auth, "POST", `${base}/orders/P1/shipments`, {
        ...SHIPMENT,
        tracking_number: "T4",
      });
      expect(rest.statusCode).toBe(201);
      expect((await order("P1")).shipment_status).toBe("shipped");
      // Nothing is left, so naming an item now ships too much of it.
      expect((await shipItems("P1", [{ sku: "MUG", quantity: 1 }], "T5")).json().error_code).toBe(
        "order.item_over_shipped",
      );
    });

    it("takes the items in a form body too", async () => {
      await call(merchant.auth, "POST", `${base}/orders`, {
        orders: [
          {
            order_number: "P2",
            items: [
              { sku: "A", quantity: 1 },
              { sku: "B", quantity: 1 },
            ],
          },
        ],
      });
      const form =
        "shipping_cost=1&ship_date=2026-03-02&tracking_number=F1&carrier=usps&service=usps_ground_advantage&items[0][sku]=A";
      const shipped = await call(
        merchant.auth,
        "POST",
        `${base}/orders/P2/shipments`,
        form,
        "application/x-www-form-urlencoded",
      );
      expect(shipped.statusCode, shipped.body).toBe(201);
      expect((await order("P2")).shipment_status).toBe("partial");
    });
  });
});
