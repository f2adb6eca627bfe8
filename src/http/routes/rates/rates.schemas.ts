import { type Static, Type } from "typebox";
import {
  ADDRESS_FIELDS_ONLY,
  CarrierCodeList,
  RateLocationIn,
  RateParcelIn,
  ReturnLocationIn,
  ServiceIdList,
} from "../shipment.schemas.js";

export const RateRequestBody = Type.Object({
  shipment: Type.Object({
    to_location: RateLocationIn,
    from_location: RateLocationIn,
    return_location: Type.Optional(
      Type.Union([
        Type.Object({ ...ReturnLocationIn.properties, ...RateLocationIn.properties }, ADDRESS_FIELDS_ONLY),
        Type.Null(),
      ]),
    ),
    parcels: Type.Array(RateParcelIn, { minItems: 1, maxItems: 50 }),
    include_services: Type.Optional(ServiceIdList),
    include_carriers: Type.Optional(CarrierCodeList),
    exclude_carriers: Type.Optional(CarrierCodeList),
    ship_date: Type.Optional(Type.String({ format: "date", description: "YYYY-MM-DD; today when absent" })),
  }),
});
export type RateRequestBody = Static<typeof RateRequestBody>;

const CostDetail = Type.Object({ type: Type.String(), description: Type.String(), amount: Type.Number() });
const RateDetail = Type.Object({
  cost_type: Type.String({ description: "`std` for the transportation charge, else the surcharge's kind" }),
  description: Type.Union([Type.String(), Type.Null()]),
  rate: Type.Number(),
});
const RateDetails = Type.Union([Type.Array(RateDetail), Type.Null()]);
const Money = Type.Union([Type.Number(), Type.Null()]);
const Days = Type.Union([Type.Integer(), Type.Null()]);

/** eHub's rate entry (the keys real eHub answers, in its order), then Porter's breakdown. */
export const ServiceRateOut = Type.Object(
  {
    service: Type.String(),
    service_id: Type.Integer(),
    service_code: Type.String(),
    carrier_code: Type.String(),
    rate: Money,
    rate_details: RateDetails,
    meter_rate: Money,
    meter_rate_details: RateDetails,
    retail_rate: Type.Union([Type.Number(), Type.Null()], {
      description: "The carrier's published retail price, where it publishes one",
    }),
    std_rates: Type.Union([Type.Array(RateDetail), Type.Null()]),
    errors: Type.Union([Type.String(), Type.Null()]),
    delivery_days: Days,
    min_delivery_days: Days,
    max_delivery_days: Days,
    delivery_date: Type.Union([Type.String(), Type.Null()]),
    delivery_guaranteed: Type.Boolean(),
    rate_calc_type: Type.Array(
      Type.Union([Type.Literal("standard"), Type.Literal("cubic"), Type.Literal("flat_rate")]),
    ),
    price_group: Type.Union([Type.String({ description: "Zone at home, price group abroad" }), Type.Null()]),
    package_type: Type.String(),
    zone: Type.Union([Type.String(), Type.Null()]),
    billable_weight: Type.Union([Type.Number({ description: "Ounces" }), Type.Null()]),
    shipping_cost_details: Type.Array(CostDetail),
  },
  { $id: "ServiceRate" },
);

export const RateResponse = Type.Object({
  service_rates: Type.Array(Type.Ref("ServiceRate")),
  warnings: Type.Array(Type.String()),
});

/**
 * The answer as the route documents it: RateResponse, sent already written as JSON text or its
 * bytes (rateResponseBody), which Fastify passes on as they are, so the handler's type for it is
 * the written answer.
 */
export const EncodedRateResponse = Type.Unsafe<string | Buffer>(RateResponse);
