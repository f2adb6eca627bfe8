import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { ALL_LISTED_SERVICES } from "../../../carriers/registry.js";
import { findZones } from "../../../domain/carriers/find-zones.js";
import { errorResponses } from "../schemas.js";
import { presentService } from "./services.presenter.js";

const ServiceOut = Type.Object(
  {
    service_id: Type.Integer(),
    service: Type.String(),
    service_code: Type.String(),
    carrier_code: Type.String(),
    category: Type.String(),
    package_types: Type.Array(Type.Object({ type: Type.String(), name: Type.String() })),
    sort_order: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: "Service" },
);

const ZonesQuery = Type.Object({
  from_country: Type.String({ pattern: "^[A-Za-z]{2}$" }),
  from_postal_codes: Type.String({ minLength: 1, maxLength: 2000, description: "Comma-separated origin postal codes" }),
  to_country: Type.String({ pattern: "^[A-Za-z]{2}$" }),
  to_postal_code: Type.String({ minLength: 1, maxLength: 20 }),
});

/** The catalogue of carrier services and the zone lookup. */
export const serviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(ServiceOut);

  app.get(
    "/services",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Services"],
        summary: "Retrieve the carriers' services and their package types",
        querystring: Type.Object({
          category: Type.Optional(Type.String({ maxLength: 40 })),
          carrier_code: Type.Optional(Type.String({ maxLength: 40 })),
        }),
        response: { 200: Type.Object({ services: Type.Array(Type.Ref("Service")) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { category, carrier_code } = request.query;
      const services = ALL_LISTED_SERVICES.filter(
        ({ service }) =>
          (!category || service.category === category) && (!carrier_code || service.carrierCode === carrier_code),
      );
      return { services: services.map(presentService) };
    },
  );

  app.get(
    "/services/:service_id/zones",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Services"],
        summary: "Find the zone from each origin postal code to one destination",
        params: Type.Object({ service_id: Type.Integer({ minimum: 1 }) }),
        querystring: ZonesQuery,
        response: {
          200: Type.Object({ zones: Type.Array(Type.Object({ postal_code: Type.String(), zone: Type.String() })) }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const query = request.query;
      const zones = findZones({
        serviceId: request.params.service_id,
        fromCountry: query.from_country,
        fromPostalCodes: query.from_postal_codes
          .split(",")
          .map((code) => code.trim())
          .filter(Boolean),
        toCountry: query.to_country,
        toPostalCode: query.to_postal_code,
      });
      return { zones: zones.map(({ postalCode, zone }) => ({ postal_code: postalCode, zone })) };
    },
  );
};
