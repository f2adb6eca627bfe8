import { Type } from "typebox";
import { documented, documentedSchema } from "./documented.js";

/** Addr-out: every address in a response, in eHub's documented order. */
export const ADDRESS_KEYS = [
  "external_id",
  "company",
  "first_name",
  "last_name",
  "nick_name",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "country",
  "postal_code",
  "phone",
  "email",
] as const;

/** `validate_address.address`: no `external_id`, plus `residential`. */
export const VALIDATED_ADDRESS_KEYS = [...ADDRESS_KEYS.slice(1), "residential"] as const;

export const AddressOut = documentedSchema(ADDRESS_KEYS, {}, {}, { $id: "Address" });

export const ValidatedAddressOut = documentedSchema(VALIDATED_ADDRESS_KEYS, { residential: Type.Boolean() });

type AddressFields = { readonly [Key in (typeof ADDRESS_KEYS)[number]]?: unknown };

/** An address as stored (the request's fields) on the wire; an empty line is no value. */
export function presentAddress(address: AddressFields) {
  return documented(ADDRESS_KEYS, withoutEmptyText(address));
}

function withoutEmptyText<Fields extends object>(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== "")) as Fields;
}

export function presentValidatedAddress(
  address: {
    readonly [Key in (typeof VALIDATED_ADDRESS_KEYS)[number]]?: unknown;
  },
) {
  return documented(VALIDATED_ADDRESS_KEYS, withoutEmptyText(address));
}
