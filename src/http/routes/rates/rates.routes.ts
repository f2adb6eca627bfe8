import type { FastifyPluginAsync } from "fastify";
import { getRates } from "../../../domain/rates/get-rates.js";
import { errorResponses } from "../schemas.js";
import { normalizeLocation, normalizeServiceIds } from "../shipment-input.js";
import { rateResponseBody } from "./rates.presenter.js";
import { RateRequestBody, RateResponse, ServiceRateOut } from "./rates.schemas.js";

/** `POST /rates`: every connected carrier's price for a shipment; carrier failures are warnings. */
export const rateRoutes: FastifyPluginAsync = async (app) => {
  app.addSchema(ServiceRateOut);
  app.post(
    "/rates",
    {
      schema: {
        tags: ["Rates"],
        summary: "Rate a shipment across the connected carriers",
        body: RateRequestBody,
        response: { 201: RateResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { shipment } = request.body as RateRequestBody;
      const result = await getRates(app.services, request.scope, {
        ...shipment,
        to_location: normalizeLocation(shipment.to_location, "shipment.to_location"),
        from_location: normalizeLocation(shipment.from_location, "shipment.from_location"),
        include_services: normalizeServiceIds(shipment.include_services),
      });
      // Already JSON (see rateResponseBody); the response schema documents it.
      return reply.code(201).type("application/json; charset=utf-8").send(rateResponseBody(result));
    },
  );
};
