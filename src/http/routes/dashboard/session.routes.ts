import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { Type } from "typebox";
import {
  csrfTokenFor,
  endSession,
  type NewSession,
  SESSION_ABSOLUTE_MS,
  type SessionHolder,
  signInWithLink,
  signInWithPassword,
  switchSession,
} from "../../../domain/accounts/dashboard-sessions.js";
import { PASSWORD_MAX_LENGTH } from "../../../domain/accounts/passwords.js";
import { isGranted, PERMISSIONS, type Permission, parseRoles } from "../../../domain/accounts/roles.js";
import { clearSessionCookie, setSessionCookie } from "../../dashboard-cookie.js";
import { requireSession } from "../../plugins/auth.js";
import { MAX_INTEGER } from "../../plugins/finite-numbers.js";
import { errorResponses, NoContent } from "../schemas.js";

const Mode = Type.Union([Type.Literal("test"), Type.Literal("production")]);
const AccountRef = Type.Object({ id: Type.Integer(), name: Type.String() });

const Session = Type.Object({
  user: Type.Object({ id: Type.Integer(), email: Type.String(), roles: Type.Array(Type.String()) }),
  permissions: Type.Array(Type.Unsafe<Permission>({ type: "string", enum: [...PERMISSIONS] }), {
    description:
      "What the user's roles allow (docs/security.md#roles): the pages show only what these allow; every route checks them again",
  }),
  account: Type.Object(
    { id: Type.Integer(), name: Type.String(), parent_id: Type.Union([Type.Integer(), Type.Null()]) },
    { description: "The account the session acts for: the user's own or one of its children" },
  ),
  own_account: AccountRef,
  mode: Mode,
  csrf_token: Type.String({ description: "Send it as `X-CSRF-Token` with every POST, PUT, PATCH and DELETE" }),
});

const present = (holder: SessionHolder, secret: string, services: Parameters<typeof csrfTokenFor>[0]) => {
  const roles = parseRoles(holder.roles);
  return {
    user: { id: holder.userId, email: holder.email, roles },
    permissions: PERMISSIONS.filter((permission) => isGranted(roles, permission)),
    account: {
      id: holder.actingAccountId,
      name: holder.actingAccountName,
      parent_id: holder.actingAccountId === holder.accountId ? holder.parentAccountId : holder.accountId,
    },
    own_account: { id: holder.accountId, name: holder.ownAccountName },
    mode: holder.mode,
    csrf_token: csrfTokenFor(services, secret),
  };
};

/**
 * The dashboard's sign-in and session (docs/dashboard.md). Signing in needs no key; the other
 * operations are authenticated by the session cookie itself, whatever the user's roles (what the
 * user may do is decided by each API route's permission).
 */
export const dashboardSessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const started = (reply: FastifyReply, session: NewSession) => {
    setSessionCookie(reply, session.secret, SESSION_ABSOLUTE_MS / 1000);
    return reply.code(201).send(present(session.holder, session.secret, app.services));
  };

  app.post(
    "/dashboard/session",
    {
      schema: {
        tags: ["Dashboard"],
        summary: "Sign in to the dashboard with an email address and a password (no key)",
        security: [],
        body: Type.Object({
          email: Type.String({ minLength: 1, maxLength: 320 }),
          password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH * 4 }),
        }),
        response: { 201: Session, ...errorResponses(401, 429) },
      },
    },
    async (request, reply) =>
      started(reply, await signInWithPassword(app.services, { ...request.body, clientAddress: request.ip })),
  );

  app.post(
    "/dashboard/session/link",
    {
      schema: {
        tags: ["Dashboard"],
        summary: "Sign in to the dashboard with a one-time link's token (no key)",
        security: [],
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 201: Session, ...errorResponses(401, 429) },
      },
    },
    async (request, reply) =>
      started(reply, await signInWithLink(app.services, { token: request.body.token, clientAddress: request.ip })),
  );

  app.get(
    "/dashboard/session",
    {
      schema: {
        tags: ["Dashboard"],
        summary: "The signed-in user, the acting account and mode, and the CSRF token",
        security: [{ dashboardSession: [] }],
        response: { 200: Session, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { holder, secret } = await requireSession(app, request);
      return present(holder, secret, app.services);
    },
  );

  app.put(
    "/dashboard/session",
    {
      schema: {
        tags: ["Dashboard"],
        summary: "Switch the session's mode, and its acting account to the user's own or a child",
        security: [{ dashboardSession: [] }],
        body: Type.Object({
          mode: Type.Optional(Mode),
          account_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTEGER })),
        }),
        response: { 200: Session, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { holder, secret } = await requireSession(app, request);
      await switchSession(app.services, holder, { mode: request.body.mode, accountId: request.body.account_id });
      const { holder: switched } = await requireSession(app, request);
      return present(switched, secret, app.services);
    },
  );

  app.delete(
    "/dashboard/session",
    {
      schema: {
        tags: ["Dashboard"],
        summary: "Sign out: the session ends and its cookie is cleared",
        security: [{ dashboardSession: [] }],
        response: { 204: NoContent, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const { holder } = await requireSession(app, request);
      await endSession(app.services, holder);
      clearSessionCookie(reply);
      return reply.code(204).send();
    },
  );
};
