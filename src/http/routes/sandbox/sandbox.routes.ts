import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { requestAdjustment } from "../../../domain/adjustments/adjust-shipment.js";
import { findShipment, loadShipmentRecords } from "../../../domain/shipments/shipments.repository.js";
import { ADVANCE_TARGETS, advanceTracking } from "../../../domain/tracking/advance-tracking.js";
import { presentShipmentAdjustment } from "../reports/reports.presenter.js";
import { ShipmentAdjustmentOut } from "../reports/reports.schemas.js";
import { errorResponses, IdParam } from "../schemas.js";
import { presentShipment } from "../shipments/shipments.presenter.js";
import { ShipmentOut } from "../shipments/shipments.schemas.js";

const AdvanceBody = Type.Union([
  Type.Object({
    to: Type.Optional(
      Type.Union(
        ADVANCE_TARGETS.map((target) => Type.Literal(target)),
        { description: "A status to move on to; without it, the next event" },
      ),
    ),
  }),
  Type.Null(),
]);

const Side = (name: string) =>
  Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 500, description: `The ${name} USPS measured, inches` }));

const AdjustBody = Type.Union([
  Type.Object({
    adj_weight: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: "The weight USPS measured, ounces" }),
    ),
    adj_length: Side("length"),
    adj_width: Side("width"),
    adj_height: Side("height"),
    adj_postal_code: Type.Optional(
      Type.String({ pattern: "^[0-9]{5}$", description: "The ZIP code the parcel entered the mail at" }),
    ),
    adj_service: Type.Optional(Type.String({ maxLength: 80, description: "The USPS service code it was priced as" })),
  }),
  Type.Null(),
]);

/** Sandbox controls beyond eHub, for integrators testing their handling of tracking (test keys only). */
export const sandboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(ShipmentOut);
  app.addSchema(ShipmentAdjustmentOut);
  app.post(
    "/sandbox/shipments/:id/advance",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Sandbox"],
        summary: "Move a test shipment's tracking to its next event, or on to a status, at once",
        params: IdParam,
        body: AdvanceBody,
        response: {
          200: Type.Object({ shipment: Type.Ref("Shipment") }),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => {
      const id = request.params.id;
      const to = request.body?.to;
      await advanceTracking(app.services, request.scope, id, to, {
        timeScale: app.services.config.sandboxTimeScale,
        auditPercent: app.services.config.sandboxAuditPercent,
      });
      const shipment = await findShipment(app.services.db, request.scope, id);
      const [record] = await loadShipmentRecords(app.services.db, shipment ? [shipment] : []);
      if (!record) throw new Error(`shipment ${id} was advanced and then vanished`);
      return { shipment: presentShipment(record, { baseUrl: app.services.config.publicBaseUrl }) };
    },
  );

  app.post(
    "/sandbox/shipments/:id/adjust",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Sandbox"],
        summary:
          "Have USPS measure a test shipment's next parcel as given (or heavier than declared) and adjust its postage",
        params: IdParam,
        body: AdjustBody,
        response: {
          201: Type.Object({ shipment_adjustment: Type.Ref("ShipmentAdjustment") }),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const { adjustment, customerName } = await requestAdjustment(app.services, request.scope, request.params.id, {
        weightOz: body.adj_weight,
        lengthIn: body.adj_length,
        widthIn: body.adj_width,
        heightIn: body.adj_height,
        fromPostalCode: body.adj_postal_code,
        serviceCode: body.adj_service,
      });
      return reply.code(201).send({
        shipment_adjustment: presentShipmentAdjustment(new Map([[adjustment.account_id, customerName]]), adjustment),
      });
    },
  );
};
