import { type Static, Type } from "typebox";
import { CarrierCodeList, LocationIn, ParcelIn, ServiceIdList } from "../shipment.schemas.js";

export const RateRequestBody = Type.Object({
  shipment: Type.Object({
    to_location: LocationIn,
    from_location: LocationIn,
    return_location: Type.Optional(LocationIn),
    parcels: Type.Array(ParcelIn, { minItems: 1, maxItems: 50 }),
    include_services: Type.Optional(ServiceIdList),
    include_carriers: Type.Optional(CarrierCodeList),
    exclude_carriers: Type.Optional(CarrierCodeList),
    ship_date: Type.Optional(Type.String({ format: "date", description: "YYYY-MM-DD; today when absent" })),
  }),
});
export type RateRequestBody = Static<typeof RateRequestBody>;

const CostDetail = Type.Object({ type: Type.String(), description: Type.String(), amount: Type.Number() });

export const ServiceRateOut = Type.Object(
  {
    service_id: Type.Integer(),
    service: Type.String(),
    service_code: Type.String(),
    carrier_code: Type.String(),
    package_type: Type.String(),
    rate: Type.Union([Type.Number(), Type.Null()]),
    meter_rate: Type.Union([Type.Number(), Type.Null()]),
    delivery_days: Type.Union([Type.Integer(), Type.Null()]),
    delivery_date: Type.Union([Type.String(), Type.Null()]),
    delivery_guaranteed: Type.Boolean(),
    zone: Type.Union([Type.String(), Type.Null()]),
    billable_weight: Type.Union([Type.Number({ description: "Ounces" }), Type.Null()]),
    shipping_cost_details: Type.Array(CostDetail),
    errors: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: "ServiceRate" },
);

export const RateResponse = Type.Object({
  service_rates: Type.Array(Type.Ref("ServiceRate")),
  warnings: Type.Array(Type.String()),
});
