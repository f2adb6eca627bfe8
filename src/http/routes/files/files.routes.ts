import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { errorBody } from "../../errors.js";

const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  tiff: "image/tiff",
  zpl: "application/zpl",
  epl: "application/epl2",
};

/**
 * Public file URLs (labels, customs forms, manifests): unguessable 128-bit names, no key needed,
 * like eHub's public bucket URLs.
 */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/files/:name",
    {
      schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 100 }) }) },
    },
    async (request, reply) => {
      const { name } = request.params;
      const match = /^[A-Za-z0-9_-]{22,}\.([a-z]+)$/.exec(name);
      const contentType = match ? CONTENT_TYPES[match[1] as string] : undefined;
      const bytes = contentType ? await app.services.files.get(name) : undefined;
      if (!bytes || !contentType) return reply.code(404).send(errorBody("file.not_found", `No file ${name}.`));
      return reply.header("content-type", contentType).header("cache-control", "private, max-age=86400").send(bytes);
    },
  );
};
