import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { addPaymentMethod } from "../../../domain/payments/add-payment-method.js";
import { changePaymentMethod } from "../../../domain/payments/change-payment-method.js";
import {
  deletePaymentMethod,
  findPaymentMethods,
  getPaymentMethod,
} from "../../../domain/payments/find-payment-methods.js";
import { errorResponses, IdParam, NoContent } from "../schemas.js";
import { presentPaymentMethod } from "./payment-methods.presenter.js";
import { CreatePaymentMethodBody, PaymentMethodOut, UpdatePaymentMethodBody } from "./payment-methods.schemas.js";

const Wrapped = Type.Object({ payment_method: Type.Ref("PaymentMethod") });

/** Payment methods: cards and bank accounts that pay for refills. */
export const paymentMethodRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(PaymentMethodOut);

  app.get(
    "/payment_methods",
    {
      config: { permission: "billing" },
      schema: {
        tags: ["Payment methods"],
        summary: "List payment methods",
        response: {
          200: Type.Object({ payment_methods: Type.Array(Type.Ref("PaymentMethod")) }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => ({
      payment_methods: (await findPaymentMethods(app.services, request.scope)).map(presentPaymentMethod),
    }),
  );

  app.post(
    "/payment_methods",
    {
      config: { permission: "billing" },
      schema: {
        tags: ["Payment methods"],
        summary: "Add a card or bank account",
        body: CreatePaymentMethodBody,
        response: { 201: Wrapped, ...errorResponses(400, 401, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body.payment_method;
      const row = await addPaymentMethod(app.services, request.scope, {
        type: body.type,
        name: body.name,
        bankName: body.bank_name,
        bankAccountType: body.bank_account_type,
        accountHolderType: body.account_holder_type,
        routingNumber: body.routing_number,
        accountNumber: body.account_number,
        expiry: body.expiry,
        verificationCode: body.verification_code,
        billingLocation: body.billing_location,
        makeDefault: body.default_payment_method,
      });
      return reply.code(201).send({ payment_method: presentPaymentMethod(row) });
    },
  );

  app.get(
    "/payment_methods/:id",
    {
      config: { permission: "billing" },
      schema: {
        tags: ["Payment methods"],
        summary: "Retrieve a payment method",
        params: IdParam,
        response: { 200: Wrapped, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      payment_method: presentPaymentMethod(await getPaymentMethod(app.services, request.scope, request.params.id)),
    }),
  );

  app.put(
    "/payment_methods/:id",
    {
      config: { permission: "billing" },
      schema: {
        tags: ["Payment methods"],
        summary: "Make a payment method the default, or update its expiry and billing details",
        params: IdParam,
        body: UpdatePaymentMethodBody,
        response: { 200: Wrapped, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => {
      const body = request.body.payment_method;
      const row = await changePaymentMethod(app.services, request.scope, request.params.id, {
        makeDefault: body.default_payment_method,
        name: body.name,
        expiry: body.expiry,
        billingLocation: body.billing_location,
      });
      return { payment_method: presentPaymentMethod(row) };
    },
  );

  app.delete(
    "/payment_methods/:id",
    {
      config: { permission: "billing" },
      schema: {
        tags: ["Payment methods"],
        summary: "Delete a payment method (not the default)",
        params: IdParam,
        response: { 204: NoContent, ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await deletePaymentMethod(app.services, request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
};
