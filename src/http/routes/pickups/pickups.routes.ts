import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { AddressInput } from "../../../domain/addresses/standardize-address.js";
import { DomainError, notFound } from "../../../domain/errors.js";
import { cancelPickup } from "../../../domain/pickups/cancel-pickup.js";
import { createPickup } from "../../../domain/pickups/create-pickup.js";
import { checkPickup, DEFAULT_PICKUP_CARRIER, pickupCarrierOf } from "../../../domain/pickups/pickup-availability.js";
import { findPickup, listPickups } from "../../../domain/pickups/pickups.repository.js";
import { parseCalendarDate } from "../dates.js";
import { errorResponses, IdParam } from "../schemas.js";
import { setPaginationHeaders } from "../shipments/shipments.routes.js";
import { presentAddress } from "../wire/address.js";
import { presentPickup } from "./pickups.presenter.js";
import {
  AvailabilityBody,
  AvailabilityOut,
  CreatePickupBody,
  ListPickupsQuery,
  type PickupLocationIn,
  PickupOut,
} from "./pickups.schemas.js";

/** Nulls dropped: the address rules take absent fields. */
function addressInput(location: PickupLocationIn): AddressInput & { external_id?: string } {
  return Object.fromEntries(
    Object.entries(location).filter(([, value]) => value !== null),
  ) as unknown as AddressInput & {
    external_id?: string;
  };
}

const STATUSES: Record<string, "REQUESTED" | "CANCELLED" | undefined> = {
  requested: "REQUESTED",
  cancelled: "CANCELLED",
  canceled: "CANCELLED",
  all: undefined,
};

/** Carrier pickups: USPS's, and those of the couriers connected. */
export const pickupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(PickupOut);
  const timing = { manifestDelayMs: app.services.config.manifestDelayMs };
  const pickupOut = Type.Object({ pickup: Type.Ref("Pickup") });

  app.post(
    "/pickups/availability",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Pickups"],
        summary:
          "Whether the carrier (USPS unless carrier_code names another) picks up at an address on a day, and if not why and the next day it does",
        body: AvailabilityBody,
        response: { 201: AvailabilityOut, ...errorResponses(400, 401, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const day = parseCalendarDate("pickup_date", body.pickup_date);
      const carrier = await pickupCarrierOf(app.services, request.scope, body.carrier_code ?? DEFAULT_PICKUP_CARRIER);
      const checked = checkPickup(carrier, addressInput(body.location), day, app.services.clock.now());
      return reply.code(201).send({
        available: checked.available,
        reason: checked.reason,
        location: presentAddress(checked.location as unknown as Record<string, unknown>),
        pickup_date: checked.pickupDate,
      });
    },
  );

  app.post(
    "/pickups",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Pickups"],
        summary: "Request a pickup of shipments and batches by the carrier that sold their labels",
        body: CreatePickupBody,
        response: { 201: pickupOut, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const pickup = request.body.pickup ?? {};
      const created = await createPickup(
        app.services,
        request.scope,
        {
          location: pickup.location ? addressInput(pickup.location) : undefined,
          pickupDate: pickup.pickup_date ? parseCalendarDate("pickup.pickup_date", pickup.pickup_date) : undefined,
          shipmentIds: (pickup.shipment_ids ?? []).map(Number),
          batchIds: (pickup.shipment_batch_ids ?? []).map(Number),
          createBatch: pickup.create_batch === true,
          locationDetail: pickup.location_detail ?? null,
          specialInstructions: pickup.special_instructions ?? null,
        },
        timing,
      );
      return reply.code(201).send({ pickup: presentPickup(created) });
    },
  );

  app.get(
    "/pickups",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Pickups"],
        summary: "List pickups by day; status requested by default (any case; `all` for every one)",
        querystring: ListPickupsQuery,
        response: { 200: Type.Object({ pickups: Type.Array(Type.Ref("Pickup")) }), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const statusKey = (query.status ?? "requested").toLowerCase();
      if (!(statusKey in STATUSES)) {
        throw new DomainError("request.invalid", `status "${query.status}" is not requested, cancelled or all.`);
      }
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 100;
      const { rows, total } = await listPickups(
        app.services.db,
        request.scope,
        {
          from: query.pickup_date_start ? parseCalendarDate("pickup_date_start", query.pickup_date_start) : undefined,
          to: query.pickup_date_end ? parseCalendarDate("pickup_date_end", query.pickup_date_end) : undefined,
          status: STATUSES[statusKey],
        },
        { limit: perPage, offset: (page - 1) * perPage },
      );
      setPaginationHeaders(reply, request, page, perPage, total);
      return { pickups: rows.map(presentPickup) };
    },
  );

  app.get(
    "/pickups/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Pickups"],
        summary: "Retrieve a pickup",
        params: IdParam,
        response: { 200: pickupOut, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const pickup = await findPickup(app.services.db, request.scope, id);
      if (!pickup) throw notFound("pickup", id);
      return { pickup: presentPickup(pickup) };
    },
  );

  app.delete(
    "/pickups/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Pickups"],
        summary: "Cancel a pickup (status CANCELLED); a pickup whose day has passed cannot be",
        params: IdParam,
        response: { 200: pickupOut, ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const pickup = await cancelPickup(app.services, request.scope, request.params.id);
      return { pickup: presentPickup(pickup) };
    },
  );
};
