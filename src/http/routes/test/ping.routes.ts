import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";

/** `GET /test/ping`: proves the service is up and the key is good. */
export const pingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/test/ping",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Test"],
        summary: "Ping-pong: check the service and your API key",
        response: { 200: Type.Object({ status: Type.Literal("pong") }) },
      },
    },
    async () => ({ status: "pong" as const }),
  );
};
