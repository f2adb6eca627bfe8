import { type Static, Type } from "typebox";
import { ORDER_ADDRESS_KEYS } from "../../../domain/orders/order-input.js";
import { ORDER_LIST_STATUSES } from "../../../domain/orders/shipped-items.js";
import { MAX_INTEGER } from "../../plugins/finite-numbers.js";

const text = (maxLength = 255) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
/** US dollars; cents are exact inside (a third decimal rounds half away from zero). */
const amount = () => Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 10_000_000 }), Type.Null()]));
const OrderNumber = Type.String({ minLength: 1, maxLength: 100, pattern: "^[^/]+$" });

/**
 * The order items a shipment carries (beyond eHub), each named as the order shows it, with a
 * quantity (default: what is left of it).
 */
export const shipItems = (description: string) =>
  Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTEGER })),
        external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        item_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        quantity: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100_000 })),
      }),
      { maxItems: 500, description, examples: [[{ sku: "MUG", quantity: 1 }]] },
    ),
  );

const address = (required: readonly string[]) =>
  Type.Object(
    Object.fromEntries(
      ORDER_ADDRESS_KEYS.map((key) => [
        key,
        required.includes(key) ? Type.String({ minLength: 1, maxLength: 255 }) : text(),
      ]),
    ),
  );
const AnyAddress = Type.Optional(Type.Union([address([]), Type.Null()]));
/** The update schema requires the address lines that locate it. */
const FullAddress = Type.Optional(
  Type.Union([address(["address1", "city", "state", "country", "postal_code"]), Type.Null()]),
);

const itemFields = {
  item_id: text(),
  name: text(1000),
  variant_name: text(),
  external_id: text(),
  sku: text(),
  weight: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.Null()])),
  quantity: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100_000 }), Type.Null()])),
  price: amount(),
  cost: amount(),
};
const CreateItem = Type.Object({
  ...itemFields,
  accounting_id: text(),
  accounting_number: text(),
  alt_external_id: text(),
});
const UpdateItem = Type.Object({ ...itemFields, image_src: text(2048) });

const commonFields = {
  order_id: text(),
  order_date: text(64),
  payment_status: text(64),
  order_status: text(64),
  shipment_status: text(64),
  external_customer_email: text(),
  external_customer_id: text(),
  shipping_method: text(),
  ship_by_date: text(64),
};

export const CreateOrder = Type.Object({
  ...commonFields,
  order_number: OrderNumber,
  items_total: amount(),
  tax_total: amount(),
  shipping_total: amount(),
  total: amount(),
  notes: text(5000),
  tags: text(1000),
  items: Type.Optional(Type.Array(CreateItem, { maxItems: 500 })),
  billing_address: AnyAddress,
  shipping_address: AnyAddress,
});
export type CreateOrder = Static<typeof CreateOrder>;

export const CreateOrdersBody = Type.Object({ orders: Type.Array(CreateOrder, { minItems: 1, maxItems: 100 }) });

export const UpdateOrderBody = Type.Object({
  order: Type.Object({
    ...commonFields,
    order_number: Type.Optional(OrderNumber),
    items: Type.Optional(Type.Array(UpdateItem, { maxItems: 500 })),
    billing_address: FullAddress,
    shipping_address: FullAddress,
  }),
});

export const StoreParams = Type.Object({ order_store_id: Type.Integer({ minimum: 1, maximum: MAX_INTEGER }) });
export const OrderParams = Type.Object({
  order_store_id: Type.Integer({ minimum: 1, maximum: MAX_INTEGER }),
  order_number: OrderNumber,
});

export const ListOrdersQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  status: Type.Optional(
    Type.Union(
      ORDER_LIST_STATUSES.map((status) => Type.Literal(status)),
      {
        default: "pending",
        description: "The orders' shipment_status: pending, partial or shipped; all for every order",
      },
    ),
  ),
});

/**
 * An order in any of its four shapes: the keys are fixed, the value types vary by
 * operation as eHub documents them, so values are left open here.
 */
export const Order = Type.Object(
  {
    id: Type.Integer(),
    order_number: Type.String(),
    items: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    shipments: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
  },
  { $id: "Order", additionalProperties: true },
);
