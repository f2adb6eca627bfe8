import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import {
  createCustomOrders,
  findStoreOrders,
  getStoreOrder,
  updateCustomOrder,
} from "../../../domain/orders/custom-orders.js";
import type { OrderInput } from "../../../domain/orders/order-input.js";
import { parseInstant } from "../dates.js";
import { errorResponses } from "../schemas.js";
import { setPaginationHeaders } from "../shipments/shipments.routes.js";
import { presentOrder } from "./orders.presenter.js";
import {
  CreateOrdersBody,
  ListOrdersQuery,
  Order,
  OrderParams,
  StoreParams,
  UpdateOrderBody,
} from "./orders.schemas.js";

/** Dates arrive in any of eHub's forms and are kept as ISO 8601 UTC. */
function withDates<T extends OrderInput>(input: T, path: string): T {
  const instant = (field: "order_date" | "ship_by_date") => {
    const value = input[field];
    return value ? parseInstant(`${path}.${field}`, value).toISOString() : value;
  };
  return { ...input, order_date: instant("order_date"), ship_by_date: instant("ship_by_date") };
}

/** Orders of a store. */
export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(Order);
  const Orders = Type.Object({ orders: Type.Array(Type.Ref("Order")) });

  app.get(
    "/order_stores/:order_store_id/orders",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "List a store's orders by shipment status (pending by default)",
        params: StoreParams,
        querystring: ListOrdersQuery,
        response: { 200: Orders, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 100;
      const { store, records, total } = await findStoreOrders(
        app.services,
        request.scope,
        request.params.order_store_id,
        query.status ?? "pending",
        { limit: perPage, offset: (page - 1) * perPage },
      );
      setPaginationHeaders(reply, request, page, perPage, total);
      return { orders: records.map((record) => presentOrder(store, record, "list")) };
    },
  );

  app.get(
    "/order_stores/:order_store_id/orders/:order_number",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Retrieve an order by its order number (an array of one, with its shipments)",
        params: OrderParams,
        response: { 200: Orders, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const params = request.params;
      const { store, record } = await getStoreOrder(
        app.services,
        request.scope,
        params.order_store_id,
        params.order_number,
      );
      return { orders: [presentOrder(store, record, "retrieve")] };
    },
  );

  app.post(
    "/order_stores/:order_store_id/orders",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Create orders in a custom store",
        params: StoreParams,
        body: CreateOrdersBody,
        response: { 201: Orders, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const inputs = body.orders.map((order, index) => withDates(order, `orders[${index}]`));
      const { store, records } = await createCustomOrders(
        app.services,
        request.scope,
        request.params.order_store_id,
        inputs,
      );
      return reply.code(201).send({ orders: records.map((record) => presentOrder(store, record, "created")) });
    },
  );

  app.put(
    "/order_stores/:order_store_id/orders/:order_number",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Orders"],
        summary: "Change some fields of a custom store's order (the bare order back)",
        params: OrderParams,
        body: UpdateOrderBody,
        response: { 200: Type.Ref("Order"), ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request) => {
      const params = request.params;
      const { order } = request.body;
      const { store, record } = await updateCustomOrder(
        app.services,
        request.scope,
        params.order_store_id,
        params.order_number,
        withDates(order, "order"),
      );
      return presentOrder(store, record, "updated");
    },
  );
};
