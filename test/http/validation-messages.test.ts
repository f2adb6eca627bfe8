import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { shipmentToBuy } from "../helpers/shipments.js";

/** A schema refusal names the field and, for a closed list, the values it takes. */
describe("validation messages that teach", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const refusal = async (method: "GET" | "POST", url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: merchant.auth, payload });
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ status: "error", error_code: "request.invalid" });
    expect(body.error_message).not.toMatch(/equal to constant|allowed values|match a schema in anyOf/);
    return body.error_message as string;
  };

  it("names every label format a shipment takes", async () => {
    const message = await refusal("POST", "/api/v2/shipments/ship", {
      shipment: shipmentToBuy({ label_format: "bmp" }),
    });
    expect(message).toBe("shipment.label_format must be one of pdf, png, jpeg, gif, tiff, zpl, epl2.");
  });

  it("names every label size", async () => {
    const message = await refusal("POST", "/api/v2/shipments/ship", {
      shipment: shipmentToBuy({ label_size: "A4" }),
    });
    expect(message).toBe("shipment.label_size must be one of 4x6, 4x8, 8x11, 8.5x11, 2 5/16x4, 3 7/16x5 3/16.");
  });

  it("names the values of an enum nested in a list", async () => {
    const message = await refusal("POST", "/api/v2/shipments/ship", {
      shipment: shipmentToBuy({
        label_contents: [{ label_content: { type: "video", text: "x", location: [1, 1] } }],
      }),
    });
    expect(message).toBe("shipment.label_contents[0].label_content.type must be one of text, image.");
  });

  it("collapses a union of literals into one list, not 'must be equal to constant'", async () => {
    const message = await refusal("POST", "/api/v2/payment_methods", {
      payment_method: { type: "bitcoin", account_number: "4111111111111111" },
    });
    expect(message).toBe("payment_method.type must be one of cc, ach.");
    const nested = await refusal("POST", "/api/v2/payment_methods", {
      payment_method: { type: "ach", bank_account_type: "money_market" },
    });
    expect(nested).toBe("payment_method.bank_account_type must be one of checking, savings.");
  });

  it("collapses a union of literals inside a body that may also be null", async () => {
    const message = await refusal("POST", "/api/v2/sandbox/shipments/1/advance", { to: "teleported" });
    expect(message).toMatch(/^to must be one of in_transit, .*, delivered, returned\.$/);
  });

  it("names the values of a query parameter", async () => {
    const message = await refusal("GET", "/api/v2/events?stream=everything");
    expect(message).toBe("stream (querystring) must be one of shipment_tracking, payment_status.");
  });

  it("keeps the other messages as they were", async () => {
    const missing = await refusal("POST", "/api/v2/shipments/ship", {
      shipment: shipmentToBuy({ service_id: undefined }),
    });
    expect(missing).toBe("shipment.service_id is required.");
  });
});
