import { type Static, Type } from "typebox";
import { ROLES } from "../../../domain/accounts/roles.js";

const Roles = Type.Array(Type.Union(ROLES.map((role) => Type.Literal(role))), {
  minItems: 1,
  maxItems: ROLES.length,
  description:
    "Owner and Primary administer the account (users, keys, child accounts); API holds keys and ships; Billing pays; Member grants nothing (docs/security.md, Roles)",
  examples: [["API", "Billing"]],
});

export const User = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    first_name: Type.Union([Type.String(), Type.Null()]),
    last_name: Type.Union([Type.String(), Type.Null()]),
    roles: Type.Array(Type.Union(ROLES.map((role) => Type.Literal(role)))),
    api_keys: Type.Array(
      Type.Object({
        mode: Type.String(),
        api_key: Type.String({ description: "Masked: prefix and last 4 characters" }),
        created_at: Type.String(),
      }),
    ),
  },
  { $id: "User" },
);

/** The keys a rotation made: only those of the calling key's mode, each shown only in this answer. */
export const RotatedKeys = Type.Object({
  test: Type.Optional(Type.String({ description: "Present when a test key rotated; shown only in this response" })),
  production: Type.Optional(
    Type.String({ description: "Present when a production key rotated; shown only in this response" }),
  ),
});

const optionalName = Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()]));

export const AddUserBody = Type.Object({
  user: Type.Object({
    email: Type.String({
      format: "email",
      maxLength: 320,
      description: "Unique across the installation; kept in lower case",
      examples: ["packer@example.com"],
    }),
    first_name: optionalName,
    last_name: optionalName,
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
    roles: Roles,
  }),
});
export type AddUserBody = Static<typeof AddUserBody>;

export const ChangeRolesBody = Type.Object({
  user: Type.Object({ roles: Roles }),
});
