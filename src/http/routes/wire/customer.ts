import { Type } from "typebox";
import { documentedSchema } from "./documented.js";

/** Customer, in eHub's documented order. */
export const CUSTOMER_KEYS = [
  "id",
  "parent_id",
  "external_id",
  "customer_template_id",
  "name",
  "phone",
  "email",
  "user",
  "template_data",
] as const;

export const CUSTOMER_USER_KEYS = ["id", "first_name", "last_name", "phone", "email", "api_key"] as const;

export const TEMPLATE_DATA_KEYS = [
  "ehub_api_key",
  "payment_api_key",
  "shipper_id",
  "shipping_platform_id",
  "usps_reference_code",
  "accounting_contact",
  "payment",
] as const;

export const ACCOUNTING_CONTACT_KEYS = [
  "accounting_first_name",
  "accounting_last_name",
  "accounting_email",
  "contact_type",
] as const;

/** `payment_method` holds card or bank numbers: Porter keeps none, so it is always null. */
export const TEMPLATE_PAYMENT_KEYS = ["refill_trigger_balance", "refill_amount", "payment_method"] as const;

export const Customer = documentedSchema(
  CUSTOMER_KEYS,
  {
    id: Type.Integer(),
    parent_id: Type.Integer(),
    customer_template_id: Type.Integer(),
    user: documentedSchema(CUSTOMER_USER_KEYS, {
      id: Type.Integer(),
      api_key: Type.String({ description: "Masked: prefix and last 4 characters" }),
    }),
    template_data: documentedSchema(TEMPLATE_DATA_KEYS, {
      accounting_contact: documentedSchema(ACCOUNTING_CONTACT_KEYS, {}),
      payment: documentedSchema(TEMPLATE_PAYMENT_KEYS, {
        refill_trigger_balance: Type.Number(),
        refill_amount: Type.Number(),
        payment_method: Type.Object({}, { additionalProperties: true }),
      }),
    }),
  },
  { created_at: Type.String() },
  { $id: "Customer" },
);
