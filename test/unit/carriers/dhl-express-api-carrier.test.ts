import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CarrierCallError } from "../../../src/carriers/api-client/carrier-http-client.js";
import {
  type CarrierAdapter,
  CarrierError,
  type PurchaseRequest,
  type RateRequest,
} from "../../../src/carriers/carrier.js";
import { dhlExpressApi } from "../../../src/carriers/dhl-express/api/index.js";
import type { RealCarrier } from "../../../src/carriers/real-carrier.js";
import { findService } from "../../../src/carriers/registry.js";
import { ManualClock } from "../../../src/clock.js";
import { carrierSpecsAvailable } from "../../contracts/published-specs.js";
import { LOS_ANGELES_WAREHOUSE, T_SHIRT_ITEM, TORONTO_RESIDENCE } from "../../helpers/shipments.js";
import { DhlExpressStandIn } from "../../stand-ins/dhl-express/dhl-express-stand-in.js";
import { standInContext } from "../../stand-ins/stand-in-server.js";
import { parcel } from "./rating-fixtures.js";

const ACCOUNT = { apiKey: "porter-dhl-key", apiSecret: "dhl-s3cr3t", accountNumber: "123456789" };
const LOS_ANGELES = LOS_ANGELES_WAREHOUSE;
const TORONTO = TORONTO_RESIDENCE;
const SERVICES = [300, 294, 295].map((id) => findService(id)!);
const box = parcel({ lengthIn: 10, widthIn: 8, weightOz: 24 });

const rateRequest = (overrides: Partial<RateRequest> = {}): RateRequest => ({
  from: LOS_ANGELES,
  to: TORONTO,
  parcels: [box],
  residential: true,
  services: SERVICES,
  ...overrides,
});

const purchaseRequest = (overrides: Partial<PurchaseRequest> = {}): PurchaseRequest => ({
  ...rateRequest(),
  service: findService(300)!,
  purchaseKey: "shipment-41",
  parcelSerials: [41],
  shipDate: "2026-11-27",
  label: { format: "pdf", size: "4x6" },
  contents: [
    {
      reference: "Order 1001",
      items: [T_SHIRT_ITEM],
    },
  ],
  ...overrides,
});

describe("DHL Express through MyDHL API (against the DHL Express stand-in)", () => {
  let standIn: DhlExpressStandIn;
  let real: RealCarrier;
  let dhl: CarrierAdapter;
  const clock = new ManualClock("2026-11-26T15:00:00Z");

  const open = (credentials = ACCOUNT) => dhlExpressApi.open(credentials, standInContext(standIn.baseUrl, clock));

  beforeAll(async () => {
    standIn = await new DhlExpressStandIn(ACCOUNT).start();
    real = open();
    dhl = real.adapter;
  });
  afterAll(() => standIn.stop());
  beforeEach(() => standIn.clearFaults());

  describe("credentials", () => {
    it("reads the key, secret and account number, and nothing for a sandbox connection", () => {
      expect(dhlExpressApi.credentials({ api_key: "k", api_secret: "s", account_number: "123456789" })).toEqual({
        apiKey: "k",
        apiSecret: "s",
        accountNumber: "123456789",
      });
      expect(dhlExpressApi.credentials({})).toBeUndefined();
    });

    it("verifies them with an authenticated address question, in basic auth with MyDHL's x-version", async () => {
      await real.verify();
      const asked = standIn.lastRequest("address-validate")!;
      expect(asked.authorization).toBe(`Basic ${Buffer.from("porter-dhl-key:dhl-s3cr3t").toString("base64")}`);
      expect(asked.version).toBe("3.1.0");
      expect(Object.fromEntries(asked.query)).toMatchObject({ type: "delivery", countryCode: "US" });
    });

    it("fails verification in DHL's words when DHL refuses the secret", async () => {
      const wrong = open({ ...ACCOUNT, apiSecret: "wrong" });
      await expect(wrong.verify()).rejects.toThrow("DHL Express refused the request: Invalid Credentials");
      await expect(wrong.verify()).rejects.toBeInstanceOf(CarrierCallError);
    });
  });

  describe("rates", () => {
    it("rates every service in one call, with DHL's breakdown and delivery date", async () => {
      const before = standIn.callsTo("rates");
      const rates = await dhl.rate(rateRequest());
      expect(standIn.callsTo("rates")).toBe(before + 1);
      expect(rates.map((r) => [r.service.serviceId, r.quote?.totalCents, r.refusal])).toEqual([
        // The stand-in's own table: 3 lb billed (volumetric 10 × 8 × 4 / 139), plus 27.5 % fuel.
        [300, 9473, undefined],
        [294, 11386, undefined],
        [295, 15211, undefined],
      ]);
      expect(rates[0]?.quote?.lines).toEqual([
        { kind: "base", description: "Express Worldwide", amountCents: 7430 },
        { kind: "fuel", description: "Fuel Surcharge", amountCents: 2043 },
      ]);
      expect(rates[0]?.deliveryDate).toBe("2026-11-29");
      const asked = standIn.lastRequest("rates")!;
      expect(asked.body).toMatchObject({
        customerDetails: {
          shipperDetails: { countryCode: "US", postalCode: "90035", cityName: "Los Angeles" },
          receiverDetails: { countryCode: "CA", postalCode: "M5H 2N2", cityName: "Toronto" },
        },
        accounts: [{ typeCode: "shipper", number: "123456789" }],
        plannedShippingDateAndTime: "2026-11-26T16:00:00GMT+00:00",
        unitOfMeasurement: "imperial",
        isCustomsDeclarable: true,
        packages: [{ weight: 1.5, dimensions: { length: 10, width: 8, height: 4 } }],
      });
    });

    it("rates an Express Envelope as documents, not declared to customs", async () => {
      const rates = await dhl.rate(rateRequest({ parcels: [parcel({ packageType: "envelope", weightOz: 8 })] }));
      expect(rates.every((r) => r.quote !== undefined)).toBe(true);
      expect(standIn.lastRequest("rates")?.body).toMatchObject({
        isCustomsDeclarable: false,
        packages: [{ typeCode: "XPD" }],
      });
    });

    it("refuses a shipment within one country without asking DHL", async () => {
      const before = standIn.callsTo("rates");
      const rates = await dhl.rate(rateRequest({ to: { ...LOS_ANGELES, city: "San Diego", postal_code: "92101" } }));
      expect(rates.every((r) => r.refusal === "DHL Express carries shipments between countries only.")).toBe(true);
      expect(standIn.callsTo("rates")).toBe(before);
    });

    it("refuses every service in DHL's words when DHL will not carry the shipment", async () => {
      standIn.unservedCountries.add("CA");
      try {
        const rates = await dhl.rate(rateRequest());
        expect(rates.map((r) => r.refusal)).toEqual(
          SERVICES.map(
            () => "DHL Express refused the request: No DHL Express product is available to CA for this shipment.",
          ),
        );
      } finally {
        standIn.unservedCountries.delete("CA");
      }
    });

    it("waits out a 429 and answers", async () => {
      standIn.fail("429", { operation: "rates" });
      expect((await dhl.rate(rateRequest()))[0]?.quote?.totalCents).toBe(9473);
    });

    for (const fault of ["500", "timeout", "malformed", "401"] as const) {
      it(`fails as a whole when DHL answers ${fault}`, async () => {
        standIn.fail(fault, { operation: "rates", times: 5 });
        await expect(dhl.rate(rateRequest())).rejects.toBeInstanceOf(CarrierCallError);
      });
    }
  });

  describe("shipments", () => {
    it.runIf(carrierSpecsAvailable())(
      "is refused by the stand-in as by DHL when the body breaks MyDHL API's published schema",
      async () => {
        const sent = await dhl.purchase(purchaseRequest());
        expect(sent.parcels).toHaveLength(1);
        const body = structuredClone(standIn.lastRequest("shipments")!.body) as {
          customerDetails: { receiverDetails: { contactInformation: { phone: string } } };
        };
        body.customerDetails.receiverDetails.contactInformation.phone = "";
        const before = standIn.specViolations.length;
        const answer = await fetch(`${standIn.baseUrl}/shipments`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-version": "3.1.0",
            authorization: `Basic ${Buffer.from(`${ACCOUNT.apiKey}:${ACCOUNT.apiSecret}`).toString("base64")}`,
          },
          body: JSON.stringify(body),
        });
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({ status: "400", title: "Validation error" });
        expect(standIn.specViolations.slice(before).map((v) => v.where)).toEqual([
          "body/customerDetails/receiverDetails/contactInformation/phone",
        ]);
      },
    );

    it("buys a waybill with DHL's own PDF label, the export declaration and a commercial invoice", async () => {
      const purchase = await dhl.purchase(purchaseRequest());
      expect(purchase.rate.quote?.totalCents).toBe(9473);
      expect(purchase.parcels).toHaveLength(1);
      const [sold] = purchase.parcels;
      expect(sold?.trackingNumber).toMatch(/^\d{10}$/);
      expect(sold?.label).toMatchObject({ format: "pdf", widthIn: 4.1, heightIn: 5.8, dpi: 72 });
      expect(sold?.label?.bytes.toString("utf8")).toContain(`DHL Express transport label ${sold?.trackingNumber}`);
      expect(purchase.customsDocument?.toString("utf8")).toContain(`commercial invoice ${sold?.trackingNumber}`);
      const asked = standIn.lastRequest("shipments")!;
      expect(asked.body).toMatchObject({
        productCode: "P",
        accounts: [{ typeCode: "shipper", number: "123456789" }],
        pickup: { isRequested: false },
        plannedShippingDateAndTime: "2026-11-27T12:00:00GMT+00:00",
        outputImageProperties: {
          encodingFormat: "pdf",
          imageOptions: [
            { typeCode: "label", templateName: "ECOM26_A6_002" },
            { typeCode: "waybillDoc", isRequested: false },
            { typeCode: "invoice", isRequested: true, invoiceType: "commercial" },
          ],
        },
        customerDetails: {
          shipperDetails: {
            contactInformation: { companyName: "Acme Fulfillment", fullName: "Acme Fulfillment", phone: "3105550100" },
          },
          receiverDetails: {
            contactInformation: { companyName: "Jo", fullName: "Jo", phone: "4165550100" },
          },
        },
        content: {
          isCustomsDeclarable: true,
          declaredValue: 25,
          declaredValueCurrency: "USD",
          description: "Cotton T-shirt",
          incoterm: "DAP",
          unitOfMeasurement: "imperial",
          packages: [{ weight: 1.5, customerReferences: [{ value: "Order 1001", typeCode: "CU" }] }],
          exportDeclaration: {
            lineItems: [
              {
                number: 1,
                description: "Cotton T-shirt",
                price: 12.5,
                quantity: { value: 2, unitOfMeasurement: "PCS" },
                commodityCodes: [{ typeCode: "outbound", value: "610910" }],
                manufacturerCountry: "PE",
                weight: { netValue: 1 },
              },
            ],
            invoice: { number: "shipment-41", date: "2026-11-27" },
            shipmentType: "commercial",
          },
        },
      });
    });

    it("buys a return waybill from the customer back to the merchant, declared as returned goods", async () => {
      const before = standIn.specViolations.length;
      const purchase = await dhl.purchase(
        purchaseRequest({ from: TORONTO, to: LOS_ANGELES, residential: false, returnLabel: { type: "print" } }),
      );
      expect(purchase.parcels).toHaveLength(1);
      expect(standIn.lastRequest("shipments")!.body).toMatchObject({
        customerDetails: {
          shipperDetails: { postalAddress: { countryCode: "CA" } },
          receiverDetails: { postalAddress: { countryCode: "US" } },
        },
        content: { exportDeclaration: { exportReasonType: "return" } },
      });
      expect(standIn.specViolations.slice(before)).toEqual([]);
    });

    it("refuses a scan-based return waybill before asking DHL", async () => {
      const before = standIn.requests.length;
      await expect(
        dhl.purchase(purchaseRequest({ from: TORONTO, to: LOS_ANGELES, returnLabel: { type: "scan_based" } })),
      ).rejects.toThrow("DHL Express sells no pay-on-use return labels through MyDHL API; buy a print return label.");
      expect(standIn.requests.length).toBe(before);
    });

    it("gives each parcel of a shipment its own label page under the one waybill", async () => {
      const purchase = await dhl.purchase(
        purchaseRequest({
          parcels: [box, box],
          parcelSerials: [42, 43],
          label: { format: "zpl", size: "4x8" },
          contents: [
            { reference: null, items: purchaseRequest().contents[0]!.items },
            { reference: null, items: [] },
          ],
        }),
      );
      const [first, second] = purchase.parcels;
      expect(first?.trackingNumber).toBe(second?.trackingNumber);
      expect(first?.label?.bytes.toString("utf8")).toMatch(/^\^XA.* 1\^FS\^XZ/);
      expect(second?.label?.bytes.toString("utf8")).toMatch(/^\^XA.* 2\^FS\^XZ/);
      expect(first?.label).toMatchObject({ format: "zpl", widthIn: 4, heightIn: 8, dpi: 300 });
      expect(standIn.lastRequest("shipments")?.body).toMatchObject({
        outputImageProperties: { encodingFormat: "zpl" },
      });
    });

    it("ships papers in an Express Envelope as documents, without a declaration", async () => {
      const purchase = await dhl.purchase(
        purchaseRequest({ parcels: [parcel({ packageType: "envelope", weightOz: 8 })] }),
      );
      const body = standIn.lastRequest("shipments")?.body as { productCode: string; content: Record<string, unknown> };
      expect(body.productCode).toBe("D");
      expect(body.content.isCustomsDeclarable).toBe(false);
      expect(body.content.exportDeclaration).toBeUndefined();
      expect(purchase.customsDocument).toBeUndefined();
    });

    it("asks for EPL as DHL's `epl`, and refuses a format DHL does not make, naming the ones it does", async () => {
      await dhl.purchase(purchaseRequest({ label: { format: "epl2", size: "4x6" } }));
      expect(standIn.lastRequest("shipments")?.body).toMatchObject({
        outputImageProperties: { encodingFormat: "epl" },
      });
      expect(dhl.labelFormats).toEqual(["pdf", "zpl", "epl2"]);
      await expect(dhl.purchase(purchaseRequest({ label: { format: "png", size: "4x6" } }))).rejects.toThrow(
        "DHL Express makes labels as pdf, zpl, epl2, not png.",
      );
    });

    it("makes no waybill for a service DHL will not price", async () => {
      standIn.unservedCountries.add("CA");
      const before = standIn.callsTo("shipments");
      try {
        await expect(dhl.purchase(purchaseRequest())).rejects.toThrow(/No DHL Express product is available to CA/);
        expect(standIn.callsTo("shipments")).toBe(before);
      } finally {
        standIn.unservedCountries.delete("CA");
      }
    });

    // MyDHL API requires a contact phone of at least one character on both sides, and says of
    // no stand-in number: an empty one would be refused, a made-up one would mislead the courier.
    for (const phone of [undefined, "", "  "]) {
      it(`refuses a recipient without a phone (${JSON.stringify(phone)}) before asking DHL, naming it`, async () => {
        const before = standIn.requests.length;
        const to = { ...TORONTO, phone };
        const refusal = dhl.purchase(purchaseRequest({ to }));
        await expect(refusal).rejects.toBeInstanceOf(CarrierError);
        await expect(refusal).rejects.toThrow("DHL Express needs the recipient's phone number");
        expect(standIn.requests.length).toBe(before);
      });
    }

    it("refuses a shipper without a phone before asking DHL, naming it", async () => {
      const before = standIn.requests.length;
      const from = { ...LOS_ANGELES, phone: undefined };
      await expect(dhl.purchase(purchaseRequest({ from }))).rejects.toThrow(
        "DHL Express needs the shipper's phone number",
      );
      expect(standIn.requests.length).toBe(before);
    });

    // MyDHL API's create shipment has no idempotency key (Message-Reference only names a message),
    // so a second try after an answer that may follow a purchase could buy a second waybill.
    for (const fault of ["503", "429"] as const) {
      it(`asks DHL for the waybill once when DHL answers ${fault}, and reports the failure`, async () => {
        const before = standIn.callsTo("shipments");
        standIn.fail(fault, { operation: "shipments" });
        const failed = dhl.purchase(purchaseRequest());
        await expect(failed).rejects.toBeInstanceOf(CarrierCallError);
        await expect(failed).rejects.toMatchObject({ status: Number(fault) });
        expect(standIn.callsTo("shipments")).toBe(before + 1);
      });
    }

    it("refuses in DHL's words a shipment DHL rejects", async () => {
      const stranger = open({ ...ACCOUNT, accountNumber: "999999999" });
      await expect(stranger.adapter.purchase(purchaseRequest())).rejects.toThrow(
        "DHL Express refused the request: Account number is invalid or not authorised",
      );
    });

    it("voids without asking DHL: MyDHL API has no void and an unused waybill is not billed", async () => {
      const before = standIn.requests.length;
      await expect(dhl.voidLabels(["1000000001"])).resolves.toBeUndefined();
      expect(standIn.requests.length).toBe(before);
    });
  });

  describe("tracking", () => {
    const trackingRequest = (trackingNumber: string) => ({
      trackingNumber,
      service: findService(300)!,
      from: LOS_ANGELES,
      to: TORONTO,
      labelCreatedAt: clock.now(),
      shipDate: "2026-11-27",
      promisedDeliveryDate: "2026-11-30",
      asOf: clock.now(),
    });

    it("reads DHL's events as Porter's statuses, oldest first", async () => {
      const waybill = (await dhl.purchase(purchaseRequest())).parcels[0]!.trackingNumber;
      expect((await dhl.track(trackingRequest(waybill))).events).toEqual([]);
      standIn.addEvent(waybill, {
        typeCode: "PU",
        description: "Shipment picked up",
        time: "09:00:00",
        GMTOffset: "-05:00",
      });
      standIn.addEvent(waybill, { typeCode: "WC", description: "With delivering courier", date: "2026-11-28" });
      standIn.addEvent(waybill, { typeCode: "OK", description: "Delivered", date: "2026-11-28", time: "15:00:00" });
      const report = await dhl.track(trackingRequest(waybill));
      expect(
        report.events.map((e) => [e.sequence, e.code, e.status, e.occurredAt.toISOString(), e.city, e.country]),
      ).toEqual([
        [1, "PU", "in_transit", "2026-11-27T14:00:00.000Z", "CINCINNATI HUB", "US"],
        [2, "WC", "out_for_delivery", "2026-11-28T10:00:00.000Z", "CINCINNATI HUB", "US"],
        [3, "OK", "delivered", "2026-11-28T15:00:00.000Z", "CINCINNATI HUB", "US"],
      ]);
      expect(report.estimatedDeliveryDate).toBe("2026-12-01");
      expect(Object.fromEntries(standIn.lastRequest("tracking")!.query)).toMatchObject({
        trackingView: "all-checkpoints",
        levelOfDetail: "shipment",
      });
    });

    it("reads a waybill once for all the parcels that carry it", async () => {
      const before = standIn.callsTo("tracking");
      const [first, second] = await Promise.all([
        dhl.track(trackingRequest("1234567890")),
        dhl.track(trackingRequest("1234567890")),
      ]);
      expect(first).toEqual(second);
      expect(standIn.callsTo("tracking")).toBe(before + 1);
    });

    it("reports nothing yet for a waybill DHL has no data on", async () => {
      expect(await dhl.track(trackingRequest("1234567890"))).toEqual({
        events: [],
        estimatedDeliveryDate: null,
        nextEventAt: null,
      });
    });

    it("fails as a whole when DHL does not answer", async () => {
      standIn.fail("timeout", { operation: "tracking" });
      await expect(dhl.track(trackingRequest("1234567890"))).rejects.toThrow(/did not answer/);
    });
  });
});
