import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { type Static, Type } from "typebox";
import {
  changeOrderStore,
  createOrderStore,
  deleteOrderStore,
  findOrderStores,
  getOrderStore,
} from "../../../domain/orders/order-stores.js";
import type { OrderStoreRow } from "../../../domain/orders/order-stores.repository.js";
import { requestOrderStoreSync } from "../../../domain/orders/sync-order-store.js";
import { errorResponses, IdParam, NoContent } from "../schemas.js";

const OrderStore = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    external_id: Type.Union([Type.String(), Type.Null()]),
    service_type: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: "OrderStore" },
);

const Credentials = Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), {
  maxProperties: 20,
  description:
    "shopify: shop_domain with client_id and client_secret (a Dev Dashboard app) or access_token (a legacy custom app), webhook_secret (optional); woocommerce: site_url, consumer_key, consumer_secret, webhook_secret (optional)",
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const ExternalId = Type.Union([Type.String({ maxLength: 200 }), Type.Null()]);

const CreateBody = Type.Object({
  order_store: Type.Object({
    name: Name,
    service_type: Type.Union([Type.Literal("custom"), Type.Literal("shopify"), Type.Literal("woocommerce")]),
    external_id: Type.Optional(ExternalId),
    credentials: Type.Optional(Credentials),
  }),
});

const UpdateBody = Type.Object({
  order_store: Type.Object({
    name: Type.Optional(Name),
    external_id: Type.Optional(ExternalId),
    credentials: Type.Optional(Credentials),
  }),
});

function present(row: OrderStoreRow): Static<typeof OrderStore> {
  return {
    id: row.id,
    name: row.name,
    external_id: row.external_id,
    service_type: row.service_type,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const Answer = Type.Object({ order_store: Type.Ref("OrderStore") });

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
const SyncAnswer = Type.Object({
  sync: Type.Object({
    order_store_id: Type.Integer(),
    status: Nullable(Type.String({ description: "queued, running, succeeded or failed; null before the first sync" })),
    error: Nullable(Type.String({ description: "Why the last sync failed, in the platform's words" })),
    last_synced_at: Nullable(Type.String({ description: "When the last sync that read every page started" })),
  }),
});

function presentSync(row: OrderStoreRow): Static<typeof SyncAnswer> {
  return {
    sync: {
      order_store_id: row.id,
      status: row.sync_status,
      error: row.sync_error,
      last_synced_at: row.last_synced_at,
    },
  };
}

/** Order stores and, since a self-hosted Porter has no portal, their management. */
export const orderStoreRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(OrderStore);
  const idOf = (params: unknown) => (params as { id: number }).id;

  app.get(
    "/order_stores",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "List order stores",
        response: {
          200: Type.Object({ order_stores: Type.Array(Type.Ref("OrderStore")) }),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => ({ order_stores: (await findOrderStores(app.services, request.scope)).map(present) }),
  );

  app.post(
    "/order_stores",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Create a custom store or connect a platform store (credentials are sealed and never returned)",
        body: CreateBody,
        response: { 201: Answer, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request, reply) => {
      const { order_store: input } = request.body;
      const row = await createOrderStore(app.services, request.scope, input.service_type, {
        name: input.name,
        externalId: input.external_id,
        credentials: input.credentials,
      });
      return reply.code(201).send({ order_store: present(row) });
    },
  );

  app.get(
    "/order_stores/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Retrieve an order store",
        params: IdParam,
        response: { 200: Answer, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      order_store: present(await getOrderStore(app.services, request.scope, idOf(request.params))),
    }),
  );

  app.put(
    "/order_stores/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Rename an order store or replace its credentials",
        params: IdParam,
        body: UpdateBody,
        response: { 200: Answer, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => {
      const { order_store: input } = request.body;
      const row = await changeOrderStore(app.services, request.scope, idOf(request.params), {
        name: input.name,
        externalId: input.external_id,
        credentials: input.credentials,
      });
      return { order_store: present(row) };
    },
  );

  app.get(
    "/order_stores/:id/sync",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "The store's sync state: the last sync's outcome and the platform's words when it failed",
        params: IdParam,
        response: { 200: SyncAnswer, ...errorResponses(401, 404) },
      },
    },
    async (request) => presentSync(await getOrderStore(app.services, request.scope, idOf(request.params))),
  );

  app.post(
    "/order_stores/:id/sync",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Import the platform store's new and changed orders now (queued; answers the store's sync state)",
        params: IdParam,
        response: { 202: SyncAnswer, ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const row = await requestOrderStoreSync(app.services, request.scope, idOf(request.params));
      return reply.code(202).send(presentSync(row));
    },
  );

  app.delete(
    "/order_stores/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Delete an order store",
        params: IdParam,
        response: { 204: NoContent, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await deleteOrderStore(app.services, request.scope, idOf(request.params));
      return reply.code(204).send();
    },
  );
};
