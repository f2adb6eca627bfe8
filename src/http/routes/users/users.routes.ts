import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { maskApiKey } from "../../../domain/accounts/api-keys.js";
import { listUsersWithKeys } from "../../../domain/accounts/list-users.js";
import { rotateKeys } from "../../../domain/accounts/manage-keys.js";
import { canAdministerUsers, parseRoles } from "../../../domain/accounts/roles.js";
import { DomainError } from "../../../domain/errors.js";
import { ApiKeysOnce } from "../customers/customers.schemas.js";
import { errorResponses, IdParam } from "../schemas.js";

/**
 * Only Primary and Owner users see and rotate the account's keys (the spec's role rules). It runs
 * as the route's `onRequest` hook, before any idempotent replay of a stored answer.
 */
async function requireAdministrator(request: FastifyRequest): Promise<void> {
  if (!canAdministerUsers(parseRoles(request.caller.roles))) {
    throw new DomainError("errors.forbidden", "Only users with the Primary or Owner role may manage users and keys.");
  }
}

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/users",
    {
      onRequest: requireAdministrator,
      schema: {
        tags: ["Users"],
        summary: "List the account's users with their keys masked (Primary or Owner)",
        response: { 200: Type.Object({ users: Type.Array(Type.Ref("User")) }), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const users = await listUsersWithKeys(app.services, [request.caller.accountId]);
      return {
        users: users.map(({ user, keys }) => ({
          id: user.id,
          email: user.email,
          first_name: user.first_name,
          last_name: user.last_name,
          roles: parseRoles(user.roles),
          api_keys: keys.map((k) => ({
            mode: k.mode,
            api_key: maskApiKey(k.prefix, k.last4),
            created_at: k.created_at,
          })),
        })),
      };
    },
  );

  app.post(
    "/users/:id/keys/rotate",
    {
      onRequest: requireAdministrator,
      config: { secretAnswerKeys: ["api_keys"] },
      schema: {
        tags: ["Users"],
        summary: "Replace a user's API keys; the old ones stop working at once (Primary or Owner)",
        params: IdParam,
        response: {
          201: Type.Object({ user: Type.Object({ id: Type.Integer(), email: Type.String() }), api_keys: ApiKeysOnce }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const rotated = await rotateKeys(app.services, id, [request.caller.accountId]);
      app.keyHolders.forgetKeyHashes(rotated.revokedHashes);
      return reply.code(201).send({ user: { id: rotated.user.id, email: rotated.user.email }, api_keys: rotated.keys });
    },
  );
};
