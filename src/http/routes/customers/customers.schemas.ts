import { type Static, Type } from "typebox";

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const optionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

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
  }),
});
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

export const ListCustomersQuery = Type.Object({
  ids: Type.Optional(
    Type.String({ pattern: "^\\s*(\\d+\\s*(,\\s*\\d+\\s*)*)?$", description: "Customer id or comma-separated ids" }),
  ),
});

const CustomerUser = Type.Object({
  id: Type.Integer(),
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  email: Type.String(),
  api_key: Type.Union([Type.String({ description: "Masked: prefix and last 4 characters" }), Type.Null()]),
});

const nullableString = Type.Union([Type.String(), Type.Null()]);

export const Customer = Type.Object(
  {
    id: Type.Integer(),
    parent_id: Type.Union([Type.Integer(), Type.Null()]),
    external_id: nullableString,
    customer_template_id: Type.Union([Type.Integer(), Type.Null()]),
    name: Type.String(),
    phone: nullableString,
    email: nullableString,
    created_at: Type.String(),
    user: Type.Union([CustomerUser, Type.Null()]),
    template_data: Type.Object({
      ehub_api_key: nullableString,
      payment_api_key: nullableString,
      shipper_id: nullableString,
      shipping_platform_id: nullableString,
      usps_reference_code: nullableString,
    }),
  },
  { $id: "Customer" },
);

export const ApiKeysOnce = Type.Object({
  test: Type.String({ description: "Shown only in this response" }),
  production: Type.String({ description: "Shown only in this response" }),
});
