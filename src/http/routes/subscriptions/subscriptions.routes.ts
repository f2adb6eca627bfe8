import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { createSubscription } from "../../../domain/subscriptions/create-subscription.js";
import {
  deleteSubscription,
  findSubscriptions,
  getSubscription,
} from "../../../domain/subscriptions/find-subscriptions.js";
import type { AuthType, SubscriptionFields } from "../../../domain/subscriptions/subscription-input.js";
import { changeSubscription } from "../../../domain/subscriptions/update-subscription.js";
import { findDeliveries, resendDelivery } from "../../../domain/subscriptions/webhook-deliveries.js";
import { OutboundPolicy } from "../../../net/outbound-guard.js";
import { parseInstant } from "../dates.js";
import { errorResponses, IdParam, NoContent } from "../schemas.js";
import { setPaginationHeaders } from "../shipments/shipments.routes.js";
import { presentDelivery, presentSubscription } from "./subscriptions.presenter.js";
import {
  CreateSubscriptionBody,
  Delivery,
  DeliveryParams,
  ListSubscriptionsQuery,
  PageQuery,
  Subscription,
  UpdateSubscriptionBody,
} from "./subscriptions.schemas.js";

function fieldsOf(body: Omit<UpdateSubscriptionBody, "status" | "rewind_to_date">): SubscriptionFields {
  return {
    subscriptionType: body.subscription_type,
    url: body.url,
    payloadFormat: body.payload_format,
    authType: body.auth_type?.toLowerCase() as AuthType | undefined,
    hmacSharedSecret: body.hmac_shared_secret,
    httpUsername: body.http_username,
    httpPassword: body.http_password,
  };
}

/** Webhook subscriptions and, beyond eHub, their delivery attempts. */
export const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(Subscription);
  app.addSchema(Delivery);
  const policy = new OutboundPolicy(app.services.config.outboundAllowPrivateTargets);

  app.get(
    "/subscriptions",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Webhooks"],
        summary: "List webhook subscriptions",
        querystring: ListSubscriptionsQuery,
        response: {
          200: Type.Object({ subscriptions: Type.Array(Type.Ref("Subscription")) }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 100;
      const { rows, total } = await findSubscriptions(
        app.services,
        request.scope,
        { subscriptionType: query.subscription_type, status: query.status === "all" ? undefined : query.status },
        { limit: perPage, offset: (page - 1) * perPage },
      );
      setPaginationHeaders(reply, request, page, perPage, total);
      return { subscriptions: rows.map((row) => presentSubscription(row)) };
    },
  );

  app.post(
    "/subscriptions",
    {
      config: { permission: "shipping", secretAnswerKeys: ["hmac_shared_secret"] },
      schema: {
        tags: ["Webhooks"],
        summary: "Subscribe a URL to tracking or payment events",
        body: CreateSubscriptionBody,
        response: { 201: Type.Ref("Subscription"), ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { row, shownSecret } = await createSubscription(
        app.services,
        request.scope,
        { ...fieldsOf(body), subscriptionType: body.subscription_type, url: body.url },
        policy,
      );
      return reply.code(201).send(presentSubscription(row, shownSecret));
    },
  );

  app.get(
    "/subscriptions/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Webhooks"],
        summary: "Retrieve a webhook subscription",
        params: IdParam,
        response: { 200: Type.Ref("Subscription"), ...errorResponses(401, 404) },
      },
    },
    async (request) => presentSubscription(await getSubscription(app.services, request.scope, request.params.id)),
  );

  app.put(
    "/subscriptions/:id",
    {
      config: { permission: "shipping", secretAnswerKeys: ["hmac_shared_secret"] },
      schema: {
        tags: ["Webhooks"],
        summary: "Change, re-enable or rewind a webhook subscription",
        params: IdParam,
        body: UpdateSubscriptionBody,
        response: { 200: Type.Ref("Subscription"), ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => {
      const body = request.body;
      const { row, shownSecret } = await changeSubscription(
        app.services,
        request.scope,
        request.params.id,
        {
          ...fieldsOf(body),
          status: body.status,
          rewindTo: body.rewind_to_date ? parseInstant("rewind_to_date", body.rewind_to_date) : undefined,
        },
        policy,
      );
      return presentSubscription(row, shownSecret);
    },
  );

  app.delete(
    "/subscriptions/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Webhooks"],
        summary: "Delete a webhook subscription",
        params: IdParam,
        response: { 204: NoContent, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await deleteSubscription(app.services, request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    "/subscriptions/:id/deliveries",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Webhooks"],
        summary: "A subscription's delivery attempts, newest first (beyond eHub)",
        params: IdParam,
        querystring: PageQuery,
        response: {
          200: Type.Object({ deliveries: Type.Array(Type.Ref("WebhookDelivery")) }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 100;
      const { rows, total } = await findDeliveries(app.services, request.scope, request.params.id, {
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      setPaginationHeaders(reply, request, page, perPage, total);
      return { deliveries: rows.map(presentDelivery) };
    },
  );

  app.post(
    "/subscriptions/:id/deliveries/:delivery_id/retry",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Webhooks"],
        summary: "Send one delivery's message again (beyond eHub)",
        params: DeliveryParams,
        response: { 201: Type.Object({ delivery: Type.Ref("WebhookDelivery") }), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const { id, delivery_id } = request.params;
      const pending = await resendDelivery(app.services, request.scope, id, delivery_id);
      return reply.code(201).send({ delivery: presentDelivery(pending) });
    },
  );
};
