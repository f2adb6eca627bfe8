import { Type } from "typebox";

export const User = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    first_name: Type.Union([Type.String(), Type.Null()]),
    last_name: Type.Union([Type.String(), Type.Null()]),
    roles: Type.Array(Type.String()),
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
