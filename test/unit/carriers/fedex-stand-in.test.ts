import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidTrackingNumber } from "../../../src/carriers/fedex/tracking-number.js";
import { FedexStandIn } from "../../stand-ins/fedex/fedex-stand-in.js";

const ACCOUNT = { clientId: "l7xx-key", clientSecret: "fedex-secret", accountNumber: "740561073" };

/** The stand-in behaves as FedEx's specs say, so the adapter tests against it mean something. */
describe("the FedEx stand-in", () => {
  let fedex: FedexStandIn;
  let token = "";

  beforeAll(async () => {
    fedex = await new FedexStandIn(ACCOUNT).start();
  });
  afterAll(() => fedex.stop());

  const form = (fields: Record<string, string>) =>
    fetch(`${fedex.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read as FedEx writes them
  type Answer = any;
  const call = (method: string, path: string, body: unknown, bearer = token) =>
    fetch(`${fedex.baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
      body: method === "GET" ? undefined : JSON.stringify(body),
    });
  const json = async (response: Response | Promise<Response>): Promise<Answer> => (await response).json();
  const party = {
    address: {
      streetLines: ["1 Main St"],
      city: "Los Angeles",
      stateOrProvinceCode: "CA",
      postalCode: "90035",
      countryCode: "US",
    },
    contact: { personName: "A", phoneNumber: "5555555555" },
  };

  /** A FedEx Ground shipment of one pound at home, in ZPL, with `fields` over its own. */
  const ship = (fields: Record<string, unknown>) =>
    call("POST", "/ship/v1/shipments", {
      accountNumber: { value: ACCOUNT.accountNumber },
      labelResponseOptions: "LABEL",
      requestedShipment: {
        shipper: party,
        recipients: [party],
        pickupType: "DROPOFF_AT_FEDEX_LOCATION",
        serviceType: "FEDEX_GROUND",
        packagingType: "YOUR_PACKAGING",
        totalWeight: 1,
        shippingChargesPayment: { paymentType: "SENDER" },
        labelSpecification: { imageType: "ZPLII", labelStockType: "STOCK_4X6" },
        requestedPackageLineItems: [{ weight: { units: "LB", value: 1 } }],
        ...fields,
      },
    });

  it("grants a bearer token for the form-encoded client credentials, and refuses others in FedEx's error body", async () => {
    const refused = await form({ grant_type: "client_credentials", client_id: ACCOUNT.clientId, client_secret: "no" });
    expect(refused.status).toBe(401);
    const body = await json(refused);
    expect(body.transactionId).toEqual(expect.any(String));
    expect(body.errors[0].code).toBe("NOT.AUTHORIZED.ERROR");
    const granted = await form({
      grant_type: "client_credentials",
      client_id: ACCOUNT.clientId,
      client_secret: ACCOUNT.clientSecret,
    });
    expect(granted.status).toBe(200);
    const answer = await json(granted);
    expect(answer).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    token = answer.access_token;
  });

  it("requires the bearer token and the spec's required fields", async () => {
    const conforming = {
      accountNumber: { value: ACCOUNT.accountNumber },
      requestedShipment: {
        shipper: party,
        recipient: party,
        pickupType: "DROPOFF_AT_FEDEX_LOCATION",
        requestedPackageLineItems: [{ weight: { units: "LB", value: 1 } }],
      },
    };
    expect((await call("POST", "/rate/v1/rates/quotes", conforming, "wrong")).status).toBe(401);
    const bad = await call("POST", "/rate/v1/rates/quotes", { accountNumber: { value: ACCOUNT.accountNumber } });
    expect(bad.status).toBe(400);
    const messages = (await json(bad)).errors.map((e: { message: string }) => e.message).join(" ");
    expect(messages).toContain("requestedShipment");
    expect((await call("GET", "/rate/v1/rates/quotes", {})).status).toBe(405);
  });

  it("ships, tracks, cancels and closes", async () => {
    const shipped = await ship({
      shipDatestamp: "2026-11-26",
      totalWeight: 3,
      requestedPackageLineItems: [{ weight: { units: "LB", value: 1 } }, { weight: { units: "LB", value: 2 } }],
    });
    expect(shipped.status).toBe(200);
    const pieces = (await json(shipped)).output.transactionShipments[0].pieceResponses;
    expect(pieces).toHaveLength(2);
    for (const piece of pieces) expect(isValidTrackingNumber(piece.trackingNumber)).toBe(true);
    expect(Buffer.from(pieces[0].packageDocuments[0].encodedLabel, "base64").toString()).toMatch(/^\^XA/);

    const tracked = await call("POST", "/track/v1/trackingnumbers", {
      includeDetailedScans: true,
      trackingInfo: [
        { trackingNumberInfo: { trackingNumber: pieces[0].trackingNumber } },
        { trackingNumberInfo: { trackingNumber: "123" } },
      ],
    });
    const results = (await json(tracked)).output.completeTrackResults;
    expect(results[0].trackResults[0].scanEvents[0]).toMatchObject({ eventType: "OC", derivedStatusCode: "IN" });
    expect(results[1].trackResults[0].error.code).toBe("TRACKING.TRACKINGNUMBER.NOTFOUND");

    const closeRequest = {
      closeReqType: "GCDR",
      groundServiceCategory: "GROUND",
      accountNumber: { value: ACCOUNT.accountNumber },
      closeDate: "2026-11-26",
    };
    const unknownDocument = await call("PUT", "/ship/v1/endofday/", {
      ...closeRequest,
      closeDocumentSpecification: { closeDocumentTypes: ["LABEL"] },
    });
    expect(unknownDocument.status).toBe(400);
    expect(JSON.stringify(await json(unknownDocument))).toContain("closeDocumentTypes");
    const withoutDate = await call("PUT", "/ship/v1/endofday/", { ...closeRequest, closeDate: undefined });
    expect(JSON.stringify(await json(withoutDate))).toContain("closeDate is required");
    const close = await call("PUT", "/ship/v1/endofday/", {
      ...closeRequest,
      closeDocumentSpecification: { closeDocumentTypes: ["MANIFEST"] },
    });
    expect(close.status).toBe(200);
    const [manifest] = (await json(close)).output.closeDocuments;
    expect(manifest.type).toBe("MANIFEST");
    const parts = [...manifest.parts].sort((a, b) => a.documentPartSequenceNumber - b.documentPartSequenceNumber);
    const pdf = Buffer.concat(parts.map((part: { image: string }) => Buffer.from(part.image, "base64")));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const closedAgain = await call("PUT", "/ship/v1/endofday/", closeRequest);
    expect((await json(closedAgain)).errors[0].code).toBe("GROUND.CLOSE.NOSHIPMENTS");

    const cancel = (n: string) =>
      call("PUT", "/ship/v1/shipments/cancel", { accountNumber: { value: ACCOUNT.accountNumber }, trackingNumber: n });
    expect((await json(cancel(pieces[0].trackingNumber))).output.cancelledShipment).toBe(true);
    expect((await cancel(pieces[0].trackingNumber)).status).toBe(400);
  });

  it("checks a shipment abroad's customs as the Ship API requires, and answers the commercial invoice asked for", async () => {
    const commodity = {
      description: "Wool scarf",
      quantity: 2,
      quantityUnits: "PCS",
      weight: { units: "KG", value: 0.4 },
      unitPrice: { amount: 22.75, currency: "USD" },
      customsValue: { amount: 45.5, currency: "USD" },
      countryOfManufacture: "PE",
      harmonizedCode: "611710",
    };
    const shipAbroad = (customs: Record<string, unknown>) =>
      ship({
        recipients: [{ ...party, address: { ...party.address, countryCode: "CA", postalCode: "M5H2N2" } }],
        serviceType: "INTERNATIONAL_PRIORITY",
        labelSpecification: { imageType: "PDF", labelStockType: "PAPER_85X11_TOP_HALF_LABEL" },
        shippingDocumentSpecification: {
          shippingDocumentTypes: ["COMMERCIAL_INVOICE"],
          commercialInvoiceDetail: { documentFormat: { docType: "PDF", stockType: "PAPER_LETTER" } },
        },
        customsClearanceDetail: {
          dutiesPayment: { paymentType: "RECIPIENT" },
          commercialInvoice: { shipmentPurpose: "SOLD", termsOfSale: "DAP" },
          commodities: [commodity],
          ...customs,
        },
      });
    const words = async (customs: Record<string, unknown>) =>
      (await json(shipAbroad(customs))).errors.map((e: { message: string }) => e.message).join(" ");
    // What the Ship API's schema refuses, and what it requires only in its prose.
    expect(await words({ dutiesPayment: { paymentType: "SOMEONE" } })).toContain("dutiesPayment/paymentType");
    const refused = await words({
      commodities: [{ ...commodity, countryOfManufacture: undefined, harmonizedCode: "61.17", unitPrice: undefined }],
    });
    for (const field of ["countryOfManufacture", "harmonizedCode", "unitPrice.amount"]) {
      expect(refused).toContain(field);
    }
    const shipped = await shipAbroad({});
    expect(shipped.status).toBe(200);
    const shipment = (await json(shipped)).output.transactionShipments[0];
    const invoice = Buffer.from(shipment.shipmentDocuments[0].encodedLabel, "base64").toString("latin1");
    expect(shipment.shipmentDocuments[0].contentType).toBe("COMMERCIAL_INVOICE");
    expect(invoice).toMatch(/^%PDF-1\.4/);
    expect(invoice).toContain(`/Title (FedEx commercial invoice ${shipment.masterTrackingNumber})`);
  });

  it("fails on demand: 429 with Retry-After, a timeout-free malformed answer, then answers again", async () => {
    fedex.fail("429", { operation: "address" });
    fedex.fail("malformed", { operation: "address" });
    const resolve = () =>
      call("POST", "/address/v1/addresses/resolve", {
        addressesToValidate: [
          {
            address: { streetLines: ["1 Main Street"], city: "Salt Lake City", postalCode: "84111", countryCode: "US" },
          },
        ],
      });
    const limited = await resolve();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("0");
    expect(await json(resolve())).toEqual({});
    const answer = (await json(resolve())).output.resolvedAddresses[0];
    expect(answer).toMatchObject({ streetLinesToken: ["1 MAIN ST"], classification: "RESIDENTIAL" });
  });
});
