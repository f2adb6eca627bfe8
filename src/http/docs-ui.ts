import swaggerUi from "@fastify/swagger-ui";
import type { FastifyError, FastifyInstance } from "fastify";

/**
 * The API's documentation pages at /docs. Their files are served from the package's folder, and
 * the file server refuses a path that climbs out of it (`..`) or holds a null byte with an HTTP
 * error of its own (403, 400), which the application's error handler does not know and answered
 * with 500. Such a path names no file of the docs: it is a 404 like any other missing page.
 */
export async function registerDocsUi(app: FastifyInstance): Promise<void> {
  await app.register(async (docs) => {
    docs.setErrorHandler(async (error: FastifyError, _request, reply) => {
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return reply.callNotFound();
      }
      throw error;
    });
    await docs.register(swaggerUi, { routePrefix: "/docs" });
  });
}
