import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncOrderStore } from "../../src/domain/orders/sync-order-store.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { apiCaller, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { loggedLines } from "../helpers/log-lines.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";
import { type StandInOrder, standInOrder, WooCommerceStandIn } from "../stand-ins/woocommerce/woocommerce-stand-in.js";

const GROUND_ADVANTAGE = 1172;

describe("a Porter label bought with order_id", () => {
  const standIn = new WooCommerceStandIn();
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let worker: Worker;
  let customBase: string;
  let wooOrder: StandInOrder;
  const call = apiCaller(() => t);

  const labelFor = (orderId: string | undefined, extra: object = {}) => ({
    to_location: SALT_LAKE_RESIDENCE,
    from_location: LOS_ANGELES_WAREHOUSE,
    parcels: [SMALL_BOX],
    service_id: GROUND_ADVANTAGE,
    label_format: "pdf",
    label_size: "4x6",
    order_id: orderId,
    ...extra,
  });
  const buyLabel = async (auth: TestAccount["auth"], orderId: string, extra: object = {}) => {
    const response = await call(auth, "POST", "/shipments/ship", { shipment: labelFor(orderId, extra) });
    expect(response.statusCode, response.body).toBe(201);
    await worker.drain();
    return response.json().shipment;
  };
  const order = async (base: string, orderNumber: string, auth = merchant.auth) =>
    (await call(auth, "GET", `${base}/orders/${orderNumber}`)).json().orders[0];

  beforeAll(async () => {
    await standIn.start();
    t = await buildTestApp({ config: { outboundAllowPrivateTargets: true } });
    t.clock.set(new Date("2026-03-02T15:00:00.000Z"));
    merchant = await createTestAccount(t.services);
    other = await createTestAccount(t.services);
    for (const account of [merchant, other]) await connectSandboxCarriers(t.services, account.accountId);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });

    const custom = await call(merchant.auth, "POST", "/order_stores", {
      order_store: { name: "Web shop", service_type: "custom" },
    });
    customBase = `/order_stores/${custom.json().order_store.id}`;
    await call(merchant.auth, "POST", `${customBase}/orders`, {
      orders: [
        ...["WEB-1", "TWICE"].map((order_number) => ({ order_number, items: [{ sku: "MUG", quantity: 1 }] })),
        { order_number: "RET-1", items: [{ sku: "MUG", quantity: 2 }] },
        {
          order_number: "PART-1",
          items: [
            { sku: "MUG", quantity: 2 },
            { sku: "TEE", quantity: 1 },
          ],
        },
      ],
    });
    const second = await call(merchant.auth, "POST", "/order_stores", {
      order_store: { name: "Second shop", service_type: "custom" },
    });
    await call(merchant.auth, "POST", `/order_stores/${second.json().order_store.id}/orders`, {
      orders: [{ order_number: "TWICE" }],
    });

    wooOrder = standInOrder(1, "2026-03-01T00:00:00Z");
    const site = standIn.addSite({ orders: [wooOrder] });
    const woo = await call(merchant.auth, "POST", "/order_stores", {
      order_store: {
        name: "Woo",
        service_type: "woocommerce",
        credentials: {
          site_url: standIn.siteUrl(site),
          consumer_key: site.consumerKey,
          consumer_secret: site.consumerSecret,
        },
      },
    });
    await syncOrderStore(t.services, { storeId: woo.json().order_store.id });
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
  });

  it("ships the order of that number: the label's carrier, service, tracking number, cost and weight", async () => {
    const label = await buyLabel(merchant.auth, "WEB-1");
    const shipped = await order(customBase, "WEB-1");
    expect(shipped.shipment_status).toBe("shipped");
    expect(shipped.shipments).toEqual([
      expect.objectContaining({
        carrier: "usps",
        tracking_number: label.parcels[0].tracking_number,
        ship_date: `${label.ship_date}T00:00:00.000Z`,
        shipping_cost: expect.stringMatching(/^\d+\.\d+$/),
        weight: String(SMALL_BOX.weight),
      }),
    ]);
    // The label's own parcel, with its dimensions as eHub writes them.
    expect(shipped.shipments[0].parcels).toEqual([
      expect.objectContaining({
        id: label.parcels[0].id,
        tracking_number: label.parcels[0].tracking_number,
        length: String(SMALL_BOX.length),
        weight: String(SMALL_BOX.weight),
        parcel_items: [expect.objectContaining({ quantity: expect.any(Number) })],
      }),
    ]);
    // The job running again links nothing twice.
    await t.services.jobs.enqueue("order.link_label", { shipmentId: label.id });
    await worker.drain();
    expect((await order(customBase, "WEB-1")).shipments).toHaveLength(1);
  });

  it("tells a WooCommerce store: the order is completed with a tracking note; voiding the label reopens it", async () => {
    const label = await buyLabel(merchant.auth, "7001");
    expect(wooOrder.status).toBe("completed");
    expect(wooOrder.notes.map((note) => note.note).join("\n")).toContain(label.parcels[0].tracking_number);

    const voided = await call(merchant.auth, "PUT", `/shipments/${label.id}/cancel`);
    expect(voided.statusCode, voided.body).toBe(200);
    await worker.drain();
    expect(wooOrder.status).toBe("processing");
    expect(wooOrder.notes.map((note) => note.note).join("\n")).not.toContain(label.parcels[0].tracking_number);
    const wooBase = `/order_stores/${(await call(merchant.auth, "GET", "/order_stores")).json().order_stores.find((s: { service_type: string }) => s.service_type === "woocommerce").id}`;
    expect((await order(wooBase, "7001")).shipment_status).toBe("pending");
  });

  it("links nothing for an unknown number, a number two stores share, or another account's order", async () => {
    await buyLabel(merchant.auth, "NO-SUCH-ORDER");
    await buyLabel(merchant.auth, "TWICE");
    expect((await order(customBase, "TWICE")).shipment_status).toBe("pending");
    const otherStore = await call(other.auth, "POST", "/order_stores", {
      order_store: { name: "Theirs", service_type: "custom" },
    });
    const otherBase = `/order_stores/${otherStore.json().order_store.id}`;
    await call(other.auth, "POST", `${otherBase}/orders`, { orders: [{ order_number: "OTHER-1" }] });
    await buyLabel(merchant.auth, "OTHER-1");
    expect((await order(otherBase, "OTHER-1", other.auth)).shipment_status).toBe("pending");
  });

  describe("with order_items", () => {
    const labelsOf = async (account: TestAccount) =>
      Number(
        (
          await t.services.db
            .selectFrom("shipments")
            .select((eb) => eb.fn.countAll().as("count"))
            .where("account_id", "=", account.accountId)
            .executeTakeFirstOrThrow()
        ).count,
      );
    const refused = async (shipment: object, auth = merchant.auth) => {
      const before = await labelsOf(merchant);
      const response = await call(auth, "POST", "/shipments/ship", { shipment });
      // Refused before the carrier is called or the meter charged: no shipment is even recorded.
      expect(await labelsOf(merchant)).toBe(before);
      return { status: response.statusCode, code: response.json().error_code };
    };
    const left = async () =>
      (await order(customBase, "PART-1")).items.map((item: { sku: string; remaining_quantity: number }) => [
        item.sku,
        item.remaining_quantity,
      ]);

    it("ships exactly those items: the order is partial, the label shows the order, and voiding it cancels that shipment", async () => {
      const label = await buyLabel(merchant.auth, "PART-1", { order_items: [{ sku: "MUG", quantity: 1 }] });
      expect(label.order_id).toBe("PART-1");
      const shipped = await order(customBase, "PART-1");
      expect(shipped.shipment_status).toBe("partial");
      expect(shipped.shipments).toHaveLength(1);
      expect(shipped.shipments[0].tracking_number).toBe(label.parcels[0].tracking_number);
      expect(shipped.shipments[0].parcels[0].parcel_items).toEqual([expect.objectContaining({ quantity: 1 })]);
      expect(await left()).toEqual([
        ["MUG", 1],
        ["TEE", 1],
      ]);

      const voided = await call(merchant.auth, "PUT", `/shipments/${label.id}/cancel`);
      expect(voided.statusCode, voided.body).toBe(200);
      await worker.drain();
      const after = await order(customBase, "PART-1");
      expect(after.shipment_status).toBe("pending");
      expect(after.shipments).toEqual([]);
      expect(await left()).toEqual([
        ["MUG", 2],
        ["TEE", 1],
      ]);
    });

    it("refuses, before anything is bought, an unknown item, more than is left, and items without an order", async () => {
      expect(await refused(labelFor("PART-1", { order_items: [{ sku: "CUP" }] }))).toEqual({
        status: 422,
        code: "order.item_not_found",
      });
      expect(await refused(labelFor("PART-1", { order_items: [{ sku: "TEE", quantity: 2 }] }))).toEqual({
        status: 422,
        code: "order.item_over_shipped",
      });
      expect(await refused(labelFor(undefined, { order_items: [{ sku: "MUG" }] }))).toEqual({
        status: 400,
        code: "request.invalid",
      });
      expect(await refused(labelFor("PART-1", { order_items: [{ sku: "MUG" }], is_return: true }))).toEqual({
        status: 400,
        code: "request.invalid",
      });
      expect(await refused(labelFor("NO-SUCH-ORDER", { order_items: [{ sku: "MUG" }] }))).toEqual({
        status: 422,
        code: "shipment.order_not_found",
      });
      expect(await refused(labelFor("TWICE", { order_items: [{ sku: "MUG" }] }))).toEqual({
        status: 422,
        code: "shipment.order_not_found",
      });
      // ship_multiple checks every shipment first: one bad item list refuses them all.
      const before = await labelsOf(merchant);
      const multiple = await call(merchant.auth, "POST", "/shipments/ship_multiple", {
        shipments: [labelFor("WEB-1"), labelFor("PART-1", { order_items: [{ sku: "TEE", quantity: 5 }] })],
      });
      expect(multiple.statusCode, multiple.body).toBe(400);
      expect(await labelsOf(merchant)).toBe(before);
      expect(multiple.json().error_code).toBe("shipments.invalid");
      expect(await left()).toEqual([
        ["MUG", 2],
        ["TEE", 1],
      ]);
    });

    it("never reaches another account's order or items, and needs a key", async () => {
      const otherStore = await call(other.auth, "POST", "/order_stores", {
        order_store: { name: "Their items", service_type: "custom" },
      });
      const otherBase = `/order_stores/${otherStore.json().order_store.id}`;
      await call(other.auth, "POST", `${otherBase}/orders`, {
        orders: [{ order_number: "THEIRS-1", items: [{ sku: "MUG", quantity: 3 }] }],
      });
      expect(await refused(labelFor("THEIRS-1", { order_items: [{ sku: "MUG", quantity: 1 }] }))).toEqual({
        status: 422,
        code: "shipment.order_not_found",
      });
      expect((await order(otherBase, "THEIRS-1", other.auth)).shipment_status).toBe("pending");
      const anonymous = await t.app.inject({
        method: "POST",
        url: "/api/v2/shipments/ship",
        payload: { shipment: labelFor("PART-1", { order_items: [{ sku: "MUG" }] }) },
      });
      expect(anonymous.statusCode).toBe(401);
      expect(await left()).toEqual([
        ["MUG", 2],
        ["TEE", 1],
      ]);
    });

    it("keeps the label but links nothing, and says so in the log, when its items shipped by another shipment first", async () => {
      const made = await call(merchant.auth, "POST", `${customBase}/orders`, {
        orders: [{ order_number: "RACE-1", items: [{ sku: "MUG", quantity: 2 }] }],
      });
      expect(made.statusCode, made.body).toBe(201);
      const { logger, lines } = loggedLines();
      t.services.logger = logger;
      try {
        const bought = await call(merchant.auth, "POST", "/shipments/ship", {
          shipment: labelFor("RACE-1", { order_items: [{ sku: "MUG", quantity: 2 }] }),
        });
        expect(bought.statusCode, bought.body).toBe(201);
        // Before the link job runs, the mugs ship by a shipment recorded on the order directly.
        const direct = await call(merchant.auth, "POST", `${customBase}/orders/RACE-1/shipments`, {
          shipping_cost: 7.25,
          ship_date: "2026-03-02",
          tracking_number: "9400100000000000000001",
          carrier: "usps",
          service: "usps_ground_advantage",
          notify: false,
          items: [{ sku: "MUG", quantity: 2 }],
        });
        expect(direct.statusCode, direct.body).toBe(201);
        await worker.drain();
        const shipped = await order(customBase, "RACE-1");
        expect(shipped.shipments.map((s: { tracking_number: string }) => s.tracking_number)).toEqual([
          "9400100000000000000001",
        ]);
        expect(lines).toContainEqual(
          expect.objectContaining({
            shipmentId: bought.json().shipment.id,
            orderId: "RACE-1",
            code: "order.item_over_shipped",
          }),
        );
      } finally {
        t.services.logger = undefined;
      }
    });

    it("ships the rest with a second label: the order is shipped once every item is", async () => {
      await buyLabel(merchant.auth, "PART-1", { order_items: [{ sku: "MUG", quantity: 1 }] });
      await buyLabel(merchant.auth, "PART-1", { order_items: [{ sku: "MUG" }, { sku: "TEE" }] });
      const shipped = await order(customBase, "PART-1");
      expect(shipped.shipment_status).toBe("shipped");
      expect(shipped.shipments).toHaveLength(2);
      expect(await left()).toEqual([
        ["MUG", 0],
        ["TEE", 0],
      ]);
    });

    it("ships the items with the outbound label only: the return bought with it ships nothing", async () => {
      const label = await buyLabel(merchant.auth, "RET-1", {
        order_items: [{ sku: "MUG", quantity: 1 }],
        with_return: true,
      });
      const shipped = await order(customBase, "RET-1");
      expect(shipped.shipment_status).toBe("partial");
      expect(shipped.shipments.map((shipment: { tracking_number: string }) => shipment.tracking_number)).toEqual([
        label.parcels[0].tracking_number,
      ]);
    });
  });
});
