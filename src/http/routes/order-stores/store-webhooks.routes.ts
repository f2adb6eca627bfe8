import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { receiveStoreWebhook } from "../../../domain/orders/store-webhooks.js";
import { errorResponses } from "../schemas.js";

const Params = Type.Object({ order_store_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/**
 * Webhooks from a store's platform (Shopify `orders/create` and `orders/updated`). No API key: the
 * platform signs each delivery with the store's webhook secret, and the signature is checked over
 * the exact bytes received, so the body is kept raw whatever its content type.
 */
export const storeWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  app.post(
    "/api/v2/store_webhooks/:order_store_id",
    {
      schema: {
        tags: ["Orders"],
        summary: "Receive a platform webhook for an order store (signed by the platform, no API key)",
        security: [],
        params: Params,
        response: {
          200: Type.Object({ received: Type.Boolean(), topic: Type.String(), duplicate: Type.Boolean() }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const { order_store_id: storeId } = request.params;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const receipt = await receiveStoreWebhook(app.services, storeId, body, request.headers);
      return { received: true, topic: receipt.topic, duplicate: receipt.duplicate };
    },
  );
};
