import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { carrierApiStatuses } from "../../../domain/carriers/service-status.js";
import { errorResponses } from "../schemas.js";

/** `GET /status`: the state of each connected carrier's APIs (eHub's Service Statuses). */
export const statusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/status",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Service status"],
        summary: "Status of the connected carriers' rate, label, manifest, tracking and pickup services",
        response: {
          200: Type.Object({
            api_services: Type.Array(
              Type.Object({
                api_service: Type.String(),
                api_service_code: Type.String(),
                status: Type.String(),
                message: Type.Union([Type.String(), Type.Null()]),
                scheduled_events: Type.Array(Type.Unknown()),
                calls_last_hour: Type.Union([Type.Integer(), Type.Null()]),
                calls_per_hour: Type.Union([Type.Integer(), Type.Null()]),
              }),
            ),
          }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      const rows = await carrierApiStatuses(app.services, request.scope);
      return {
        api_services: rows.map((row) => ({
          api_service: `${row.carrierName} ${row.api} services`,
          api_service_code: `${row.carrierCode}_${row.api}`,
          status: row.status,
          message: row.message,
          scheduled_events: [],
          calls_last_hour: row.callsLastHour,
          calls_per_hour: row.callsPerHour,
        })),
      };
    },
  );
};
