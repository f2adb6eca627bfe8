import Fastify from "fastify";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandling } from "../../../src/http/plugins/errors.js";

/** Shapes no route has today, so the message rules hold when one gets them. */
describe("validation messages for closed lists", () => {
  const app = Fastify({
    ajv: { customOptions: { coerceTypes: "array", removeAdditional: true, useDefaults: true, allowUnionTypes: true } },
  });

  beforeAll(async () => {
    registerErrorHandling(app);
    app.post(
      "/",
      {
        schema: {
          body: Type.Object({
            size: Type.Optional(Type.Union([Type.Literal("small"), Type.Literal("large"), Type.Null()])),
            kind: Type.Optional(Type.Literal("box")),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const messageFor = async (payload: object) => {
    const response = await app.inject({ method: "POST", url: "/", payload });
    expect(response.statusCode).toBe(400);
    return response.json().error_message as string;
  };

  it("says a literal union also takes null", async () => {
    expect(await messageFor({ size: "huge" })).toBe("size must be one of small, large, null.");
  });

  it("names a lone literal as the one value", async () => {
    expect(await messageFor({ kind: "bag" })).toBe("kind must be box.");
  });
});
