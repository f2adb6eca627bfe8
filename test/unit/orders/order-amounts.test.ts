import { describe, expect, it } from "vitest";
import { orderColumns, orderItemRows } from "../../../src/domain/orders/order-input.js";
import { decimalText, numericId } from "../../../src/http/routes/order-stores/orders.presenter.js";

describe("order amounts", () => {
  it("keeps cents exact where floats drift", () => {
    const items = orderItemRows([
      { quantity: 3, price: 0.1 },
      { quantity: 1, price: 1.005 },
    ]);
    expect(items.map((item) => item.cost_cents)).toEqual([30, 101]);
    const columns = orderColumns({ order_number: "A", tax_total: 0.07, shipping_total: 0.2 }, items, true);
    expect(columns).toMatchObject({ items_total_cents: 131, total_cents: 158 });
  });

  it("leaves a fractional quantity's cost and the totals it would feed unset", () => {
    const items = orderItemRows([{ quantity: 1.5, price: 2 }]);
    expect(items[0]?.cost_cents).toBeNull();
    expect(orderColumns({ order_number: "A" }, items, true)).not.toHaveProperty("total_cents");
  });

  it("changes only what an update sends", () => {
    expect(orderColumns({ payment_status: "paid" }, undefined, false)).toEqual({ payment_status: "paid" });
  });

  it("refuses an amount its column cannot hold", () => {
    expect(() => orderItemRows([{ quantity: 1000, price: 9_999_999 }])).toThrow(
      expect.objectContaining({ code: "order.amount_too_large" }),
    );
  });

  it("writes amounts as eHub's decimal text and ids as numbers only when they are", () => {
    expect([15000, 1250, 899, 5, 0, null].map(decimalText)).toEqual(["150.0", "12.5", "8.99", "0.05", "0.0", null]);
    expect([numericId("4521"), numericId("UA-1"), numericId("007"), numericId(null)]).toEqual([
      4521,
      "UA-1",
      "007",
      null,
    ]);
  });
});
