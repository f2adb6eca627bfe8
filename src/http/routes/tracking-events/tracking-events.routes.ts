import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { DomainError } from "../../../domain/errors.js";
import {
  type CustomTrackingEvent,
  createTrackingEvents,
  GDE_EVENT_CODES,
  type GdeEventCode,
} from "../../../domain/tracking/create-tracking-events.js";
import { parseInstant } from "../dates.js";
import { errorResponses, IdParam } from "../schemas.js";
import { SaveStatus, ShipmentTrackingEventBody, TrackingEventsBody } from "./tracking-events.schemas.js";

function customEvent(body: ShipmentTrackingEventBody): CustomTrackingEvent {
  if (!(body.code in GDE_EVENT_CODES)) {
    throw new DomainError("request.invalid", `code must be 80, 81 or 82; got ${body.code}.`);
  }
  return {
    code: body.code as GdeEventCode,
    secondaryCode: body.secondary_code ?? null,
    description: body.description ?? null,
    occurredAt: parseInstant("event_timestamp", body.event_timestamp),
    city: body.city ?? null,
    state: body.state ?? null,
    postalCode: body.postal_code ?? null,
    country: body.country?.toUpperCase() ?? null,
  };
}

/** Custom tracking events for GDE shipments. */
export const trackingEventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    "/shipments/:id/tracking_events",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Tracking"],
        summary: "Add a custom tracking event (80, 81 or 82) to a GDE shipment",
        params: IdParam,
        body: ShipmentTrackingEventBody,
        response: { 201: SaveStatus, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const event = customEvent(request.body);
      await createTrackingEvents(app.services, request.scope, [request.params.id], event);
      return reply.code(201).send({ status: "success" });
    },
  );

  app.post(
    "/tracking_events",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Tracking"],
        summary: "Add a custom tracking event (80, 81 or 82) to several GDE shipments",
        body: TrackingEventsBody,
        response: { 201: SaveStatus, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await createTrackingEvents(app.services, request.scope, body.shipment_ids, customEvent(body));
      return reply.code(201).send({ status: "success" });
    },
  );
};
