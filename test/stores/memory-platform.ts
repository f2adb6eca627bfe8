import type { ImportedOrder, StoreConnector, StorePlatform } from "../../src/stores/store-connector.js";
import { StoreConnectorError } from "../../src/stores/store-connector.js";

/**
 * A platform held in memory, for tests of what Porter does with imported orders (sync state,
 * idempotency, ordering); the platforms' own APIs are tested against their stand-ins.
 */
export class MemoryPlatform {
  orders: ImportedOrder[] = [];
  /** Pages answered before the next fetch fails; undefined never fails. */
  failAfterPages: number | undefined;
  pagesServed = 0;

  platform(type: StorePlatform["type"] = "shopify"): StorePlatform {
    return { type, requiredCredentials: [], open: () => this.connector() };
  }

  connector(): StoreConnector {
    return {
      fetchOrders: async ({ updatedSince, cursor, pageSize = 50 }) => {
        if (this.failAfterPages !== undefined && this.pagesServed >= this.failAfterPages) {
          throw new StoreConnectorError(
            "auth",
            "[API] Invalid API key or access token (unrecognized login or wrong password)",
            401,
          );
        }
        this.pagesServed += 1;
        const due = this.orders
          .filter((order) => updatedSince === null || order.updatedAt >= updatedSince)
          .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
        const start = cursor === null ? 0 : Number(cursor);
        const end = start + pageSize;
        return { orders: due.slice(start, end), nextCursor: end < due.length ? String(end) : null };
      },
      writeShipment: async () => ({ platformShipmentId: null }),
      verifyWebhook: () => ({ ok: false, reason: "not used" }),
      verifyCredentials: async () => {},
    };
  }
}

export function importedOrder(n: number, updatedAt: string, changes: Partial<ImportedOrder> = {}): ImportedOrder {
  return {
    platformOrderId: String(5_000_000 + n),
    orderNumber: `#${1000 + n}`,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt,
    paymentStatus: "paid",
    orderStatus: "open",
    shipmentStatus: "pending",
    items: [
      {
        platformLineItemId: String(9_000_000 + n),
        name: "Mug",
        sku: "MUG-1",
        productId: "77",
        variantId: "78",
        variantName: "Blue",
        quantity: 2,
        priceCents: 1250,
        weightOz: 12,
        imageUrl: null,
      },
    ],
    shippingAddress: {
      first_name: "Ada",
      address1: "1 Main St",
      city: "Austin",
      state: "TX",
      country: "US",
      postal_code: "78701",
    },
    billingAddress: null,
    customer: { platformCustomerId: "42", email: "ada@example.com" },
    totals: { itemsCents: 2500, taxCents: 206, shippingCents: 599, totalCents: 3305 },
    shippingMethod: "Standard",
    notes: null,
    tags: null,
    ...changes,
  };
}
