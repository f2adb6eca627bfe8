import { type Static, Type } from "typebox";
import { CARRIER_CODES } from "../../../carriers/catalogue.js";
import { ADDRESS_FIELDS_ONLY, LocationIn } from "../shipment.schemas.js";

const optionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
const nullableString = Type.Union([Type.String(), Type.Null()]);
const Id = Type.Union([
  Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  Type.String({ pattern: "^[1-9]\\d{0,9}$" }),
]);
const Day = Type.String({ minLength: 8, maxLength: 40, description: "YYYY-MM-DD or DD-MM-YYYY" });

/** Addr-availability-in / Addr-pickup-in: an address with an id of the caller's, no phone needed. */
const PickupLocationIn = Type.Object(
  {
    external_id: optionalText(100),
    ...LocationIn.properties,
    phone: optionalText(40),
  },
  ADDRESS_FIELDS_ONLY,
);
export type PickupLocationIn = Static<typeof PickupLocationIn>;

const PickupCarrierCode = Type.String({
  enum: [...CARRIER_CODES],
  description: "The carrier asked: usps (the default), or ups, fed_ex or dhl_express through the account's connection",
});

export const AvailabilityBody = Type.Object({
  location: PickupLocationIn,
  pickup_date: Day,
  carrier_code: Type.Optional(PickupCarrierCode),
});

export const CreatePickupBody = Type.Object({
  pickup: Type.Optional(
    Type.Object({
      location: Type.Optional(PickupLocationIn),
      pickup_date: Type.Optional(Day),
      shipment_ids: Type.Optional(Type.Array(Id, { maxItems: 10_000 })),
      create_batch: Type.Optional(Type.Boolean()),
      shipment_batch_ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
      location_detail: optionalText(200),
      special_instructions: optionalText(500),
    }),
  ),
});

export const ListPickupsQuery = Type.Object({
  pickup_date_start: Type.Optional(Day),
  pickup_date_end: Type.Optional(Day),
  status: Type.Optional(Type.String({ maxLength: 20, description: "requested (default), cancelled or all; any case" })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const AvailabilityOut = Type.Object({
  available: Type.Boolean(),
  reason: nullableString,
  location: Type.Ref("Address"),
  pickup_date: Type.String(),
});

/** eHub's Pickup, with the package count and weight (ounces) summed from the shipments. */
export const PickupOut = Type.Object(
  {
    id: Type.Integer(),
    location: Type.Ref("Address"),
    pickup_date: Type.String(),
    status: Type.String({ enum: ["REQUESTED", "CANCELLED"] }),
    shipment_ids: Type.Array(Type.Integer()),
    shipment_batch_ids: Type.Array(Type.Integer()),
    external_id: Type.String(),
    carrier_code: Type.String({ description: "The carrier that comes: that of the pickup's shipments" }),
    location_detail: nullableString,
    special_instructions: nullableString,
    package_count: Type.Integer(),
    weight: Type.Number({ description: "Ounces" }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: "Pickup" },
);
