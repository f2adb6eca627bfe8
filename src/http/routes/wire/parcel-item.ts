import { Type } from "typebox";
import { CustomsDataOut, presentCustomsData } from "./customs-data.js";
import { documented, documentedSchema } from "./documented.js";

/** A parcel item in a response, in eHub's documented order. */
export const PARCEL_ITEM_KEYS = [
  "id",
  "item_id",
  "name",
  "accounting_number",
  "variant_name",
  "variant_id",
  "variant_option1",
  "variant_option2",
  "variant_option3",
  "image_src",
  "external_id",
  "sku",
  "weight",
  "length",
  "width",
  "height",
  "quantity",
  "price",
  "cost",
  "country_of_origin",
  "customs_data",
] as const;

// eHub's examples send ids as numbers or strings; the answer gives back what was sent.
const idSent = Type.Union([Type.Integer(), Type.String()]);

export const ParcelItemOut = documentedSchema(
  PARCEL_ITEM_KEYS,
  {
    id: idSent,
    variant_id: idSent,
    weight: Type.Number(),
    length: Type.Number(),
    width: Type.Number(),
    height: Type.Number(),
    quantity: Type.Number(),
    price: Type.Number(),
    cost: Type.Number(),
    customs_data: CustomsDataOut,
  },
  { description: Type.Union([Type.String(), Type.Null()]) },
);

/** An item as stored (the request's fields): every documented key, and its description. */
export function presentParcelItem(item: Readonly<Record<string, unknown>>) {
  return {
    ...documented(PARCEL_ITEM_KEYS, {
      ...item,
      customs_data: presentCustomsData(item.customs_data as Record<string, unknown> | null | undefined),
    }),
    description: item.description ?? null,
  };
}
