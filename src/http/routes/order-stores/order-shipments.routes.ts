import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { OrderShipmentRow } from "../../../domain/orders/orders.repository.js";
import { cancelOrderShipment, shipOrder } from "../../../domain/orders/ship-order.js";
import { parseInstant } from "../dates.js";
import { errorResponses } from "../schemas.js";
import { OrderParams, shipItems } from "./orders.schemas.js";

const ShipOrderBody = Type.Object({
  shipping_cost: Type.Number({ minimum: 0, maximum: 10_000_000, description: "US dollars, e.g. 7.25" }),
  ship_date: Type.String({ minLength: 1, maxLength: 64 }),
  tracking_number: Type.String({ minLength: 1, maxLength: 100 }),
  carrier: Type.String({ minLength: 1, maxLength: 100 }),
  service: Type.String({ minLength: 1, maxLength: 100 }),
  weight: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.Null()])),
  notify: Type.Optional(Type.Boolean({ default: true })),
  items: shipItems(
    "Beyond eHub: the items this shipment carries, each named as the order shows it (id, external_id, item_id or sku) with a quantity (default: what is left of it). Absent, the shipment carries the rest of the order.",
  ),
});

/** eHub types the ids as numbers here and as strings in the cancel answer (reference A-42). */
const Shipped = Type.Object({
  shipment: Type.Object({ id: Type.Integer(), shipment_id: Type.Union([Type.Integer(), Type.String(), Type.Null()]) }),
});
const Cancelled = Type.Object({
  shipment: Type.Object({ id: Type.String(), shipment_id: Type.Union([Type.String(), Type.Null()]) }),
});

/**
 * The platform's id for the written-back shipment (a Shopify fulfillment; the first when the
 * order shipped from several locations), typed as eHub types each answer; null for custom stores.
 */
function platformShipmentId(shipment: OrderShipmentRow, as: "number"): number | string | null;
function platformShipmentId(shipment: OrderShipmentRow, as: "string"): string | null;
function platformShipmentId(shipment: OrderShipmentRow, as: "number" | "string"): number | string | null {
  const first = shipment.platform_shipment_id?.split(",")[0];
  if (!first) return null;
  return as === "number" && /^[1-9]\d{0,14}$/.test(first) ? Number(first) : first;
}

/** Ship an order and cancel its shipment. */
export const orderShipmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Clients post to the singular path too; it is the same operation.
  for (const noun of ["shipments", "shipment"]) {
    app.post(
      `/order_stores/:order_store_id/orders/:order_number/${noun}`,
      {
        config: { permission: "shipping" },
        schema: {
          tags: ["Orders"],
          summary: "Record a shipment of an order and mark it shipped (partial when only some items ship)",
          params: OrderParams,
          body: ShipOrderBody,
          response: { 201: Shipped, ...errorResponses(400, 401, 404, 422) },
        },
      },
      async (request, reply) => {
        const params = request.params;
        const body = request.body;
        const shipment = await shipOrder(app.services, request.scope, params.order_store_id, params.order_number, {
          shippingCost: body.shipping_cost,
          shipDate: parseInstant("ship_date", body.ship_date).toISOString(),
          trackingNumber: body.tracking_number,
          carrier: body.carrier,
          service: body.service,
          weightOz: body.weight,
          notify: body.notify,
          items: body.items,
        });
        return reply
          .code(201)
          .send({ shipment: { id: shipment.id, shipment_id: platformShipmentId(shipment, "number") } });
      },
    );

    app.post(
      `/order_stores/:order_store_id/orders/:order_number/${noun}/cancel`,
      {
        config: { permission: "shipping" },
        schema: {
          tags: ["Orders"],
          summary: "Cancel an order's latest shipment; with none left the order is pending again",
          params: OrderParams,
          response: { 201: Cancelled, ...errorResponses(400, 401, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const params = request.params;
        const shipment = await cancelOrderShipment(
          app.services,
          request.scope,
          params.order_store_id,
          params.order_number,
        );
        return reply
          .code(201)
          .send({ shipment: { id: String(shipment.id), shipment_id: platformShipmentId(shipment, "string") } });
      },
    );
  }
};
