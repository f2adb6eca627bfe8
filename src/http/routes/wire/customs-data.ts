import { Type } from "typebox";
import { documented, documentedSchema } from "./documented.js";

/** customs_data of a parcel or an item, in the response's order. */
export const CUSTOMS_DATA_KEYS = ["content_type", "no_delivery", "hs_tariff_code", "value", "eel_pfc"] as const;

export const CustomsDataOut = documentedSchema(CUSTOMS_DATA_KEYS, { value: Type.Number() });

/** null when none was sent; otherwise every key, null where the sender left it out. */
export function presentCustomsData(customs: Readonly<Record<string, unknown>> | null | undefined) {
  return customs ? documented(CUSTOMS_DATA_KEYS, customs) : null;
}
