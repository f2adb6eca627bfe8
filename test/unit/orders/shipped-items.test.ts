import { describe, expect, it } from "vitest";
import type { OrderItemRow } from "../../../src/domain/orders/orders.repository.js";
import { itemKey, resolveShippedItems, shipmentStatusOf } from "../../../src/domain/orders/shipped-items.js";

function item(position: number, fields: Partial<OrderItemRow>): OrderItemRow {
  return {
    id: 100 + position,
    order_id: 1,
    position,
    item_id: null,
    name: null,
    accounting_id: null,
    accounting_number: null,
    variant_id: null,
    variant_name: null,
    image_src: null,
    external_id: null,
    alt_external_id: null,
    sku: null,
    weight_oz: null,
    quantity: 1,
    price_cents: null,
    cost_cents: null,
    ...fields,
  };
}

const items = [item(0, { external_id: "L1", sku: "MUG", quantity: 2 }), item(1, { sku: "TEE" }), item(2, {})];

describe("an order's shipped items", () => {
  it("names an item by the platform's line id, else its item id, else its SKU, else its place", () => {
    expect(items.map(itemKey)).toEqual(["external:L1", "sku:TEE", "position:2"]);
    expect(itemKey(item(3, { item_id: "P9", sku: "X" }))).toBe("item:P9");
  });

  it("is pending without shipments, partial until every quantity shipped, shipped after", () => {
    expect(shipmentStatusOf(items, [])).toBe("pending");
    const some = [[{ itemKey: "external:L1", quantity: 1 }]];
    expect(shipmentStatusOf(items, some)).toBe("partial");
    const all = [
      ...some,
      [
        { itemKey: "external:L1", quantity: 1 },
        { itemKey: "sku:TEE", quantity: 1 },
        { itemKey: "position:2", quantity: 1 },
      ],
    ];
    expect(shipmentStatusOf(items, all)).toBe("shipped");
    // A shipment naming no items carried the rest of the order.
    expect(shipmentStatusOf(items, [...some, []])).toBe("shipped");
    expect(shipmentStatusOf([], [[]])).toBe("shipped");
  });

  it("resolves the items a shipment names, defaulting to what is left, and refuses too many or unknown ones", () => {
    const before = [[{ itemKey: "external:L1", quantity: 1 }]];
    expect(resolveShippedItems(items, before, [{ sku: "MUG" }, { id: 102, quantity: 1 }])).toEqual([
      { itemKey: "external:L1", quantity: 1 },
      { itemKey: "position:2", quantity: 1 },
    ]);
    expect(() => resolveShippedItems(items, before, [{ external_id: "L1", quantity: 2 }])).toThrow(
      expect.objectContaining({ code: "order.item_over_shipped" }),
    );
    // Two entries for one item count together.
    expect(() =>
      resolveShippedItems(
        items,
        [],
        [
          { sku: "MUG", quantity: 2 },
          { external_id: "L1", quantity: 1 },
        ],
      ),
    ).toThrow(expect.objectContaining({ code: "order.item_over_shipped" }));
    expect(() => resolveShippedItems(items, [], [{ sku: "HAT" }])).toThrow(
      expect.objectContaining({ code: "order.item_not_found" }),
    );
    expect(() => resolveShippedItems(items, [[]], [{ sku: "TEE" }])).toThrow(
      expect.objectContaining({ code: "order.item_over_shipped" }),
    );
  });
});
