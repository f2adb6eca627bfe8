import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { getRates } from "../../../domain/rates/get-rates.js";
import { errorResponses } from "../schemas.js";
import { RateQuestions } from "./rate-questions.js";
import { rateResponseBody } from "./rates.presenter.js";
import { EncodedRateResponse, RateRequestBody, ServiceRateOut } from "./rates.schemas.js";

/** `POST /rates`: every connected carrier's price for a shipment; carrier failures are warnings. */
export const rateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(ServiceRateOut);
  const questions = new RateQuestions();
  questions.parseJsonBodiesOf(app);
  app.post(
    "/rates",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Rates"],
        summary: "Rate a shipment across the connected carriers",
        body: RateRequestBody,
        response: { 201: EncodedRateResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const result = await getRates(app.services, request.scope, questions.shipmentOf(body));
      questions.answered(body);
      // Already JSON (see rateResponseBody); the response schema documents it.
      return reply.code(201).type("application/json; charset=utf-8").send(rateResponseBody(result));
    },
  );
};
