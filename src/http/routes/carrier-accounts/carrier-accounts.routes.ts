import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { CARRIER_CODES } from "../../../carriers/catalogue.js";
import type { CarrierAccountRow } from "../../../domain/carriers/carrier-accounts.repository.js";
import { listConnectedCarrierAccounts } from "../../../domain/carriers/carrier-accounts.repository.js";
import { connectCarrier, disconnectCarrier, enabledServiceIdsOf } from "../../../domain/carriers/connect-carrier.js";
import { DomainError } from "../../../domain/errors.js";
import { errorResponses, IdParam, NoContent } from "../schemas.js";

const CarrierAccountOut = Type.Object(
  {
    id: Type.Integer(),
    carrier_code: Type.String(),
    mode: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    enabled_service_ids: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
    has_credentials: Type.Boolean(),
    created_at: Type.String(),
  },
  { $id: "CarrierAccount" },
);

const CreateBody = Type.Object({
  carrier_account: Type.Object({
    carrier_code: Type.String({ enum: [...CARRIER_CODES] }),
    mode: Type.Optional(Type.String({ enum: ["test", "production"] })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    credentials: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    enabled_service_ids: Type.Optional(
      Type.Union([Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 }), Type.Null()]),
    ),
  }),
});

/** Credentials are sealed at rest and never leave again; only whether there are any shows. */
function present(row: CarrierAccountRow, hasCredentials: boolean) {
  const enabled = enabledServiceIdsOf(row);
  return {
    id: row.id,
    carrier_code: row.carrier_code,
    mode: row.mode,
    description: row.description,
    enabled_service_ids: enabled ? [...enabled] : null,
    has_credentials: hasCredentials,
    created_at: row.created_at,
  };
}

/** An account's connections to carriers, in the mode of the calling key. */
export const carrierAccountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(CarrierAccountOut);
  const hasCredentials = (row: CarrierAccountRow) => app.services.secrets.open(row.credentials_ciphertext) !== "{}";

  app.get(
    "/carrier_accounts",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Carrier accounts"],
        summary: "List the connected carrier accounts",
        response: {
          200: Type.Object({ carrier_accounts: Type.Array(Type.Ref("CarrierAccount")) }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      const rows = await listConnectedCarrierAccounts(app.services.db, request.scope);
      return { carrier_accounts: rows.map((row) => present(row, hasCredentials(row))) };
    },
  );

  app.post(
    "/carrier_accounts",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Carrier accounts"],
        summary: "Connect a carrier account (credentials are encrypted at rest and never returned)",
        body: CreateBody,
        response: {
          201: Type.Object({ carrier_account: Type.Ref("CarrierAccount") }),
          ...errorResponses(400, 401, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const { carrier_account: input } = request.body;
      if (input.mode && input.mode !== request.scope.mode) {
        throw new DomainError(
          "carrier_account.mode_mismatch",
          `A ${request.scope.mode} key connects ${request.scope.mode} carrier accounts; use a ${input.mode} key.`,
        );
      }
      const row = await connectCarrier(app.services, request.scope, {
        carrierCode: input.carrier_code,
        credentials: input.credentials,
        enabledServiceIds: input.enabled_service_ids,
        description: input.description,
      });
      return reply.code(201).send({ carrier_account: present(row, Object.keys(input.credentials ?? {}).length > 0) });
    },
  );

  app.delete(
    "/carrier_accounts/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Carrier accounts"],
        summary: "Disconnect a carrier account",
        params: IdParam,
        response: { 204: NoContent, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await disconnectCarrier(app.services, request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
};
