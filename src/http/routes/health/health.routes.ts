import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { sql } from "kysely";
import { errorBody } from "../../errors.js";

/** Liveness and readiness for load balancers and orchestrators; no key needed. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(app.services.db);
      return { status: "ok", database: app.services.database.dialect };
    } catch (error) {
      request.log.warn({ err: error }, "readiness check failed");
      return reply.code(503).send(errorBody("errors.unavailable", "The database is not reachable."));
    }
  });
};
