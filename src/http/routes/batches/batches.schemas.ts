import { Type } from "typebox";

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const ShipmentIds = Type.Array(
  Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.String({ pattern: "^[1-9]\\d{0,9}$" })]),
  {
    minItems: 1,
    maxItems: 40_000,
  },
);

/** eHub spells it `shipments_ids`; its prose says `shipment_ids`: both are taken. */
export const CreateBatchBody = Type.Object({
  shipments_ids: Type.Optional(ShipmentIds),
  shipment_ids: Type.Optional(ShipmentIds),
  include_merged: Type.Optional(
    Type.Boolean({ description: "Merge the documents and labels into one PDF (merged_docs)" }),
  ),
});

export const DailyBatchBody = Type.Object({
  shipment_date: Type.String({ minLength: 8, maxLength: 40, description: "YYYY-MM-DD or DD-MM-YYYY" }),
});

export const ListBatchesQuery = Type.Object({
  date_from: Type.String({ minLength: 8, maxLength: 40, description: "YYYY-MM-DD or DD-MM-YYYY" }),
  date_to: Type.String({ minLength: 8, maxLength: 40, description: "YYYY-MM-DD or DD-MM-YYYY" }),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

/** eHub's Batch: id as a string; `bol_url` and `tracking_number` null until generated. */
export const BatchOut = Type.Object(
  {
    id: Type.String(),
    bol_url: nullable(Type.String()),
    created_at: Type.String(),
    shipments_ids: Type.Array(Type.Integer()),
    tracking_number: nullable(Type.String()),
    errors: nullable(Type.String()),
    status: Type.String({ enum: ["pending", "generated", "refused"] }),
    carrier_code: Type.String(),
    merged_docs: nullable(Type.String()),
  },
  { $id: "Batch" },
);
