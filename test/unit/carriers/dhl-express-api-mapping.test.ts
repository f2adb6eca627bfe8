import { describe, expect, it } from "vitest";
import type { RatedParcel } from "../../../src/carriers/catalogue.js";
import { dhlExpressCredentials } from "../../../src/carriers/dhl-express/api/dhl-express-credentials.js";
import {
  carriesDocuments,
  declaredValueCents,
  dhlEncodingFormat,
  dhlPackage,
  dhlProductCode,
  dhlRateAddress,
  exportLineItems,
  labelTemplate,
  plannedShippingDateAndTime,
  quoteFromProduct,
  serviceCodeOfProduct,
} from "../../../src/carriers/dhl-express/api/dhl-express-products.js";
import {
  placeOf,
  trackingReportOf,
  trackingStatusOf,
} from "../../../src/carriers/dhl-express/api/dhl-express-tracking.js";
import type { DhlProduct } from "../../../src/carriers/dhl-express/api/dhl-express-wire.js";
import { DHL_EXPRESS_EVENTS } from "../../../src/carriers/dhl-express/tracking-events.js";
import { findService } from "../../../src/carriers/registry.js";
import { parcel } from "./rating-fixtures.js";

/** A 1.5 lb parcel, 10 × 8 × 4 in. */
const box = (overrides: Partial<RatedParcel> = {}) => parcel({ lengthIn: 10, widthIn: 8, weightOz: 24, ...overrides });

/** A product as the spec's sample rates answer writes it, in US dollars. */
const worldwide = (overrides: Partial<DhlProduct> = {}): DhlProduct => ({
  productName: "EXPRESS WORLDWIDE NONDOC",
  productCode: "P",
  weight: { volumetric: 1.2, provided: 1.5, unitOfMeasurement: "imperial" },
  totalPrice: [
    { currencyType: "BILLC", priceCurrency: "USD", price: 157.95 },
    { currencyType: "BASEC", priceCurrency: "EUR", price: 182.84 },
  ],
  totalPriceBreakdown: [
    {
      currencyType: "BILLC",
      priceCurrency: "USD",
      priceBreakdown: [
        { typeCode: "STTXA", price: 0 },
        { typeCode: "SPRQT", price: 130 },
      ],
    },
  ],
  detailedPriceBreakdown: [
    {
      currencyType: "BILLC",
      priceCurrency: "USD",
      breakdown: [
        { name: "EXPRESS WORLDWIDE", price: 130 },
        { name: "EMERGENCY SITUATION", serviceCode: "CR", serviceTypeCode: "SCH", price: 0.27 },
        { name: "FUEL SURCHARGE", serviceCode: "FF", serviceTypeCode: "SCH", price: 27.68 },
        { name: "SATURDAY DELIVERY", serviceCode: "AA", serviceTypeCode: "XCH" },
      ],
    },
  ],
  deliveryCapabilities: { estimatedDeliveryDateAndTime: "2026-11-30T23:59:00", totalTransitDays: 2 },
  ...overrides,
});

describe("DHL Express credentials", () => {
  it("reads the MyDHL API key and secret and the account number", () => {
    expect(dhlExpressCredentials({ api_key: "k", api_secret: "s", account_number: "123456789" })).toEqual({
      apiKey: "k",
      apiSecret: "s",
      accountNumber: "123456789",
    });
  });

  it("is a sandbox connection without credentials", () => {
    expect(dhlExpressCredentials({})).toBeUndefined();
  });

  it("names what is missing or malformed", () => {
    expect(() => dhlExpressCredentials({ api_key: "k", api_secret: "s" })).toThrow(/account_number/);
    expect(() => dhlExpressCredentials({ api_key: "k", account_number: "1" })).toThrow(/api_secret/);
    expect(() => dhlExpressCredentials({ api_key: "k", api_secret: "s", account_number: "12-34" })).toThrow(
      /up to 12 letters or digits/,
    );
    expect(() => dhlExpressCredentials({ api_key: 7, api_secret: "s", account_number: "1" })).toThrow(/string/);
  });
});

describe("Porter's DHL Express services as DHL products", () => {
  it.each([
    [300, "P", "D"],
    [294, "Y", "T"],
    [295, "E", "K"],
    [291, "M", "L"],
    [287, "H", "W"],
    [297, "8", "7"],
    [289, "V", "9"],
  ])("service %i ships goods as %s and documents as %s, and both read back as the service", (id, goods, docs) => {
    const service = findService(id)!;
    expect(dhlProductCode(service, false)).toBe(goods);
    expect(dhlProductCode(service, true)).toBe(docs);
    expect(serviceCodeOfProduct(goods)).toBe(service.serviceCode);
    expect(serviceCodeOfProduct(docs)).toBe(service.serviceCode);
  });

  it.each([
    [288, "H"],
    [292, "M"],
    [284, "N"],
    [299, "X"],
    [303, "U"],
  ])("ships eHub's listing %i as product %s", (id, code) => {
    expect(dhlProductCode(findService(id)!, false)).toBe(code);
  });

  it("knows no DHL product for another carrier's service, nor for products whose code is not known", () => {
    expect(serviceCodeOfProduct("Q")).toBeUndefined();
    expect(dhlProductCode(findService(684)!, false)).toBeUndefined();
    for (const id of [281, 301, 302, 311]) expect(dhlProductCode(findService(id)!, false), `${id}`).toBeUndefined();
  });

  it("takes envelopes as documents, anything else as goods", () => {
    expect(carriesDocuments([box({ packageType: "envelope" })])).toBe(true);
    expect(carriesDocuments([box({ packageType: "envelope" }), box()])).toBe(false);
    expect(carriesDocuments([box({ packageType: "flyer" })])).toBe(false);
  });
});

describe("parcels, addresses and times as MyDHL API writes them", () => {
  it("sends pounds to three decimals and inches, and the Express Envelope's packaging code", () => {
    expect(dhlPackage(box())).toEqual({ weight: 1.5, dimensions: { length: 10, width: 8, height: 4 } });
    expect(dhlPackage(box({ packageType: "envelope", weightOz: 5 }))).toMatchObject({ typeCode: "XPD", weight: 0.313 });
    expect(dhlPackage(box({ lengthIn: 0, widthIn: 0, heightIn: 0, weightOz: 0 }))).toEqual({ weight: 0.001 });
  });

  it("clips address lines to DHL's 45 characters and upper-cases the country", () => {
    const address = dhlRateAddress({
      address1: "1 Very Long Street Name That Goes On And On And On Past The Limit",
      city: "Toronto",
      state: "ON",
      country: "ca",
      postal_code: "M5V 2T6",
    });
    expect(address).toEqual({
      postalCode: "M5V 2T6",
      cityName: "Toronto",
      countryCode: "CA",
      provinceCode: "ON",
      addressLine1: "1 Very Long Street Name That Goes On And On A",
    });
  });

  it("plans the hand-over at noon UTC of the ship day, or an hour from now when noon has passed", () => {
    expect(plannedShippingDateAndTime("2026-11-27", new Date("2026-11-26T09:00:00Z"))).toBe(
      "2026-11-27T12:00:00GMT+00:00",
    );
    expect(plannedShippingDateAndTime("2026-11-26", new Date("2026-11-26T15:30:00Z"))).toBe(
      "2026-11-26T16:30:00GMT+00:00",
    );
  });
});

describe("a DHL product's price as Porter's quote", () => {
  it("keeps DHL's breakdown: the product, then each priced surcharge under its kind, adding up to DHL's total", () => {
    const priced = quoteFromProduct(worldwide(), [box()]);
    expect(priced).toEqual({
      quote: {
        totalCents: 15795,
        lines: [
          { kind: "base", description: "Express Worldwide", amountCents: 13000 },
          { kind: "emergency_situation", description: "Emergency Situation", amountCents: 27 },
          { kind: "fuel", description: "Fuel Surcharge", amountCents: 2768 },
        ],
        billableWeightOz: 24,
      },
      deliveryDate: "2026-11-30",
      transitDays: 2,
    });
  });

  it("puts DHL's taxes on a line of their own, and lets the product's line absorb DHL's rounding", () => {
    const product = worldwide({
      totalPrice: [{ currencyType: "BILLC", priceCurrency: "USD", price: 170.01 }],
      totalPriceBreakdown: [
        { currencyType: "BILLC", priceCurrency: "USD", priceBreakdown: [{ typeCode: "STTXA", price: 12 }] },
      ],
    });
    const priced = quoteFromProduct(product, [box()]);
    if ("refusal" in priced) throw new Error(priced.refusal);
    expect(priced.quote.totalCents).toBe(17001);
    expect(priced.quote.lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ["base", 13006],
      ["emergency_situation", 27],
      ["fuel", 2768],
      ["tax", 1200],
    ]);
  });

  it("bills the volumetric weight when it is the greater", () => {
    const priced = quoteFromProduct(worldwide({ weight: { volumetric: 3.25, provided: 1.5 } }), [box()]);
    expect("quote" in priced && priced.quote.billableWeightOz).toBe(52);
  });

  it("uses a US-dollar price of another kind when the billing currency is not dollars", () => {
    const product = worldwide({
      totalPrice: [
        { currencyType: "BILLC", priceCurrency: "EUR", price: 150 },
        { currencyType: "PULCL", priceCurrency: "USD", price: 160.5 },
      ],
      detailedPriceBreakdown: [],
      totalPriceBreakdown: [],
    });
    const priced = quoteFromProduct(product, [box()]);
    expect("quote" in priced && priced.quote.lines).toEqual([
      { kind: "base", description: "Express Worldwide Nondoc", amountCents: 16050 },
    ]);
  });

  it("refuses a price Porter cannot bill, naming DHL's currency", () => {
    const priced = quoteFromProduct(
      worldwide({ totalPrice: [{ currencyType: "BILLC", priceCurrency: "EUR", price: 150 }] }),
      [box()],
    );
    expect(priced).toEqual({ refusal: "DHL Express priced this shipment in EUR; Porter bills in US dollars." });
  });
});

describe("labels and customs for MyDHL API", () => {
  it("makes PDF, ZPL and EPL labels, not raster images", () => {
    expect(dhlEncodingFormat("pdf")).toBe("pdf");
    expect(dhlEncodingFormat("zpl")).toBe("zpl");
    expect(dhlEncodingFormat("epl2")).toBe("epl");
    expect(dhlEncodingFormat("png")).toBeUndefined();
  });

  it("prints 4 × 6 on DHL's A6 template and defaults to its 4 × 8 label", () => {
    expect(labelTemplate("4x6").templateName).toBe("ECOM26_A6_002");
    expect(labelTemplate("4x8")).toEqual({ templateName: "ECOM26_84_001", widthIn: 4, heightIn: 8 });
    expect(labelTemplate("2 5/16x4").templateName).toBe("ECOM26_84_001");
  });

  it("declares items as DHL export lines with unit price, pieces, the line's net weight and the HS code", () => {
    const items = [
      {
        description: "Cotton T-shirt",
        quantity: 2,
        valueCents: 2500,
        weightOz: 16,
        countryOfOrigin: "pe",
        hsTariffCode: "6109.10",
        contentType: "merchandise",
      },
      {
        description: null,
        quantity: 1,
        valueCents: 500,
        weightOz: null,
        countryOfOrigin: null,
        hsTariffCode: null,
        contentType: "gift",
      },
    ];
    expect(exportLineItems(items, "US")).toEqual([
      {
        number: 1,
        description: "Cotton T-shirt",
        price: 12.5,
        quantity: { value: 2, unitOfMeasurement: "PCS" },
        commodityCodes: [{ typeCode: "outbound", value: "610910" }],
        exportReasonType: "commercial_purpose_or_sale",
        manufacturerCountry: "PE",
        weight: { netValue: 1 },
      },
      {
        number: 2,
        description: "Goods",
        price: 5,
        quantity: { value: 1, unitOfMeasurement: "PCS" },
        exportReasonType: "gift",
        manufacturerCountry: "US",
        weight: { netValue: 0.001 },
      },
    ]);
    expect(declaredValueCents(items)).toBe(3000);
  });
});

describe("DHL tracking events as Porter's", () => {
  it("maps every code of the sandbox twin to the same status", () => {
    for (const event of Object.values(DHL_EXPRESS_EVENTS)) {
      expect(trackingStatusOf(event.code), event.code).toBe(event.status);
    }
  });

  it("treats a code it does not know as a movement", () => {
    expect(trackingStatusOf("ZZ")).toBe("in_transit");
  });

  it("reads the place and country of a service area", () => {
    expect(placeOf("Brisbane-AU")).toEqual({ city: "BRISBANE", country: "AU" });
    expect(placeOf("CINCINNATI HUB")).toEqual({ city: "CINCINNATI HUB", country: null });
    expect(placeOf(undefined)).toEqual({ city: null, country: null });
  });

  it("reads a tracking answer oldest first, at the instants DHL's offsets give", () => {
    const report = trackingReportOf({
      shipments: [
        {
          shipmentTrackingNumber: "1234567890",
          estimatedDeliveryDate: "2026-11-30T23:59:00Z",
          events: [
            {
              date: "2026-11-27",
              time: "09:15:00",
              GMTOffset: "-05:00",
              typeCode: "PU",
              description: "Shipment picked up",
              serviceArea: [{ code: "CVG", description: "Cincinnati Hub-US" }],
            },
            {
              date: "2026-11-26",
              time: "18:00:00",
              typeCode: "DUMMY_PU",
              description: "Shipment information received",
            },
            { date: "2026-11-28", time: "10:00:00", GMTOffset: "+01:00", typeCode: "NH", description: "Not home" },
            { typeCode: "OK" },
          ],
        },
      ],
    });
    expect(report?.estimatedDeliveryDate).toBe("2026-11-30");
    expect(report?.events.map((e) => [e.code, e.status, e.occurredAt.toISOString(), e.city, e.country])).toEqual([
      ["DUMMY_PU", "pre_transit", "2026-11-26T18:00:00.000Z", null, null],
      ["PU", "in_transit", "2026-11-27T14:15:00.000Z", "CINCINNATI HUB", "US"],
      ["NH", "exception", "2026-11-28T09:00:00.000Z", null, null],
    ]);
    expect(report?.events.map((e) => e.sequence)).toEqual([1, 2, 3]);
  });

  it("has nothing to report for an answer without a shipment", () => {
    expect(trackingReportOf({ shipments: [] })).toBeUndefined();
    expect(trackingReportOf({})).toBeUndefined();
  });
});
