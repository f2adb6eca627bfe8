import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { listUsersWithKeys } from "../../../domain/accounts/list-users.js";
import { rotateKeys } from "../../../domain/accounts/manage-keys.js";
import { addUser, changeRoles } from "../../../domain/accounts/manage-users.js";
import { ApiKeysOnce } from "../customers/customers.schemas.js";
import { errorResponses, IdParam } from "../schemas.js";
import { presentUser } from "./users.presenter.js";
import { AddUserBody, ChangeRolesBody, RotatedKeys } from "./users.schemas.js";

/** A user as listed, with the keys made for them when there are new ones (shown only in this answer). */
const UserAnswer = Type.Object({ user: Type.Ref("User"), api_keys: Type.Optional(ApiKeysOnce) });

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
      return { users: users.map(presentUser) };
    },
  );

  app.post(
    "/users",
    {
      config: { permission: "administration", secretAnswerKeys: ["api_keys"] },
      schema: {
        tags: ["Users"],
        summary: "Add a user to the account with roles; an API user's keys come in the answer, once (Primary or Owner)",
        body: AddUserBody,
        response: { 201: UserAnswer, ...errorResponses(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { user } = request.body;
      const added = await addUser(app.services, {
        accountId: request.caller.accountId,
        email: user.email,
        firstName: user.first_name,
        lastName: user.last_name,
        phone: user.phone,
        roles: user.roles,
      });
      return reply.code(201).send({ user: presentUser(added.listed), api_keys: added.keys });
    },
  );

  app.put(
    "/users/:id",
    {
      config: { permission: "administration", secretAnswerKeys: ["api_keys"] },
      schema: {
        tags: ["Users"],
        summary:
          "Change a user's roles; losing API revokes the user's keys, gaining it issues new ones (Primary or Owner)",
        params: IdParam,
        body: ChangeRolesBody,
        response: { 200: UserAnswer, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const changed = await changeRoles(
        app.services,
        request.caller.accountId,
        request.params.id,
        request.body.user.roles,
      );
      // This process stops honouring the old roles (or revoked keys) at once; others within the cache's lifetime.
      app.keyHolders.forgetKeyHashes(changed.changedKeyHashes);
      return { user: presentUser(changed.listed), api_keys: changed.keys };
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
