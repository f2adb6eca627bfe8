import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { type TObject, Type } from "typebox";
import { findAccount } from "../../domain/accounts/accounts.repository.js";
import { DomainError } from "../../domain/errors.js";
import { MAX_INTEGER } from "./finite-numbers.js";

const API_PREFIX = "/api/v2";
/** The path form a parent uses to act as one of its children (eHub's parent/child mechanism). */
export const CHILD_PREFIX = `${API_PREFIX}/customers/:customer_id`;

/** The child's id, declared on every child-form operation (the onRequest hook below checks it). */
const CustomerIdParam = {
  customer_id: Type.Integer({ minimum: 1, maximum: MAX_INTEGER, description: "The child account's id" }),
};

const noSuchCustomer = (id: string) =>
  new DomainError("customer.not_found", `No customer with id ${id} belongs to this account.`);

/**
 * Registers routes that a parent may also call for its child: once under `/api/v2`, and once
 * under `/api/v2/customers/{customer_id}`, where the request then acts as that child. Anyone but
 * the child's own parent gets 404, so the existence of other accounts is not revealed.
 */
export async function registerAccountScopedRoutes(app: FastifyInstance, routes: FastifyPluginAsync): Promise<void> {
  await app.register(routes, { prefix: API_PREFIX });
  await app.register(
    async (child) => {
      child.addHook("onRoute", (route) => {
        const params = route.schema?.params as TObject | undefined;
        route.schema = { ...route.schema, params: Type.Object({ ...CustomerIdParam, ...params?.properties }) };
      });
      // Before validation, so the id is the path's text as the router matched it.
      child.addHook<{ Params: { customer_id?: string } }>("onRequest", async (request) => {
        const raw = request.params.customer_id ?? "";
        const childId = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : undefined;
        if (childId === undefined || childId > MAX_INTEGER) throw noSuchCustomer(raw);
        const account = await findAccount(app.services.db, childId);
        const caller = request.caller;
        // What the caller may do for the child is the route's permission, checked after this hook.
        if (!account || account.parent_id !== caller.accountId) throw noSuchCustomer(raw);
        request.scope = { accountId: account.id, mode: caller.mode };
      });
      await child.register(routes);
    },
    { prefix: CHILD_PREFIX },
  );
}

/** Routes that only exist under `/api/v2` (no child form). */
export async function registerAccountRoutes(app: FastifyInstance, routes: FastifyPluginAsync): Promise<void> {
  await app.register(routes, { prefix: API_PREFIX });
}
