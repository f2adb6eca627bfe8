import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { createCustomer } from "../../../domain/accounts/create-customer.js";
import { getCustomer, listCustomers } from "../../../domain/accounts/list-customers.js";
import { settingCents } from "../money-input.js";
import { errorResponses, IdParam } from "../schemas.js";
import { presentCustomer } from "./customers.presenter.js";
import { ApiKeysOnce, CreateCustomerBody, ListCustomersQuery } from "./customers.schemas.js";

/** The template as kept: its plain fields as sent, and the refill settings in whole cents. */
function templateOf(template: CreateCustomerBody["customer"]["template_data"]) {
  if (!template) return {};
  const { payment, ...plain } = template;
  return {
    templateData: plain,
    refill: {
      triggerCents: settingCents("refill_trigger_balance", payment?.refill_trigger_balance),
      amountCents: settingCents("refill_amount", payment?.refill_amount),
    },
  };
}

/** Child accounts of the caller (eHub "customers"); a parent sees only its own children. */
export const customerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/customers",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Customers"],
        summary: "List child accounts",
        querystring: ListCustomersQuery,
        response: { 200: Type.Object({ customers: Type.Array(Type.Ref("Customer")) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { ids } = request.query;
      const idList = ids
        ?.split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .map(Number);
      const customers = await listCustomers(app.services, request.scope.accountId, idList);
      return { customers: customers.map((c) => presentCustomer(c, request.scope.mode)) };
    },
  );

  app.get(
    "/customers/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Customers"],
        summary: "Retrieve a child account",
        params: IdParam,
        response: { 200: Type.Ref("Customer"), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return presentCustomer(await getCustomer(app.services, request.scope.accountId, id), request.scope.mode);
    },
  );

  app.post(
    "/customers",
    {
      config: { permission: "administration", secretAnswerKeys: ["api_keys"] },
      schema: {
        tags: ["Customers"],
        summary: "Create a child account with its first API user",
        body: CreateCustomerBody,
        response: {
          201: Type.Object({ customer: Type.Ref("Customer"), api_keys: ApiKeysOnce }),
          ...errorResponses(400, 401, 403, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const { customer } = request.body;
      const created = await createCustomer(app.services, request.scope.accountId, {
        name: customer.name,
        email: customer.email,
        phone: customer.phone,
        externalId: customer.external_id,
        ...templateOf(customer.template_data),
        user: {
          email: customer.user.email,
          firstName: customer.user.first_name,
          lastName: customer.user.last_name,
          phone: customer.user.phone,
        },
      });
      const keys = created.created.keys;
      if (!keys) throw new Error("a customer's first user always has the API role");
      const record = await getCustomer(app.services, request.scope.accountId, created.account.id);
      const presented = presentCustomer(record, request.scope.mode);
      return reply.code(201).send({ customer: presented, api_keys: keys });
    },
  );
};
