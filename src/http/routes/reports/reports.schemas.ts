import { Type } from "typebox";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** eHub's meter transaction row. */
export const MeterTransactionOut = Type.Object(
  {
    customer_name: Type.String(),
    customer_id: Type.Integer(),
    transaction_date_time: Type.String({ description: "ISO 8601 UTC" }),
    transaction_type: Type.String({ description: "`debit` (money out of the meter) or `credit` (money in)" }),
    amount: Type.Number({ description: "Dollars, always positive; transaction_type gives the direction" }),
    tracking_numbers: Type.Array(Type.String(), { description: "The shipment's parcels; empty for refills" }),
  },
  { $id: "MeterTransaction" },
);

/** eHub's shipment adjustment row: what the label said and what USPS measured. */
export const ShipmentAdjustmentOut = Type.Object(
  {
    adjustment_id: Type.Integer(),
    adjustment_created_at: Type.String(),
    external_id: Nullable(Type.Integer()),
    customer_id: Type.Integer(),
    customer: Type.String(),
    shipment_id: Type.Integer(),
    tracking_number: Nullable(Type.String()),
    shipped_at: Nullable(Type.String()),
    from_country: Type.String(),
    from_postal_code: Type.String(),
    adj_from_postal_code: Type.String(),
    to_country: Type.String(),
    to_postal_code: Type.String(),
    ship_service: Type.String(),
    adj_service: Type.String(),
    ship_package: Type.String(),
    adj_package: Type.String(),
    ship_weight: Type.String({ description: "Ounces" }),
    adj_weight: Type.String({ description: "Ounces" }),
    ship_length: Type.String({ description: "Inches" }),
    adj_length: Type.String(),
    ship_width: Type.String(),
    adj_width: Type.String(),
    ship_height: Type.String(),
    adj_height: Type.String(),
    ship_meter_cost: Type.Number({ description: "Dollars: the postage of the package as labelled" }),
    adj_meter_cost: Type.Number({ description: "Dollars: the postage of the package as measured" }),
    meter_adj: Type.Number({ description: "Dollars charged (positive) or refunded (negative)" }),
  },
  { $id: "ShipmentAdjustment" },
);

/** eHub encodes booleans in queries as `true`/`false`; `1`/`0` are taken too. */
const IncludeChildren = Type.Optional(
  Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 1 })], {
    description: "Also the rows of the caller's child accounts",
  }),
);

const ReportWindow = {
  from_time: Type.Optional(
    Type.String({ maxLength: 40, description: "Rows created at or after (ISO 8601, YYYY-MM-DD …)" }),
  ),
  to_time: Type.Optional(Type.String({ maxLength: 40, description: "Rows created at or before" })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: "Default 10000" })),
  include_children: IncludeChildren,
  format: Type.Optional(
    Type.Literal("csv", {
      description:
        "`csv` answers the CSV file as `Accept: text/csv` does: for a browser's link, which sends no such header",
    }),
  ),
};

export const MeterTransactionQuery = Type.Object({
  carrier_code: Type.Optional(Type.String({ maxLength: 40 })),
  service_code: Type.Optional(Type.String({ maxLength: 80 })),
  status: Type.Optional(
    Type.String({ maxLength: 40, description: "The shipments' status; `all` (default) for every row" }),
  ),
  ...ReportWindow,
});

export const ShipmentAdjustmentQuery = Type.Object(ReportWindow);

/** One bar of the spend chart: a carrier's net postage in one UTC week. */
export const WeeklySpendOut = Type.Object(
  {
    week: Type.String({
      description: "The week's Monday (weeks start on Monday, in UTC), YYYY-MM-DD",
      examples: ["2026-01-12"],
    }),
    carrier_code: Type.String({ description: "The labels' carrier", examples: ["usps"] }),
    amount: Type.Number({
      description:
        "Dollars the meter paid for this carrier's labels that week: purchases and adjustments charged, less refunds and adjustments refunded (negative when refunds outweigh)",
      examples: [42.35],
    }),
  },
  { $id: "WeeklySpend" },
);

export const MeterSpendQuery = Type.Object({
  from_time: ReportWindow.from_time,
  to_time: ReportWindow.to_time,
  include_children: IncludeChildren,
});
