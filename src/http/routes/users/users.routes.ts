import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { maskApiKey } from "../../../domain/accounts/api-keys.js";
import { listUsersWithKeys } from "../../../domain/accounts/list-users.js";
import { rotateKeys } from "../../../domain/accounts/manage-keys.js";
import { parseRoles } from "../../../domain/accounts/roles.js";
import { errorResponses, IdParam } from "../schemas.js";
import { RotatedKeys } from "./users.schemas.js";

/** The account's users and their keys, for Primary and Owner users only (src/domain/accounts/roles.ts). */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/users",
    {
      config: { permission: "administration" },
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
      config: { permission: "administration", secretAnswerKeys: ["api_keys"] },
      schema: {
        tags: ["Users"],
        summary:
          "Replace a user's API key of the calling key's mode; the old one stops working at once (Primary or Owner)",
        params: IdParam,
        response: {
          201: Type.Object({ user: Type.Object({ id: Type.Integer(), email: Type.String() }), api_keys: RotatedKeys }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const rotated = await rotateKeys(app.services, id, {
        accountIds: [request.caller.accountId],
        modes: [request.caller.mode],
      });
      app.keyHolders.forgetKeyHashes(rotated.revokedHashes);
      return reply.code(201).send({ user: { id: rotated.user.id, email: rotated.user.email }, api_keys: rotated.keys });
    },
  );
};
