import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { receiveStoreWebhook } from "../../../domain/orders/store-webhooks.js";
import { errorResponses } from "../schemas.js";

/**
 * Larger than any order a platform sends (a large Shopify or WooCommerce order is tens of
 * kilobytes); anything bigger is refused from its length, before it is read, store or no store.
 */
export const STORE_WEBHOOK_BODY_LIMIT = 512 * 1024;

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
      bodyLimit: STORE_WEBHOOK_BODY_LIMIT,
      schema: {
        tags: ["Orders"],
        summary: "Receive a platform webhook for an order store (signed by the platform, no API key)",
        security: [],
        params: Params,
        response: {
          200: Type.Object({ received: Type.Boolean(), topic: Type.String(), duplicate: Type.Boolean() }),
          ...errorResponses(400, 401, 413),
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
