import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { contentTypeOf } from "../../../storage/files/file-store.js";
import { errorBody } from "../../errors.js";

/**
 * Public file URLs (labels, customs forms, manifests): unguessable 128-bit names, no key needed,
 * like eHub's public bucket URLs. Streamed from whichever store keeps them (the disk, an S3 bucket),
 * so the URL stays Porter's and never expires; docs/files.md says why this over a redirect.
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
      const contentType = match ? contentTypeOf(name) : undefined;
      const file = contentType ? await app.services.files.open(name) : undefined;
      if (!file || !contentType) return reply.code(404).send(errorBody("file.not_found", `No file ${name}.`));
      if (file.size !== undefined) reply.header("content-length", String(file.size));
      return reply
        .header("content-type", contentType)
        .header("cache-control", "private, max-age=86400")
        .send(file.body);
    },
  );
};
