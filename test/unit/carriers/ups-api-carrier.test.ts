import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CarrierCallError } from "../../../src/carriers/api-client/carrier-http-client.js";
import {
  type CarrierAddress,
  CarrierError,
  type PurchaseRequest,
  type RateRequest,
} from "../../../src/carriers/carrier.js";
import type { RealCarrier } from "../../../src/carriers/real-carrier.js";
import { findService } from "../../../src/carriers/registry.js";
import { upsApi } from "../../../src/carriers/ups/api/index.js";
import { UPS_SERVICES } from "../../../src/carriers/ups/services.js";
import { ManualClock } from "../../../src/clock.js";
import {
  LOS_ANGELES_WAREHOUSE,
  SALT_LAKE_RESIDENCE,
  T_SHIRT_ITEM,
  TORONTO_RESIDENCE,
} from "../../helpers/shipments.js";
import { standInContext } from "../../stand-ins/stand-in-server.js";
import { UpsStandIn } from "../../stand-ins/ups/ups-stand-in.js";

const ACCOUNT = { clientId: "porter-ups-app", clientSecret: "ups-s3cret", shipperNumber: "A1B2C3" };
const CREDENTIALS = { client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret, shipper_number: "a1b2c3" };
const FROM: CarrierAddress = LOS_ANGELES_WAREHOUSE;
const TO: CarrierAddress = SALT_LAKE_RESIDENCE;
const PARCEL = { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 40, packageType: "parcel" };
const service = (id: number) => findService(id)!;

const rateRequest = (overrides: Partial<RateRequest> = {}): RateRequest => ({
  from: FROM,
  to: TO,
  parcels: [PARCEL],
  residential: true,
  services: UPS_SERVICES,
  ...overrides,
});

const trackRequest = (trackingNumber: string) => ({
  trackingNumber,
  service: service(666),
  from: FROM,
  to: TO,
  labelCreatedAt: new Date(),
  shipDate: "2026-11-27",
  promisedDeliveryDate: "2026-12-01",
  asOf: new Date(),
});

const purchaseRequest = (overrides: Partial<PurchaseRequest> = {}): PurchaseRequest => ({
  ...rateRequest(),
  service: service(666),
  purchaseKey: "shipment-1",
  parcelSerials: [1, 2],
  parcels: [PARCEL, { ...PARCEL, weightOz: 80 }],
  shipDate: "2026-11-27",
  label: { format: "zpl", size: "4x6" },
  contents: [
    { reference: "order-1001", items: [] },
    { reference: null, items: [] },
  ],
  ...overrides,
});

describe("a real UPS connection's adapter (against the UPS stand-in)", () => {
  let standIn: UpsStandIn;
  let clock: ManualClock;
  let real: RealCarrier;

  const open = (credentials: Record<string, unknown> = CREDENTIALS) =>
    upsApi.open(upsApi.credentials(credentials)!, standInContext(standIn.baseUrl, clock));

  beforeAll(async () => {
    standIn = await new UpsStandIn(ACCOUNT).start();
  });
  afterAll(() => standIn.stop());
  beforeEach(() => {
    standIn.clearFaults();
    clock = new ManualClock();
    real = open();
  });

  describe("OAuth", () => {
    it("asks for a token with HTTP Basic and a form body, and keeps it while it lives", async () => {
      const before = standIn.callsTo("token");
      await Promise.all([real.verify(), real.verify(), real.verify()]);
      expect(standIn.callsTo("token")).toBe(before + 1);
      const request = standIn.lastRequest("token")!;
      expect(request.headers.authorization).toBe(
        `Basic ${Buffer.from("porter-ups-app:ups-s3cret").toString("base64")}`,
      );
      expect(request.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
      expect(request.body).toEqual({ grant_type: "client_credentials" });
      await real.adapter.rate(rateRequest());
      expect(standIn.callsTo("token")).toBe(before + 1);
      // UPS's `expires_in` is a string of seconds; a token near its end is renewed.
      clock.advance(standIn.tokenLifetimeSeconds * 1000);
      await real.adapter.rate(rateRequest());
      expect(standIn.callsTo("token")).toBe(before + 2);
    });

    it("fails verification in UPS's words when it refuses the client", async () => {
      const wrong = open({ ...CREDENTIALS, client_secret: "nope" });
      await expect(wrong.verify()).rejects.toThrow(/ClientId is Invalid/);
      await expect(wrong.verify()).rejects.toBeInstanceOf(CarrierCallError);
    });

    it("renews a token UPS stopped accepting, once, and the call goes through", async () => {
      await real.verify();
      standIn.revokeTokens();
      const before = standIn.callsTo("token");
      const rates = await real.adapter.rate(rateRequest());
      expect(rates.some((r) => r.quote)).toBe(true);
      expect(standIn.callsTo("token")).toBe(before + 1);
    });
  });

  describe("Rating Shop", () => {
    it("rates every service in one call, with UPS's breakdown adding up to its total", async () => {
      const before = standIn.callsTo("rating");
      const rates = await real.adapter.rate(rateRequest());
      expect(standIn.callsTo("rating")).toBe(before + 1);
      const call = standIn.lastRequest("rating")!;
      expect(call.path).toBe("/api/rating/v2409/Shop");
      expect(call.headers.authorization).toMatch(/^Bearer /);
      expect(call.headers.transid).toMatch(/^[0-9a-f]{32}$/);
      expect(call.headers.transactionsrc).toBe("porter");

      const ground = rates.find((r) => r.service.serviceCode === "ups_ground")!;
      // The stand-in's table for 3 lb in zone 3: $9.00 + 2 × $1.10 + 3 × $0.40 = $12.40, fuel 18 % = $2.23, residential $5.75.
      expect(ground).toMatchObject({ zone: "03", priceGroup: "3", packageType: "parcel", rateCalcTypes: ["standard"] });
      expect(ground.quote?.lines).toEqual([
        { kind: "base", description: "UPS Ground", amountCents: 1240 },
        { kind: "residential", description: "Residential Address", amountCents: 575 },
        { kind: "fuel", description: "Fuel Surcharge", amountCents: 223 },
      ]);
      expect(ground.quote?.totalCents).toBe(2038);
      expect(ground.quote?.billableWeightOz).toBe(48);
      const domestic = rates.filter((r) => r.quote).map((r) => r.service.serviceId);
      expect(domestic.sort()).toEqual([666, 672, 673, 674, 675, 676, 677]);
      const abroad = rates.find((r) => r.service.serviceCode === "ups_express")!;
      expect(abroad.refusal).toMatch(/UPS does not offer UPS Worldwide Express/);
    });

    it("refuses by Porter's own limits without asking for a service the parcels cannot take", async () => {
      const rates = await real.adapter.rate(
        rateRequest({ services: [service(666), service(672)], parcels: [{ ...PARCEL, packageType: "ups_pak" }] }),
      );
      expect(rates.find((r) => r.service.serviceId === 666)?.refusal).toMatch(/not available for UPS Ground/);
      expect(rates.find((r) => r.service.serviceId === 672)?.quote).toBeDefined();
      expect(standIn.lastRequest("rating")!.body).toMatchObject({
        RateRequest: { Shipment: { Package: [{ PackagingType: { Code: "04" } }] } },
      });
      const before = standIn.callsTo("rating");
      const heavy = await real.adapter.rate(
        rateRequest({ services: [service(666)], parcels: [{ ...PARCEL, weightOz: 151 * 16 }] }),
      );
      expect(heavy[0]?.refusal).toMatch(/Weight exceeds 150 lb/);
      expect(standIn.callsTo("rating")).toBe(before);
    });

    it("asks for time in transit when the ship date is known, and answers UPS's days and dates", async () => {
      // Thursday: Ground's two days in the stand-in's zone 3 skip the weekend.
      const rates = await real.adapter.rate(rateRequest({ shipDate: "2026-01-15" }));
      const call = standIn.lastRequest("rating")!;
      expect(call.path).toBe("/api/rating/v2409/Shoptimeintransit");
      expect(call.body).toMatchObject({
        RateRequest: {
          Shipment: {
            DeliveryTimeInformation: { PackageBillType: "03", Pickup: { Date: "20260115" } },
            ShipmentTotalWeight: { Weight: "2.5" },
          },
        },
      });
      expect(rates.find((r) => r.service.serviceId === 666)).toMatchObject({
        transitDays: 2,
        deliveryDate: "2026-01-19",
      });
      expect(rates.find((r) => r.service.serviceId === 672)).toMatchObject({
        transitDays: 1,
        deliveryDate: "2026-01-16",
      });
    });

    it("waits out a 429 as Retry-After asks", async () => {
      standIn.fail("429", { operation: "rating" });
      const rates = await real.adapter.rate(rateRequest());
      expect(rates.some((r) => r.quote)).toBe(true);
    });

    for (const fault of ["500", "timeout", "malformed"] as const) {
      it(`fails the carrier as a whole on a UPS ${fault}`, async () => {
        standIn.fail(fault, { operation: "rating", times: 5 });
        await expect(real.adapter.rate(rateRequest())).rejects.toBeInstanceOf(CarrierError);
      });
    }

    it("fails the carrier as a whole, in UPS's words, when UPS refuses the shipment", async () => {
      await expect(real.adapter.rate(rateRequest({ to: { ...TO, country: "usa" } }))).rejects.toThrow(
        /UPS refused the request: .*CountryCode/,
      );
    });
  });

  describe("Shipping, void", () => {
    it("buys a Print Return Label from the customer back to the merchant, as UPS's spec allows", async () => {
      const before = standIn.specViolations.length;
      const purchase = await real.adapter.purchase(
        purchaseRequest({
          from: TO,
          to: FROM,
          residential: false,
          parcels: [PARCEL],
          parcelSerials: [1],
          contents: [{ reference: "return-1001", items: [] }],
          returnLabel: { type: "scan_based" },
        }),
      );
      expect(purchase.parcels).toHaveLength(1);
      expect(purchase.parcels[0]!.label!.bytes.toString()).toContain(purchase.parcels[0]!.trackingNumber);
      expect(standIn.lastRequest("ship")!.body).toMatchObject({
        ShipmentRequest: { Shipment: { ReturnService: { Code: "9" }, Shipper: { ShipperNumber: "A1B2C3" } } },
      });
      expect(standIn.specViolations.slice(before)).toEqual([]);
    });

    it("buys one label per parcel in the format asked for, UPS's image stored as is", async () => {
      const purchase = await real.adapter.purchase(purchaseRequest());
      expect(purchase.parcels).toHaveLength(2);
      const [first, second] = purchase.parcels;
      expect(first!.trackingNumber).toMatch(/^1ZA1B2C303\d{7}\d$/);
      expect(second!.trackingNumber).not.toBe(first!.trackingNumber);
      expect(first!.label).toMatchObject({ format: "zpl", widthIn: 4, heightIn: 6, dpi: 203 });
      expect(first!.label!.bytes.toString()).toContain(first!.trackingNumber);
      expect(purchase.rate.quote?.totalCents).toBeGreaterThan(0);
      const sum = purchase.rate.quote!.lines.reduce((s, l) => s + l.amountCents, 0);
      expect(sum).toBe(purchase.rate.quote!.totalCents);

      const sent = standIn.lastRequest("ship")!;
      expect(sent.path).toBe("/api/shipments/v2409/ship");
      expect(sent.body).toMatchObject({
        ShipmentRequest: {
          Shipment: {
            Shipper: { ShipperNumber: "A1B2C3" },
            Service: { Code: "03" },
            ShipmentDate: "20261127",
            Package: [{ ReferenceNumber: [{ Value: "order-1001" }] }, { PackageWeight: { Weight: "5" } }],
          },
          LabelSpecification: { LabelImageFormat: { Code: "ZPL" }, LabelStockSize: { Height: "6", Width: "4" } },
        },
      });
    });

    it.each([
      ["gif", "GIF", "gif"],
      ["epl2", "EPL", "epl2"],
      ["png", "GIF", "gif"],
      ["pdf", "GIF", "gif"],
    ] as const)("makes %s labels as UPS's %s, answering its %s", async (format, code, made) => {
      const purchase = await real.adapter.purchase(
        purchaseRequest({ label: { format, size: "4x8" }, parcels: [PARCEL] }),
      );
      expect(purchase.parcels[0]!.label).toMatchObject({ format: made, heightIn: 8 });
      expect(standIn.lastRequest("ship")!.body).toMatchObject({
        ShipmentRequest: { LabelSpecification: { LabelImageFormat: { Code: code } } },
      });
    });

    it("lists the formats UPS makes, and refuses another without calling UPS", async () => {
      expect(real.adapter.labelFormats).toEqual(["gif", "png", "pdf", "zpl", "epl2"]);
      const before = standIn.callsTo("ship");
      await expect(real.adapter.purchase(purchaseRequest({ label: { format: "tiff", size: "4x6" } }))).rejects.toThrow(
        /gif, png, pdf, zpl, epl2/,
      );
      await expect(
        real.adapter.purchase(purchaseRequest({ label: { format: "zpl", size: "8.5x11" } })),
      ).rejects.toThrow(/4x6 or 4x8/);
      expect(standIn.callsTo("ship")).toBe(before);
    });

    it("has UPS make the commercial invoice of a shipment abroad, kept as the customs document", async () => {
      const purchase = await real.adapter.purchase(
        purchaseRequest({
          to: TORONTO_RESIDENCE,
          service: service(668),
          parcels: [PARCEL],
          contents: [
            {
              reference: null,
              items: [T_SHIRT_ITEM],
            },
          ],
        }),
      );
      expect(purchase.customsDocument?.toString()).toContain(
        `UPS commercial invoice ${purchase.parcels[0]!.trackingNumber}`,
      );
      expect(standIn.lastRequest("ship")!.body).toMatchObject({
        ShipmentRequest: {
          Shipment: {
            Service: { Code: "65" },
            InvoiceLineTotal: { MonetaryValue: "25.00" },
            ShipmentServiceOptions: { InternationalForms: { FormType: ["01"], ReasonForExport: "SALE" } },
          },
        },
      });
      const before = standIn.callsTo("ship");
      await expect(
        real.adapter.purchase(purchaseRequest({ to: TORONTO_RESIDENCE, service: service(668), parcels: [PARCEL] })),
      ).rejects.toThrow(/commercial invoice/);
      expect(standIn.callsTo("ship")).toBe(before);
    });

    const LONDON = {
      first_name: "Sam",
      last_name: "Hill",
      address1: "10 Downing St",
      city: "London",
      state: "",
      country: "GB",
      postal_code: "SW1A 2AA",
      phone: "442079460000",
    };
    const abroad = (to: CarrierAddress) =>
      purchaseRequest({
        to,
        service: service(668),
        parcels: [PARCEL],
        contents: [{ reference: null, items: [T_SHIRT_ITEM] }],
      });

    it("names a contact and a phone for every party across a border, and numbers the invoice (Shipping spec)", async () => {
      const sentShipment = () =>
        (standIn.lastRequest("ship")!.body as { ShipmentRequest: { Shipment: object } }).ShipmentRequest.Shipment;
      await real.adapter.purchase(abroad(LONDON));
      expect(sentShipment()).toMatchObject({
        // Shipping.yaml 5130-5133 and 5207: the shipper's attention name and phone abroad.
        Shipper: { AttentionName: "Acme Fulfillment", Phone: { Number: "3105550100" } },
        // Shipping.yaml 5300 and 5356: the consignee's contact and phone when countries differ.
        ShipTo: { AttentionName: "Sam Hill", Phone: { Number: "442079460000" } },
        ShipmentServiceOptions: {
          // Contacts_SoldTo requires AttentionName; Shipping.yaml 7141-7143: InvoiceNumber for an invoice.
          InternationalForms: {
            Contacts: { SoldTo: { Name: "Sam Hill", AttentionName: "Sam Hill" } },
            InvoiceNumber: "shipment-1",
          },
        },
      });
      // Shipping.yaml 6637-6640: a shipment-level InvoiceLineTotal only from the US to Canada or Puerto Rico.
      expect(sentShipment()).not.toHaveProperty("InvoiceLineTotal");

      await real.adapter.purchase(abroad(TORONTO_RESIDENCE));
      expect(sentShipment()).toMatchObject({
        InvoiceLineTotal: { CurrencyCode: "USD", MonetaryValue: "25.00" },
        ShipmentServiceOptions: { InternationalForms: { Contacts: { SoldTo: { AttentionName: "Jo" } } } },
      });
    });

    it("refuses a shipment abroad without the recipient's or the shipper's phone, without calling UPS", async () => {
      const before = standIn.callsTo("ship");
      await expect(real.adapter.purchase(abroad({ ...LONDON, phone: null }))).rejects.toThrow(/recipient's phone/);
      await expect(
        real.adapter.purchase({ ...abroad(LONDON), from: { ...LOS_ANGELES_WAREHOUSE, phone: null } }),
      ).rejects.toThrow(/shipper's phone/);
      expect(standIn.callsTo("ship")).toBe(before);
    });

    it("does not ask again for a label when UPS may have sold the first one (no idempotency key)", async () => {
      const calls = standIn.callsTo("ship");
      const sold = standIn.shipments.size;
      standIn.fail("sold-then-503", { operation: "ship" });
      await expect(real.adapter.purchase(purchaseRequest())).rejects.toThrow(/UPS answered HTTP 503/);
      expect(standIn.callsTo("ship")).toBe(calls + 1);
      expect(standIn.shipments.size).toBe(sold + 1);
    });

    it("still waits out a 429 on the calls that buy nothing (void)", async () => {
      const purchase = await real.adapter.purchase(purchaseRequest({ parcels: [PARCEL] }));
      standIn.fail("429", { operation: "void" });
      await real.adapter.voidLabels(purchase.parcels.map((p) => p.trackingNumber));
      expect(standIn.isVoided(purchase.parcels[0]!.trackingNumber)).toBe(true);
    });

    it("voids a shipment's labels at UPS", async () => {
      const purchase = await real.adapter.purchase(purchaseRequest());
      const numbers = purchase.parcels.map((p) => p.trackingNumber);
      await real.adapter.voidLabels(numbers);
      expect(standIn.lastRequest("void")!.path).toBe(`/api/shipments/v2409/void/cancel/${numbers[0]}`);
      expect(numbers.every((n) => standIn.isVoided(n))).toBe(true);
    });

    it("fails a void UPS refuses, in its words", async () => {
      await expect(real.adapter.voidLabels(["1ZA1B2C30399999999"])).rejects.toThrow(
        /Invalid Shipment Identification Number/,
      );
    });
  });

  describe("Tracking", () => {
    it("reads UPS's activities as Porter's events, oldest first", async () => {
      const purchase = await real.adapter.purchase(purchaseRequest({ parcels: [PARCEL] }));
      const trackingNumber = purchase.parcels[0]!.trackingNumber;
      standIn.deliver(trackingNumber, new Date());
      const report = await real.adapter.track(trackRequest(trackingNumber));
      const call = standIn.lastRequest("track")!;
      expect(call.path).toBe(`/api/track/v1/details/${trackingNumber}`);
      expect(call.headers.transid).toBeDefined();
      expect(report.events.map((e) => [e.code, e.secondaryCode, e.status])).toEqual([
        ["M", "003", "pre_transit"],
        ["P", "038", "in_transit"],
        ["I", "005", "in_transit"],
        ["I", "021", "out_for_delivery"],
        ["D", "011", "delivered"],
      ]);
      expect(report.events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
      expect(report.events[4]).toMatchObject({ city: "SALT LAKE CITY", state: "UT", country: "US" });
      expect(report.estimatedDeliveryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });

    it("has no events yet for a number UPS has not heard of", async () => {
      const report = await real.adapter.track(trackRequest("1ZA1B2C30300000000"));
      expect(report).toEqual({ events: [], estimatedDeliveryDate: null, nextEventAt: null });
    });
  });

  describe("Address validation (XAV)", () => {
    it("validates and classifies a US address", async () => {
      const verdict = await real.adapter.addresses!.validate({ ...TO, address1: "400 South State Street" });
      expect(standIn.lastRequest("xav")!.path).toBe("/api/addressvalidation/v2/3");
      expect(verdict).toMatchObject({
        valid: true,
        residential: true,
        address: { address1: "400 SOUTH STATE ST", city: "SALT LAKE CITY", postal_code: "84111-1234" },
      });
    });

    it("is invalid when UPS finds no such address", async () => {
      const verdict = await real.adapter.addresses!.validate({ ...TO, address1: "1 Nowhere Lane" });
      expect(verdict).toMatchObject({ valid: false, reasons: [expect.stringMatching(/no address/)] });
    });

    it("leaves addresses abroad to Porter's own rules", async () => {
      await expect(real.adapter.addresses!.validate({ ...TO, country: "CA" })).rejects.toThrow(/US and Puerto Rico/);
    });
  });
});
