import { type Static, Type } from "typebox";

const text = (maxLength: number, description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

/** eHub's tracking-event creation body, flat, no wrapper. */
const eventFields = {
  code: Type.Integer({ description: "80, 81 or 82 (USPS shipping-partner events)" }),
  secondary_code: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Null()])),
  description: text(500),
  event_timestamp: Type.String({
    maxLength: 64,
    description: "ISO 8601, YYYY-MM-DD, DD-MM-YYYY or YYYY-MM-DD hh:mm:ss [AM|PM]; no offset means UTC",
  }),
  city: text(100),
  state: text(100),
  postal_code: text(20),
  country: text(2),
};

export const ShipmentTrackingEventBody = Type.Object(eventFields);
export type ShipmentTrackingEventBody = Static<typeof ShipmentTrackingEventBody>;

export const TrackingEventsBody = Type.Object({
  ...eventFields,
  shipment_ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { minItems: 1, maxItems: 1000 }),
});

export const SaveStatus = Type.Object({ status: Type.Literal("success") });
