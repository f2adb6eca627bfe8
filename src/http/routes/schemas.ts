import { Type } from "typebox";
import { MAX_INTEGER } from "../plugins/finite-numbers.js";

/** Shapes shared by many routes. */
export const ErrorBodySchema = Type.Object(
  {
    status: Type.Literal("error"),
    error_code: Type.String(),
    error_message: Type.String(),
  },
  { $id: "ErrorBody" },
);

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, Type.Ref("ErrorBody")]));

export const IdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_INTEGER }) });

/**
 * A 204's answer: `null` in the OpenAPI document (how it shows a response without a body), and no
 * body at all for the handler, which answers `reply.code(204).send()`.
 */
export const NoContent = Type.Unsafe<undefined>(Type.Null());
