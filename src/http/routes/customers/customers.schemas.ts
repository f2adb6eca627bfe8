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

export const ApiKeysOnce = Type.Object({
  test: Type.String({ description: "Shown only in this response" }),
  production: Type.String({ description: "Shown only in this response" }),
});
