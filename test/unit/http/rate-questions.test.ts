import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { RateQuestions } from "../../../src/http/routes/rates/rate-questions.js";
import type { RateRequestBody } from "../../../src/http/routes/rates/rates.schemas.js";
import { rateShipment } from "../../helpers/shipments.js";

describe("rate questions remembered by their text", () => {
  const questions = new RateQuestions();
  const seen: { body: unknown; shipment: unknown }[] = [];
  const app = Fastify();
  questions.parseJsonBodiesOf(app);
  app.post("/rates", async (request) => {
    const body = request.body as RateRequestBody;
    const shipment = questions.shipmentOf(body);
    seen.push({ body, shipment });
    questions.answered(body);
    return {};
  });
  afterAll(() => app.close());

  const ask = async (payload: string) => {
    const response = await app.inject({
      method: "POST",
      url: "/rates",
      headers: { "content-type": "application/json" },
      payload,
    });
    expect(response.statusCode).toBe(200);
    return seen.at(-1)!;
  };

  it("gives an answered text the same body and normalized shipment again", async () => {
    const text = JSON.stringify(rateShipment({ to_location: { ...rateShipment().shipment.to_location, state: "ut" } }));
    const first = await ask(text);
    const again = await ask(text);
    expect(again.body).toBe(first.body);
    expect(again.shipment).toBe(first.shipment);
    expect((first.shipment as { to_location: { state: string } }).to_location.state).toBe("UT");
    const other = await ask(JSON.stringify(rateShipment({ parcels: [{ length: 5, width: 5, height: 5, weight: 5 }] })));
    expect(other.body).not.toBe(first.body);
  });

  it("does not keep long texts", async () => {
    const padded = JSON.stringify(rateShipment()).replace("{", `{${" ".repeat(20_000)}`);
    const first = await ask(padded);
    expect((await ask(padded)).body).not.toBe(first.body);
  });
});
