import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { BoundedMap } from "../../bounded-map.js";
import { GRANTED_BY, isGranted, type Permission, parseRoles } from "../../domain/accounts/roles.js";
import { DomainError } from "../../domain/errors.js";
import { asArray } from "./idempotency.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** What the caller's user needs for this route (`GRANTED_BY` says which roles grant it). */
    permission?: Permission;
  }
}

/** "Billing, Primary or Owner". */
const spelled = (roles: readonly string[]) =>
  roles.length < 2 ? roles.join("") : `${roles.slice(0, -1).join(", ")} or ${roles.at(-1)}`;

/**
 * Whether a user's stored roles grant `permission`, answered once per stored value: the check
 * runs on every request, and users hold one of a handful of role lists.
 */
function grantsOf(permission: Permission): (stored: string) => boolean {
  const answers = new BoundedMap<string, boolean>(64);
  return (stored) => {
    let granted = answers.get(stored);
    if (granted === undefined) {
      granted = isGranted(parseRoles(stored), permission);
      answers.set(stored, granted);
    }
    return granted;
  };
}

/**
 * Every route of the calling scope declares the permission it needs in `config.permission`; one
 * without is a programming error and stops the server from starting. The check runs as the route's
 * own `onRequest` hook: after the key and the child form's scope are known, before the body is
 * read, and so before the idempotency hook (the last `preHandler`) could replay a stored answer.
 * The permission shows in the OpenAPI document as `x-permission`.
 */
export function registerAuthorization(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    const permission = route.config?.permission;
    if (permission === undefined) {
      throw new Error(`${route.method} ${route.url} declares no config.permission`);
    }
    const roles = GRANTED_BY[permission];
    const grants = grantsOf(permission);
    const refusal = `This operation needs the ${permission} permission: the ${spelled(roles)} role.`;
    const check = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (grants(request.caller.roles)) return done();
      done(new DomainError("errors.forbidden", refusal));
    };
    route.onRequest = [...asArray(route.onRequest), check];
    const description = route.schema?.description;
    route.schema = {
      ...route.schema,
      description: `Needs the \`${permission}\` permission (${spelled(roles)}).${description ? `\n\n${description}` : ""}`,
      "x-permission": permission,
    } as typeof route.schema;
  });
}
