import { type Static, Type } from "typebox";
import { NullableMoneyIn, REFILL_SETTING } from "../money-input.js";

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const optionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

const money = Type.Optional(NullableMoneyIn({ ...REFILL_SETTING, description: "Dollars, or null" }));

/** The customer template without its secrets: keys and card numbers are not taken here. */
const TemplateDataIn = Type.Object({
  shipper_id: optionalText(200),
  shipping_platform_id: optionalText(200),
  usps_reference_code: optionalText(200),
  accounting_contact: Type.Optional(
    Type.Object({
      accounting_first_name: optionalText(100),
      accounting_last_name: optionalText(100),
      accounting_email: optionalText(320),
      contact_type: optionalText(100),
    }),
  ),
  payment: Type.Optional(
    Type.Object({
      refill_trigger_balance: money,
      refill_amount: money,
    }),
  ),
});

export const CreateCustomerBody = Type.Object({
  customer: Type.Object({
    name: text(200),
    email: optionalText(320),
    phone: optionalText(40),
    external_id: optionalText(200),
    user: Type.Object({
      email: Type.String({ format: "email", maxLength: 320 }),
      first_name: optionalText(100),
      last_name: optionalText(100),
      phone: optionalText(40),
    }),
    template_data: Type.Optional(TemplateDataIn),
  }),
});
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

export const ListCustomersQuery = Type.Object({
  ids: Type.Optional(
    Type.String({ pattern: "^\\s*(\\d+\\s*(,\\s*\\d+\\s*)*)?$", description: "Customer id or comma-separated ids" }),
  ),
});

export const ApiKeysOnce = Type.Object({
  test: Type.String({ description: "Shown only in this response" }),
  production: Type.String({ description: "Shown only in this response" }),
});
