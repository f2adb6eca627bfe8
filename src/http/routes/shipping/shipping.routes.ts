import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { checkAddress } from "../../../domain/addresses/check-address.js";
import { errorResponses } from "../schemas.js";
import { presentValidatedAddress, ValidatedAddressOut } from "../wire/address.js";

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const ValidateQuery = Type.Object({
  address1: text(200),
  address2: Type.Optional(Type.String({ maxLength: 200 })),
  address3: Type.Optional(Type.String({ maxLength: 200 })),
  city: text(100),
  state: text(50),
  country: Type.String({ pattern: "^[A-Za-z]{2}$" }),
  postal_code: text(20),
  company: Type.Optional(Type.String({ maxLength: 100 })),
});

/** `GET /shipping/validate_address`: the standard form of an address (a real carrier's when connected) and whether it changed. */
export const shippingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/shipping/validate_address",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Shipments"],
        summary: "Validate and standardize an address",
        querystring: ValidateQuery,
        response: {
          200: Type.Object({
            validate_address: Type.Object({
              is_valid: Type.Boolean(),
              has_update: Type.Boolean(),
              messages: Type.Array(Type.String()),
              address: ValidatedAddressOut,
            }),
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const result = await checkAddress(app.services, request.scope, request.query);
      return {
        validate_address: {
          is_valid: result.isValid,
          has_update: result.hasUpdate,
          messages: result.reasons,
          address: presentValidatedAddress(result.address),
        },
      };
    },
  );
};
