import type { FastifyPluginAsync } from "fastify";
import { Type } from "typebox";
import { findShipment, loadShipmentRecords } from "../../../domain/shipments/shipments.repository.js";
import { ADVANCE_TARGETS, type AdvanceTarget, advanceTracking } from "../../../domain/tracking/advance-tracking.js";
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

/** Sandbox controls beyond eHub, for integrators testing their handling of tracking (test keys only). */
export const sandboxRoutes: FastifyPluginAsync = async (app) => {
  app.addSchema(ShipmentOut);
  app.post(
    "/sandbox/shipments/:id/advance",
    {
      schema: {
        tags: ["Sandbox"],
        summary: "Move a test shipment's tracking to its next event, or on to a status, at once",
        params: IdParam,
        body: AdvanceBody,
        response: {
          200: Type.Object({ shipment: Type.Ref("Shipment") }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const id = (request.params as { id: number }).id;
      const to = (request.body as { to?: AdvanceTarget } | null)?.to;
      await advanceTracking(app.services, request.scope, id, to, { timeScale: app.services.config.sandboxTimeScale });
      const shipment = await findShipment(app.services.db, request.scope, id);
      const [record] = await loadShipmentRecords(app.services.db, shipment ? [shipment] : []);
      if (!record) throw new Error(`shipment ${id} was advanced and then vanished`);
      return { shipment: presentShipment(record, { baseUrl: app.services.config.publicBaseUrl }) };
    },
  );
};
