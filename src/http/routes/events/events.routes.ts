import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { listEvents } from "../../../domain/subscriptions/list-events.js";
import { errorResponses } from "../schemas.js";

const EventsQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 })),
  stream: Type.Optional(Type.Union([Type.Literal("shipment_tracking"), Type.Literal("payment_status")])),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

const StreamEvent = Type.Object({
  id: Type.Integer({ description: "The cursor: pass the last one seen as `after`" }),
  stream: Type.String(),
  occurred_at: Type.String(),
  created_at: Type.String(),
  payload: Type.Record(Type.String(), Type.Unknown(), { description: "The item a webhook carries" }),
});

/** Beyond eHub: the event stream webhooks deliver, read by cursor, for receivers that were down. */
export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/events",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Webhooks"],
        summary: "Events after a cursor, oldest first (beyond eHub)",
        querystring: EventsQuery,
        response: {
          200: Type.Object({
            events: Type.Array(StreamEvent),
            next_after: Type.Integer({ description: "The `after` of the next page" }),
            has_more: Type.Boolean(),
          }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const query = request.query;
      const after = query.after ?? 0;
      const perPage = query.per_page ?? 100;
      const rows = await listEvents(app.services, request.scope, after, perPage + 1, query.stream);
      const page = rows.slice(0, perPage);
      return {
        events: page.map((row) => ({
          id: row.id,
          stream: row.stream,
          occurred_at: row.occurred_at,
          created_at: row.created_at,
          payload: JSON.parse(row.payload) as Record<string, unknown>,
        })),
        next_after: page.at(-1)?.id ?? after,
        has_more: rows.length > perPage,
      };
    },
  );
};
