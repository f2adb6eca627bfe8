import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ImportedOrder,
  type StoreConnector,
  StoreConnectorError,
  type WebhookHeaders,
} from "../../src/stores/store-connector.js";

/**
 * What every store connector must do, run against each platform's stand-in. A platform's test
 * file builds a `ContractHarness` (how to seed its shop, break its credentials, throttle it and
 * sign a webhook) and calls `describeConnectorContract`.
 */

/** An order to put in the platform's shop, in platform-neutral words. */
export interface SeedOrder {
  /** Distinct per order; the platform's order number is derived from it. */
  n: number;
  /** ISO 8601 UTC. */
  updatedAt: string;
  items: { sku: string; quantity: number; priceCents: number }[];
  shippingCents: number;
  taxCents: number;
  postalCode: string;
}

export interface ContractHarness {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A fresh shop holding exactly these orders, and a connector to it. */
  shopWith(orders: SeedOrder[]): StoreConnector;
  /** A connector to a shop whose credentials the platform refuses. */
  refusedConnector(): StoreConnector;
  /** The next `times` calls of the last shop's connector are throttled (the platform's own way). */
  throttle(times: number): void;
  /** A webhook delivery for the seeded order `n` of the last shop, signed as the platform signs it. */
  signedWebhook(
    n: number,
    kind: "created" | "updated",
    deliveryId: string,
  ): { rawBody: Buffer; headers: WebhookHeaders };
  /** What the platform holds for the seeded order `n` of the last shop after a write-back: its tracking numbers in force. */
  trackingNumbersOf(n: number): string[];
  /** How the connector names seeded order `n` (its platform id and number), for write-back. */
  refOf(n: number): { platformOrderId: string; orderNumber: string };
}

export function seedOrder(n: number, updatedAt: string, changes: Partial<SeedOrder> = {}): SeedOrder {
  return {
    n,
    updatedAt,
    items: [{ sku: `SKU-${n}`, quantity: 2, priceCents: 1250 }],
    shippingCents: 599,
    taxCents: 206,
    postalCode: "78701",
    ...changes,
  };
}

async function everyOrder(connector: StoreConnector, updatedSince: string | null, pageSize: number) {
  const orders: ImportedOrder[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await connector.fetchOrders({ updatedSince, cursor, pageSize });
    expect(page.orders.length).toBeLessThanOrEqual(pageSize);
    orders.push(...page.orders);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== null && pages < 100);
  return { orders, pages };
}

export function describeConnectorContract(name: string, harness: ContractHarness): void {
  describe(`${name} connector contract`, () => {
    beforeAll(() => harness.start());
    afterAll(() => harness.stop());

    it("pages through every order, oldest update first, each once", async () => {
      const seeds = [5, 1, 4, 2, 3].map((n) => seedOrder(n, `2026-05-0${n}T12:00:00.000Z`));
      const connector = harness.shopWith(seeds);
      const { orders, pages } = await everyOrder(connector, null, 2);
      expect(pages).toBe(3);
      expect(orders.map((order) => order.updatedAt)).toEqual([1, 2, 3, 4, 5].map((n) => `2026-05-0${n}T12:00:00.000Z`));
      expect(new Set(orders.map((order) => order.platformOrderId)).size).toBe(5);
    });

    it("reads only orders updated at or after updatedSince", async () => {
      const connector = harness.shopWith([1, 2, 3, 4].map((n) => seedOrder(n, `2026-06-0${n}T00:00:00.000Z`)));
      const { orders } = await everyOrder(connector, "2026-06-03T00:00:00.000Z", 10);
      expect(orders.map((order) => order.updatedAt)).toEqual(["2026-06-03T00:00:00.000Z", "2026-06-04T00:00:00.000Z"]);
    });

    it("maps an order: money in integer cents, items with SKU and quantity, the shipping address", async () => {
      const connector = harness.shopWith([
        seedOrder(7, "2026-07-01T00:00:00.000Z", {
          items: [
            { sku: "A", quantity: 3, priceCents: 1999 },
            { sku: "B", quantity: 1, priceCents: 5 },
          ],
          shippingCents: 1000,
          taxCents: 0,
          postalCode: "10001",
        }),
      ]);
      const { orders } = await everyOrder(connector, null, 10);
      const [order] = orders;
      expect(order).toBeDefined();
      expect(order?.platformOrderId).toBe(harness.refOf(7).platformOrderId);
      expect(order?.orderNumber).toBe(harness.refOf(7).orderNumber);
      expect(order?.items.map((item) => [item.sku, item.quantity, item.priceCents])).toEqual([
        ["A", 3, 1999],
        ["B", 1, 5],
      ]);
      expect(order?.totals.shippingCents).toBe(1000);
      expect(Number.isInteger(order?.totals.totalCents)).toBe(true);
      expect(order?.shippingAddress?.postal_code).toBe("10001");
      expect(order?.shipmentStatus).toBe("pending");
    });

    it("reports refused credentials as an auth failure, never as an empty list", async () => {
      const connector = harness.refusedConnector();
      await expect(connector.fetchOrders({ updatedSince: null, cursor: null })).rejects.toMatchObject({ kind: "auth" });
      await expect(connector.verifyCredentials()).rejects.toBeInstanceOf(StoreConnectorError);
    });

    it("waits out throttling and carries on", async () => {
      const connector = harness.shopWith([1, 2].map((n) => seedOrder(n, `2026-08-0${n}T00:00:00.000Z`)));
      await connector.verifyCredentials();
      harness.throttle(2);
      const { orders } = await everyOrder(connector, null, 10);
      expect(orders).toHaveLength(2);
    });

    it("writes a shipment back with its tracking number, and reverses it where the platform allows", async () => {
      const connector = harness.shopWith([seedOrder(3, "2026-09-01T00:00:00.000Z")]);
      const ref = harness.refOf(3);
      await connector.writeShipment(ref, {
        trackingNumber: "9400100000000000000001",
        carrier: "USPS",
        service: "Ground Advantage",
        trackingUrl: null,
        shipDate: "2026-09-02T00:00:00.000Z",
        notify: false,
        items: [],
      });
      expect(harness.trackingNumbersOf(3)).toEqual(["9400100000000000000001"]);
      if (connector.cancelShipment) {
        const again = harness.shopWith([seedOrder(4, "2026-09-01T00:00:00.000Z")]);
        const written = await again.writeShipment(harness.refOf(4), {
          trackingNumber: "1Z999",
          carrier: "UPS",
          service: "Ground",
          trackingUrl: "https://example.com/track/1Z999",
          shipDate: "2026-09-02T00:00:00.000Z",
          notify: true,
          items: [],
        });
        await again.cancelShipment?.(harness.refOf(4), written.platformShipmentId);
        expect(harness.trackingNumbersOf(4)).toEqual([]);
      }
    });

    it("verifies a signed webhook and refuses a tampered one", async () => {
      const connector = harness.shopWith([seedOrder(6, "2026-10-01T00:00:00.000Z")]);
      const delivery = harness.signedWebhook(6, "updated", "delivery-1");
      const verdict = connector.verifyWebhook(delivery.rawBody, delivery.headers);
      // The delivery's key for deduplication: the platform's delivery id, or what identifies the change.
      expect(verdict).toMatchObject({ ok: true, deliveryId: expect.stringMatching(/.+/) });
      if (!verdict.ok) return;
      expect(verdict.order?.platformOrderId).toBe(harness.refOf(6).platformOrderId);
      expect(verdict.order?.updatedAt).toBe("2026-10-01T00:00:00.000Z");
      const tampered = Buffer.from(delivery.rawBody.toString().replace("78701", "78702"));
      expect(connector.verifyWebhook(tampered, delivery.headers)).toMatchObject({ ok: false });
    });
  });
}
