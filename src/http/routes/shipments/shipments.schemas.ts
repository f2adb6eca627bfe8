import { type Static, Type } from "typebox";
import { LABEL_FORMATS, LABEL_SIZES } from "../../../labels/label.js";

/** How a return label is paid (see `ReturnLabelRequest`). */
export const RETURN_TYPES = ["print", "scan_based"] as const;

import { shipItems } from "../order-stores/orders.schemas.js";
import { InsuranceIn, LocationIn, ParcelIn, ReturnLocationIn } from "../shipment.schemas.js";
import { CustomsDataOut } from "../wire/customs-data.js";
import { documentedSchema } from "../wire/documented.js";
import { ParcelItemOut } from "../wire/parcel-item.js";
import { PARCEL_KEYS, POSTAGE_LABEL_KEYS, SHIPMENT_KEYS, SHIPMENT_PAYMENT_KEYS } from "../wire/shipment-keys.js";

const optionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
const optionalNumber = Type.Optional(Type.Union([Type.Number(), Type.Null()]));
/** Money and counts within what carriers accept (USPS: items up to 999,999.99 USD, quantity 9,999). */
const optionalAmount = Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 999_999.99 }), Type.Null()]));

export const CustomsDataIn = Type.Object({
  content_type: optionalText(60),
  no_delivery: optionalText(60),
  hs_tariff_code: optionalText(40),
  eel_pfc: optionalText(60),
  value: optionalAmount,
});

const optionalId = Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 100 }), Type.Null()]));
const optionalSize = Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100_000 }), Type.Null()]));

/** Every field of a response's parcel item is accepted, kept and answered back. */
export const ParcelItemIn = Type.Object({
  id: optionalId,
  item_id: optionalText(100),
  name: optionalText(200),
  description: optionalText(500),
  accounting_number: optionalText(100),
  variant_name: optionalText(200),
  variant_id: optionalId,
  variant_option1: optionalText(200),
  variant_option2: optionalText(200),
  variant_option3: optionalText(200),
  image_src: optionalText(2000),
  external_id: optionalText(100),
  sku: optionalText(100),
  weight: optionalSize,
  length: optionalSize,
  width: optionalSize,
  height: optionalSize,
  quantity: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 9999 }), Type.Null()])),
  price: optionalAmount,
  cost: optionalAmount,
  country_of_origin: optionalText(2),
  customs_data: Type.Optional(Type.Union([CustomsDataIn, Type.Null()])),
});

export const ServiceOptionsIn = Type.Object(
  {
    endorsement: optionalText(40),
    insurance: Type.Optional(InsuranceIn),
    dangerous_goods: Type.Optional(
      Type.Union([Type.Object({ details: Type.Optional(Type.Object({ type: optionalText(100) })) }), Type.Null()]),
    ),
  },
  {
    additionalProperties: true,
    description: "Carrier options (signature, insurance, Saturday delivery, endorsement …)",
  },
);

export const ParcelShipIn = Type.Object({
  ...ParcelIn.properties,
  parcel_items: Type.Optional(Type.Array(ParcelItemIn, { maxItems: 100 })),
  customs_data: Type.Optional(Type.Union([CustomsDataIn, Type.Null()])),
  service_options: Type.Optional(ServiceOptionsIn),
});

const LabelContentIn = Type.Object({
  label_content: Type.Object({
    type: Type.String({ enum: ["text", "image"] }),
    text: optionalText(200),
    base64_image: Type.Optional(Type.Union([Type.String({ maxLength: 700_000 }), Type.Null()])),
    location: Type.Array(Type.Number({ minimum: 0, maximum: 12 }), { minItems: 2, maxItems: 2 }),
    width: optionalNumber,
    height: optionalNumber,
  }),
});

export const ShipmentIn = Type.Object({
  to_location: LocationIn,
  from_location: LocationIn,
  return_location: Type.Optional(Type.Union([ReturnLocationIn, Type.Null()])),
  parcels: Type.Optional(Type.Array(ParcelShipIn, { maxItems: 50 })),
  service_id: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: "^\\d+$" })]),
  ship_date: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  label_format: Type.Optional(Type.String({ enum: [...LABEL_FORMATS], default: "pdf" })),
  label_size: Type.Optional(Type.String({ enum: [...LABEL_SIZES], default: "4x6" })),
  label_text1: optionalText(60),
  label_text2: optionalText(60),
  label_contents: Type.Optional(Type.Array(LabelContentIn, { maxItems: 10 })),
  // Null first: tried later, an explicit null would already have been coerced to 0 by the number.
  label_scale: Type.Optional(
    Type.Union([Type.Null(), Type.Number({ minimum: 0.5, maximum: 2 }), Type.String({ pattern: "^\\d+(\\.\\d+)?$" })]),
  ),
  inline_image: Type.Optional(Type.Boolean()),
  order_id: optionalText(100),
  order_items: shipItems(
    "Beyond eHub: ship only these items of the order `order_id` (each named as the order shows it: id, external_id, item_id or sku, with a quantity, default what is left of it). Checked before the label is bought; the order becomes `partial` while items are left, and voiding the label cancels that order shipment (docs/orders.md). Absent, a label with `order_id` ships the whole order.",
  ),
  account_reference: optionalText(100),
  ci_comments: optionalText(500),
  is_return: Type.Optional(
    Type.Boolean({
      description:
        "Beyond eHub: buy the return label of this outbound shipment: the parcel travels from `to_location` (the customer) to `return_location`, else `from_location` (the merchant); the answer's addresses are the return's (docs/shipments.md)",
    }),
  ),
  return_type: Type.Optional(
    Type.String({
      enum: [...RETURN_TYPES],
      description:
        "Beyond eHub: how a return label is paid: `print` (default) at purchase, `scan_based` at the carrier's first scan (USPS, UPS, FedEx)",
    }),
  ),
  with_return: Type.Optional(
    Type.Boolean({
      description:
        "Beyond eHub (POST /shipments/ship only): buy this outbound shipment and its return label together; the answer's `return_shipment` is the return",
    }),
  ),
});
export type ShipmentIn = Static<typeof ShipmentIn>;

export const ShipBody = Type.Object({ shipment: ShipmentIn });

export const ShipMultipleBody = Type.Object({ shipments: Type.Array(ShipmentIn, { minItems: 1 }) });

const Json = Type.Record(Type.String(), Type.Unknown());
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const CostDetail = Type.Object({ cost_type: Type.String(), description: Type.String(), rate: Type.Number() });

const TrackingEventOut = Type.Object({
  event_date: Type.String(),
  status: Type.String({ description: "Normalized status the event reports" }),
  description: nullable(Type.String()),
  city: nullable(Type.String()),
  state: nullable(Type.String()),
  postal_code: nullable(Type.String()),
  country: nullable(Type.String()),
  tracking_event_id: Type.Integer({ description: "Beyond eHub: the event's id on the event stream payload" }),
  code: Type.String({ description: "Beyond eHub: the carrier's own event code" }),
  secondary_code: nullable(Type.String({ description: "Beyond eHub: the carrier's secondary code" })),
});

const TrackingInfo = Type.Object({
  status: Type.String(),
  updated_at: Type.String(),
  estimated_delivery_date: nullable(Type.String()),
  delivery_date: nullable(Type.String()),
  tracking_events: Type.Array(TrackingEventOut, { description: "Newest first" }),
  stale_since: nullable(
    Type.String({ description: "Beyond eHub: since when the carrier has not answered; null while it does" }),
  ),
});

const PostageLabelOut = documentedSchema(
  POSTAGE_LABEL_KEYS,
  { id: Type.Integer(), resolution: Type.Integer() },
  { file_format: Type.String() },
);

export const ParcelOut = documentedSchema(
  PARCEL_KEYS,
  {
    id: Type.Integer(),
    length: Type.Number(),
    width: Type.Number(),
    height: Type.Number(),
    weight: Type.Number(),
    shipping_cost: Type.Number(),
    shipping_cost_details: Type.Array(CostDetail),
    meter_cost: Type.Number(),
    meter_cost_details: Type.Array(CostDetail),
    parcel_items: Type.Array(ParcelItemOut),
    customs_data: CustomsDataOut,
    postage_label: PostageLabelOut,
    service_options: Json,
    tracking_info: TrackingInfo,
  },
  { name: nullable(Type.String()) },
);

export const ShipmentOut = documentedSchema(
  SHIPMENT_KEYS,
  {
    id: Type.Integer(),
    batch_id: Type.Integer(),
    pickup_id: Type.Integer(),
    to_location: Type.Ref("Address"),
    from_location: Type.Ref("Address"),
    return_location: Type.Ref("Address"),
    parcels: Type.Array(ParcelOut),
    shipping_service: Type.Object({
      service: Type.String(),
      service_id: Type.Integer(),
      service_code: Type.String(),
      carrier_code: Type.String(),
      rate: Type.Number(),
      meter_rate: Type.Number(),
      delivery_days: nullable(Type.Integer()),
      delivery_date: nullable(Type.String()),
      delivery_guaranteed: Type.Boolean(),
    }),
    payment: documentedSchema(SHIPMENT_PAYMENT_KEYS, { amount: Type.Number() }),
  },
  {
    shipping_cost_details: Type.Array(CostDetail),
    tracking_info: TrackingInfo,
    ship_date: Type.String(),
    public_tracking_url: nullable(
      Type.String({ description: "The shipment's public tracking page: no key needed (docs/tracking.md)" }),
    ),
    is_return: Type.Boolean({ description: "Beyond eHub: whether this is a return label (docs/shipments.md)" }),
    return_type: nullable(
      Type.String({
        enum: [...RETURN_TYPES],
        description:
          "Beyond eHub: a return label's payment, `print` (charged at purchase) or `scan_based` (charged at the carrier's first scan; `payment` is 0 until then); null when not a return",
      }),
    ),
    outbound_shipment_id: nullable(
      Type.Integer({ description: "Beyond eHub: the outbound shipment a return was bought with (`with_return`)" }),
    ),
  },
  { $id: "Shipment" },
);

export const PaymentOut = Type.Object(
  {
    currency: Type.String(),
    amount: Type.Number(),
    amount_includes_shipping: Type.Boolean(),
    payment_method_id: nullable(Type.Integer()),
    payment_transaction_id: nullable(Type.Integer()),
  },
  { $id: "Payment" },
);

export const ListShipmentsQuery = Type.Object({
  carrier_code: Type.Optional(Type.String({ maxLength: 40 })),
  service_code: Type.Optional(Type.String({ maxLength: 80 })),
  ship_from_time: Type.Optional(Type.String({ maxLength: 40 })),
  ship_to_time: Type.Optional(Type.String({ maxLength: 40 })),
  shipment_batch_id: Type.Optional(Type.Integer({ minimum: 1 })),
  status: Type.Optional(Type.String({ maxLength: 40 })),
  tracking_number: Type.Optional(Type.Array(Type.String({ maxLength: 60 }), { maxItems: 500 })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});
