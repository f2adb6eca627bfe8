import { describe, expect, it } from "vitest";
import type { CarrierAddress, RateRequest } from "../../../src/carriers/carrier.js";
import { findService } from "../../../src/carriers/registry.js";
import { addressVerdict, xavRequest } from "../../../src/carriers/ups/api/ups-addresses.js";
import { chargeKind, chargeLines, many, packageQuotes, upsCents } from "../../../src/carriers/ups/api/ups-charges.js";
import { upsCredentials } from "../../../src/carriers/ups/api/ups-credentials.js";
import { commercialInvoice } from "../../../src/carriers/ups/api/ups-customs.js";
import {
  porterPackageType,
  porterService,
  upsDimensions,
  upsPackagingCode,
  upsParty,
  upsServiceCode,
  upsWeight,
  withAttention,
} from "../../../src/carriers/ups/api/ups-products.js";
import { quoteOf, rateRequest, shopOption, shopQuotes, upsDate } from "../../../src/carriers/ups/api/ups-rating.js";
import {
  notVoided,
  shippedPackages,
  shipRequest,
  upsLabelFormat,
  upsReturnRefusal,
} from "../../../src/carriers/ups/api/ups-shipping.js";
import { activityInstant, trackingReport, trackingStatus } from "../../../src/carriers/ups/api/ups-tracking.js";
import type { UpsRatedShipment } from "../../../src/carriers/ups/api/ups-wire.js";
import { UPS_SERVICES } from "../../../src/carriers/ups/services.js";
import { T_SHIRT_ITEM } from "../../helpers/shipments.js";

const service = (id: number) => findService(id)!;
const box = { lengthIn: 10.4, widthIn: 12, heightIn: 4, weightOz: 40, packageType: "parcel" };
const FROM: CarrierAddress = {
  company: "Porter Goods",
  first_name: "Ann",
  last_name: "Lee",
  address1: "123 Main St",
  address2: "Suite 4",
  city: "Los Angeles",
  state: "CA",
  country: "US",
  postal_code: "90035",
};
const TO: CarrierAddress = {
  first_name: "Bo",
  last_name: "Chen",
  address1: "400 S State St",
  city: "Salt Lake City",
  state: "UT",
  country: "US",
  postal_code: "84111-2345",
};
const money = (value: string) => ({ CurrencyCode: "USD", MonetaryValue: value });

describe("UPS credentials", () => {
  it("reads the OAuth client and the shipper number", () => {
    expect(upsCredentials({ client_id: "id", client_secret: "s", shipper_number: "a1b2c3" })).toEqual({
      clientId: "id",
      clientSecret: "s",
      shipperNumber: "A1B2C3",
    });
    expect(upsCredentials({ client_id: "id", client_secret: "s", account_number: "8Y6X57" })?.shipperNumber).toBe(
      "8Y6X57",
    );
  });

  it("is a sandbox connection without an OAuth client, even with an account number", () => {
    expect(upsCredentials({})).toBeUndefined();
    expect(upsCredentials({ account_number: "A1B2C3" })).toBeUndefined();
  });

  it("refuses a half-given or malformed set, naming what is wrong", () => {
    expect(() => upsCredentials({ client_id: "id" })).toThrow(/client_secret/);
    expect(() => upsCredentials({ client_id: "id", client_secret: "s" })).toThrow(/shipper_number/);
    expect(() => upsCredentials({ client_id: "id", client_secret: "s", shipper_number: "12345" })).toThrow(/six/);
    expect(() => upsCredentials({ client_id: 5, client_secret: "s", shipper_number: "123456" })).toThrow(/string/);
  });
});

describe("Porter's UPS services and packaging as UPS codes, both ways", () => {
  it.each([
    [666, "03"],
    [677, "12"],
    [675, "02"],
    [676, "59"],
    [673, "13"],
    [672, "01"],
    [674, "14"],
    [669, "07"],
    [670, "54"],
    [668, "65"],
    [671, "08"],
    [667, "11"],
  ])("service %i is UPS service code %s, and back", (id, code) => {
    expect(upsServiceCode(service(id))).toBe(code);
    expect(porterService(code)?.serviceId).toBe(id);
  });

  it("names every Porter UPS service, and no UPS service Porter does not sell", () => {
    for (const s of UPS_SERVICES) expect(upsServiceCode(s)).toMatch(/^\d{2}$/);
    expect(porterService("96")).toBeUndefined();
    expect(porterService("3")?.serviceCode).toBe("ups_ground");
  });

  it.each([
    ["parcel", "02"],
    ["ups_letter", "01"],
    ["ups_tube", "03"],
    ["ups_pak", "04"],
    ["ups_box_small", "2a"],
    ["ups_box_medium", "2b"],
    ["ups_box_large", "2c"],
  ])("package type %s is UPS packaging %s, and back", (type, code) => {
    expect(upsPackagingCode(type)).toBe(code);
    expect(porterPackageType(code.toUpperCase())).toBe(type);
  });

  it("has no UPS packaging for another carrier's", () => {
    expect(upsPackagingCode("flat_rate_envelope")).toBeUndefined();
  });

  it("writes weights in pounds to a tenth, rounded up, and sides in whole inches longest first", () => {
    expect(upsWeight(40).Weight).toBe("2.5");
    expect(upsWeight(17).Weight).toBe("1.1");
    expect(upsWeight(1).Weight).toBe("0.1");
    expect(upsWeight(16).Weight).toBe("1");
    expect(upsDimensions(box)).toMatchObject({ Length: "12", Width: "10", Height: "4" });
    expect(upsDimensions({ lengthIn: 0, widthIn: 0, heightIn: 0 })).toBeUndefined();
  });

  it("writes a company as the name and the person as attention, ZIP+4 without its hyphen", () => {
    const party = upsParty({ ...FROM, phone: "(310) 555-0100" });
    expect(party).toMatchObject({
      Name: "Porter Goods",
      AttentionName: "Ann Lee",
      Phone: { Number: "3105550100" },
      Address: {
        AddressLine: ["123 Main St", "Suite 4"],
        City: "Los Angeles",
        StateProvinceCode: "CA",
        PostalCode: "90035",
      },
    });
    const to = upsParty(TO, { residential: true });
    expect(to.Name).toBe("Bo Chen");
    expect(to.AttentionName).toBeUndefined();
    expect(to.Address).toMatchObject({ PostalCode: "841112345", ResidentialAddressIndicator: "Y" });
  });
});

describe("UPS charges as Porter cost lines", () => {
  it("reads UPS's decimal strings as exact cents", () => {
    expect(upsCents("12.34")).toBe(1234);
    expect(upsCents("1.005")).toBe(101);
    expect(upsCents("7")).toBe(700);
    expect(upsCents("-1.50")).toBe(-150);
    expect(upsCents("abc")).toBeNaN();
  });

  it("names UPS's surcharges by code, else by their words, else keeps UPS's code", () => {
    expect(chargeKind({ Code: "375" })).toBe("fuel");
    expect(chargeKind({ Code: "270" })).toBe("residential");
    expect(chargeKind({ Code: "376" })).toBe("delivery_area");
    expect(chargeKind({ Code: "999", Description: "LARGE PACKAGE SURCHARGE" })).toBe("large_package");
    expect(chargeKind({ Code: "120", Description: "Something new" })).toBe("ups_120");
  });

  it("splits the total into the transportation charge and each kind of surcharge, adding up to the cent", () => {
    const lines = chargeLines(
      2390,
      [
        { Code: "375", Description: "FUEL SURCHARGE", ...money("1.50") },
        { Code: "375", Description: "FUEL SURCHARGE", ...money("1.60") },
        { Code: "270", Description: "RESIDENTIAL ADDRESS", ...money("5.75") },
        { Code: "190", Description: "ZERO", ...money("0.00") },
      ],
      "UPS Ground",
    );
    expect(lines).toEqual([
      { kind: "base", description: "UPS Ground", amountCents: 1505 },
      { kind: "fuel", description: "Fuel Surcharge", amountCents: 310 },
      { kind: "residential", description: "Residential Address", amountCents: 575 },
    ]);
    expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(2390);
  });

  it("splits a shipment's charges per package, adding up to the total", () => {
    const quotes = packageQuotes(
      1001,
      [{ Code: "270", Description: "RESIDENTIAL ADDRESS", ...money("2.00") }],
      [[{ Code: "375", ...money("1.00") }], [{ Code: "375", ...money("0.50") }], []],
      "UPS Ground",
      [16, 32, 48],
    );
    expect(quotes.map((q) => q.totalCents)).toEqual([217 + 200 + 100, 217 + 50, 217]);
    expect(quotes.reduce((s, q) => s + q.totalCents, 0)).toBe(1001);
  });

  it("keeps the total as one line when the surcharges exceed it", () => {
    expect(chargeLines(500, [{ Code: "375", ...money("9.00") }], "UPS Ground")).toEqual([
      { kind: "base", description: "UPS Ground", amountCents: 500 },
    ]);
  });

  it("takes one element or an array alike", () => {
    expect(many(undefined)).toEqual([]);
    expect(many({ a: 1 })).toEqual([{ a: 1 }]);
    expect(many([1, 2])).toEqual([1, 2]);
  });
});

describe("Rating Shop", () => {
  const request: RateRequest = {
    from: FROM,
    to: TO,
    parcels: [box, { ...box, packageType: "ups_pak", lengthIn: 0, widthIn: 0, heightIn: 0 }],
    residential: true,
    services: UPS_SERVICES,
  };

  it("asks for every parcel under the shipper number, negotiated rates included", () => {
    const body = rateRequest(request, "A1B2C3");
    const shipment = body.RateRequest.Shipment;
    expect(shipment.Shipper.ShipperNumber).toBe("A1B2C3");
    expect(shipment.Service).toBeUndefined();
    expect(shipment.ShipTo.Address.ResidentialAddressIndicator).toBe("Y");
    expect(shipment.PaymentDetails?.ShipmentCharge[0]?.BillShipper.AccountNumber).toBe("A1B2C3");
    expect(shipment.DeliveryTimeInformation).toBeUndefined();
    expect(shopOption(request)).toBe("Shop");
    expect(shopOption({ shipDate: "2026-01-15" })).toBe("Shoptimeintransit");
    expect(shipment.ShipmentRatingOptions).toEqual({ NegotiatedRatesIndicator: "" });
    expect(shipment.Package).toEqual([
      {
        PackagingType: { Code: "02" },
        Dimensions: {
          UnitOfMeasurement: { Code: "IN", Description: "Inches" },
          Length: "12",
          Width: "10",
          Height: "4",
        },
        PackageWeight: { UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: "2.5" },
      },
      {
        PackagingType: { Code: "04" },
        PackageWeight: { UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: "2.5" },
      },
    ]);
  });

  it("leaves out a state code longer than Rating's two characters (a Mexican state), which Shipping still takes", () => {
    const mexico: CarrierAddress = {
      ...TO,
      state: "CMX",
      country: "MX",
      postal_code: "06050",
      city: "Ciudad de Mexico",
    };
    const rated = rateRequest({ ...request, to: mexico }, "A1B2C3").RateRequest.Shipment;
    expect(rated.ShipTo.Address.StateProvinceCode).toBeUndefined();
    expect(rated.Shipper.Address.StateProvinceCode).toBe("CA");
    expect(upsParty(mexico).Address.StateProvinceCode).toBe("CMX");
  });

  const rated = (overrides: Partial<UpsRatedShipment> = {}): UpsRatedShipment => ({
    Service: { Code: "03" },
    Zone: "005",
    BillingWeight: { UnitOfMeasurement: { Code: "LBS" }, Weight: "3" },
    TransportationCharges: money("20.00"),
    ServiceOptionsCharges: money("0.00"),
    TotalCharges: money("20.00"),
    ItemizedCharges: [{ Code: "270", Description: "RESIDENTIAL ADDRESS", ...money("5.75") }],
    RatedPackage: { ItemizedCharges: { Code: "375", Description: "FUEL SURCHARGE", ...money("2.25") } },
    ...overrides,
  });

  it("maps each rated UPS service to the Porter service asked for, with UPS's breakdown and zone", () => {
    const quotes = shopQuotes(
      {
        RateResponse: {
          Response: { ResponseStatus: { Code: "1" } },
          RatedShipment: [
            rated(),
            rated({
              Service: { Code: "01" },
              GuaranteedDelivery: { BusinessDaysInTransit: "1", ScheduledDeliveryDate: "20261127" },
            }),
            rated({ Service: { Code: "96" } }),
          ],
        },
      },
      [service(666), service(672)],
    );
    expect(quotes.map((q) => q.service.serviceId)).toEqual([666, 672]);
    expect(quotes[0]).toMatchObject({ zone: "05", deliveryDate: null, transitDays: null });
    expect(quotes[0]!.quote).toEqual({
      totalCents: 2000,
      billableWeightOz: 48,
      lines: [
        { kind: "base", description: "UPS Ground", amountCents: 1200 },
        { kind: "residential", description: "Residential Address", amountCents: 575 },
        { kind: "fuel", description: "Fuel Surcharge", amountCents: 225 },
      ],
    });
    expect(quotes[1]).toMatchObject({ deliveryDate: "2026-11-27", transitDays: 1 });
  });

  it("leaves out UPS services not asked for", () => {
    const answer = { RateResponse: { Response: {}, RatedShipment: rated() } };
    expect(shopQuotes(answer, [service(672)])).toEqual([]);
  });

  it("takes the negotiated total where UPS gives one", () => {
    const quote = quoteOf(rated({ NegotiatedRateCharges: { TotalCharge: money("15.10") } }), "UPS Ground")!;
    expect(quote.totalCents).toBe(1510);
    expect(quote.lines).toEqual([{ kind: "base", description: "UPS Ground", amountCents: 1510 }]);
  });

  it("reads a time-in-transit arrival date", () => {
    const quotes = shopQuotes(
      {
        RateResponse: {
          RatedShipment: rated({
            TimeInTransit: {
              ServiceSummary: { EstimatedArrival: { Arrival: { Date: "20261201" }, BusinessDaysInTransit: "3" } },
            },
          }),
        },
      },
      [service(666)],
    );
    expect(quotes[0]).toMatchObject({ deliveryDate: "2026-12-01", transitDays: 3 });
  });

  it("refuses an answer that is not a Rating answer", () => {
    expect(() => shopQuotes({}, UPS_SERVICES)).toThrow(TypeError);
    expect(() =>
      shopQuotes({ RateResponse: { RatedShipment: rated({ TotalCharges: money("n/a") }) } }, UPS_SERVICES),
    ).toThrow(TypeError);
  });

  it("reads UPS dates in either form", () => {
    expect(upsDate("20260301")).toBe("2026-03-01");
    expect(upsDate("2026-03-01")).toBe("2026-03-01");
    expect(upsDate("soon")).toBeNull();
  });
});

describe("Shipping and Void", () => {
  it("makes the label formats UPS makes, in UPS's names, and PNG and PDF from its GIF", () => {
    expect(upsLabelFormat("gif")).toBe("GIF");
    expect(upsLabelFormat("zpl")).toBe("ZPL");
    expect(upsLabelFormat("epl2")).toBe("EPL");
    expect(upsLabelFormat("pdf")).toBe("GIF");
    expect(upsLabelFormat("png")).toBe("GIF");
    expect(upsLabelFormat("jpeg")).toBeUndefined();
    expect(upsLabelFormat("tiff")).toBeUndefined();
  });

  it("asks for one package per parcel, billed to the shipper, with the label format, stock and ship date", () => {
    const body = shipRequest({
      shipperNumber: "A1B2C3",
      service: service(675),
      from: { ...FROM, phone: "3105550100" },
      to: { ...TO, phone: "8015550199" },
      residential: true,
      parcels: [
        { ...box, reference: "order-1" },
        { ...box, packageType: "ups_box_small" },
      ],
      label: { format: "ZPL", size: "4x8" },
      shipDate: "2026-11-27",
      purchaseKey: "purchase-9",
    });
    const shipment = body.ShipmentRequest.Shipment;
    expect(body.ShipmentRequest.Request).toEqual({
      RequestOption: "nonvalidate",
      TransactionReference: { CustomerContext: "purchase-9" },
    });
    expect(shipment.Service).toEqual({ Code: "02", Description: "UPS 2nd Day Air" });
    expect(shipment.Shipper).toMatchObject({
      Name: "Porter Goods",
      ShipperNumber: "A1B2C3",
      Phone: { Number: "3105550100" },
    });
    expect(shipment.PaymentInformation.ShipmentCharge).toEqual([
      { Type: "01", BillShipper: { AccountNumber: "A1B2C3" } },
    ]);
    expect(shipment.ShipmentDate).toBe("20261127");
    expect(shipment.Package.map((p) => p.Packaging.Code)).toEqual(["02", "2a"]);
    expect(shipment.Package[0]!.ReferenceNumber).toEqual([{ Value: "order-1" }]);
    expect(body.ShipmentRequest.LabelSpecification).toEqual({
      LabelImageFormat: { Code: "ZPL" },
      LabelStockSize: { Height: "8", Width: "4" },
    });
  });

  it("makes a return label a Print Return Label shipment: the merchant ships to itself, collected from the customer", () => {
    // The return travels from the customer (TO above) back to the merchant (FROM above).
    const body = shipRequest({
      shipperNumber: "A1B2C3",
      service: service(666),
      from: { ...TO, phone: "8015550199" },
      to: { ...FROM, phone: "3105550100" },
      residential: false,
      parcels: [{ ...box, reference: "return-1" }],
      label: { format: "GIF", size: "4x6" },
      purchaseKey: "purchase-10",
      returnLabel: true,
    });
    const shipment = body.ShipmentRequest.Shipment;
    expect(shipment.ReturnService).toEqual({ Code: "9", Description: "UPS Print Return Label" });
    expect(shipment.Shipper).toMatchObject({ Name: "Porter Goods", ShipperNumber: "A1B2C3" });
    expect(shipment.Shipper.Address.PostalCode).toBe("90035");
    expect(shipment.ShipTo.Address.PostalCode).toBe("90035");
    expect(shipment.ShipFrom?.Address.PostalCode).toBe("841112345");
    expect(shipment.Package[0]!.Description).toBe("Merchandise");
    expect(shipment.PaymentInformation.ShipmentCharge).toEqual([
      { Type: "01", BillShipper: { AccountNumber: "A1B2C3" } },
    ]);
  });

  it("sends no return service on an outbound shipment", () => {
    const body = shipRequest({
      shipperNumber: "A1B2C3",
      service: service(666),
      from: FROM,
      to: TO,
      residential: true,
      parcels: [box],
      label: { format: "GIF", size: "4x6" },
      purchaseKey: "purchase-11",
    });
    expect(body.ShipmentRequest.Shipment).not.toHaveProperty("ReturnService");
    expect(body.ShipmentRequest.Shipment.Package[0]).not.toHaveProperty("Description");
  });

  it("refuses returns on the services UPS carries none on, and several parcels from the US or Puerto Rico", () => {
    expect(upsReturnRefusal(service(666), "US", 1)).toBeUndefined();
    expect(upsReturnRefusal(service(673), "US", 1)).toMatch(/no return shipments on UPS Next Day Air Saver/);
    expect(upsReturnRefusal(service(676), "US", 1)).toMatch(/no return shipments/);
    expect(upsReturnRefusal(service(666), "US", 2)).toMatch(/carry one parcel/);
    expect(upsReturnRefusal(service(666), "pr", 2)).toMatch(/carry one parcel/);
    expect(upsReturnRefusal(service(669), "GB", 2)).toBeUndefined();
  });

  it("reads one tracking number and label per package, and what UPS charged", () => {
    const shipped = shippedPackages(
      {
        ShipmentResponse: {
          Response: { ResponseStatus: { Code: "1" } },
          ShipmentResults: {
            ShipmentCharges: {
              TransportationCharges: money("30.00"),
              ServiceOptionsCharges: money("0.00"),
              TotalCharges: money("30.00"),
            },
            ShipmentIdentificationNumber: "1ZA1B2C30200000017",
            PackageResults: [
              {
                TrackingNumber: "1ZA1B2C30200000017",
                ShippingLabel: { ImageFormat: { Code: "ZPL" }, GraphicImage: Buffer.from("^XA^XZ").toString("base64") },
                ItemizedCharges: [{ Code: "375", Description: "FUEL SURCHARGE", ...money("4.00") }],
              },
              { TrackingNumber: "1ZA1B2C30200000026" },
            ],
          },
        },
      },
      "UPS 2nd Day Air",
      [24, 40],
    );
    expect(shipped.shipmentId).toBe("1ZA1B2C30200000017");
    expect(shipped.packages.map((p) => p.trackingNumber)).toEqual(["1ZA1B2C30200000017", "1ZA1B2C30200000026"]);
    expect(shipped.packages[0]!.label).toEqual({ bytes: Buffer.from("^XA^XZ"), format: "ZPL" });
    expect(shipped.packages[1]!.label).toBeUndefined();
    expect(shipped.charges?.quote.lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ["base", 2600],
      ["fuel", 400],
    ]);
    // Per package: its own surcharges, and the transportation charge shared equally.
    expect(shipped.charges?.packageQuotes).toEqual([
      {
        totalCents: 1700,
        billableWeightOz: 32,
        lines: [
          { kind: "base", description: "UPS 2nd Day Air", amountCents: 1300 },
          { kind: "fuel", description: "Fuel Surcharge", amountCents: 400 },
        ],
      },
      {
        totalCents: 1300,
        billableWeightOz: 48,
        lines: [{ kind: "base", description: "UPS 2nd Day Air", amountCents: 1300 }],
      },
    ]);
  });

  it("refuses a Shipping answer without packages", () => {
    expect(() => shippedPackages({ ShipmentResponse: { ShipmentResults: { PackageResults: [] } } }, "x", [])).toThrow(
      TypeError,
    );
    expect(() => shippedPackages({ ShipmentResponse: { ShipmentResults: { PackageResults: [{}] } } }, "x", [])).toThrow(
      TypeError,
    );
  });

  it("names the packages UPS did not void", () => {
    const answer = (codes: string[]) => ({
      VoidShipmentResponse: {
        SummaryResult: { Status: { Code: codes.every((c) => c === "1") ? "1" : "0" } },
        PackageLevelResults: codes.map((Code, i) => ({ TrackingNumber: `1Z${i}`, Status: { Code } })),
      },
    });
    expect(notVoided(answer(["1", "1"]), ["1Z0", "1Z1"])).toEqual([]);
    expect(notVoided(answer(["1", "0"]), ["1Z0", "1Z1"])).toEqual(["1Z1"]);
    expect(notVoided({ VoidShipmentResponse: { SummaryResult: { Status: { Code: "0" } } } }, ["1Z0"])).toEqual(["1Z0"]);
    expect(() => notVoided({}, ["1Z0"])).toThrow(TypeError);
  });
});

describe("Tracking", () => {
  it.each([
    ["M", "003", "pre_transit"],
    ["MV", "007", "pre_transit"],
    ["P", "038", "in_transit"],
    ["I", "005", "in_transit"],
    ["I", "021", "out_for_delivery"],
    ["I", "072", "out_for_delivery"],
    ["X", "017", "available_for_pickup"],
    ["X", "022", "exception"],
    ["X", "013", "exception"],
    ["X", "033", "returned"],
    ["RS", "", "returned"],
    ["D", "011", "delivered"],
    ["D", "026", "delivered"],
    ["I", "999", "in_transit"],
    ["X", "999", "exception"],
  ])("type %s with status code %s is %s", (type, code, status) => {
    expect(trackingStatus(type, code)).toBe(status);
  });

  it("reads an activity's instant from its GMT fields, else its local time and offset", () => {
    expect(activityInstant({ gmtDate: "20261127", gmtTime: "14:05:30" })?.toISOString()).toBe(
      "2026-11-27T14:05:30.000Z",
    );
    expect(activityInstant({ date: "20261127", time: "090530", gmtOffset: "-05:00" })?.toISOString()).toBe(
      "2026-11-27T14:05:30.000Z",
    );
    expect(activityInstant({ date: "bad" })).toBeUndefined();
  });

  it("turns UPS's newest-first activities into events oldest first, with the scheduled delivery date", () => {
    const report = trackingReport(
      {
        trackResponse: {
          shipment: [
            {
              package: [
                {
                  trackingNumber: "1ZX",
                  deliveryDate: [
                    { type: "SDD", date: "20261130" },
                    { type: "RDD", date: "20261201" },
                  ],
                  activity: [
                    {
                      gmtDate: "20261128",
                      gmtTime: "10:00:00",
                      location: {
                        address: {
                          city: "SALT LAKE CITY",
                          stateProvince: "UT",
                          postalCode: "84111",
                          countryCode: "US",
                        },
                      },
                      status: { type: "D", statusCode: "011", description: "DELIVERED" },
                    },
                    {
                      gmtDate: "20261127",
                      gmtTime: "08:00:00",
                      status: { type: "M", statusCode: "003", description: "Label created" },
                    },
                  ],
                },
              ],
            },
          ],
        },
      },
      "1ZX",
    );
    expect(report.estimatedDeliveryDate).toBe("2026-12-01");
    expect(report.events).toEqual([
      expect.objectContaining({ sequence: 1, code: "M", secondaryCode: "003", status: "pre_transit", city: null }),
      expect.objectContaining({
        sequence: 2,
        code: "D",
        secondaryCode: "011",
        description: "DELIVERED",
        status: "delivered",
        city: "SALT LAKE CITY",
        state: "UT",
        postalCode: "84111",
        country: "US",
      }),
    ]);
    expect(() => trackingReport({}, "1ZX")).toThrow(TypeError);
  });
});

describe("Address Validation (XAV)", () => {
  it("sends the address in UPS's key format, ZIP+4 in its two parts", () => {
    expect(xavRequest(TO).XAVRequest.AddressKeyFormat).toEqual({
      ConsigneeName: "Bo Chen",
      AddressLine: ["400 S State St"],
      PoliticalDivision2: "Salt Lake City",
      PoliticalDivision1: "UT",
      PostcodePrimaryLow: "84111",
      PostcodeExtendedLow: "2345",
      CountryCode: "US",
    });
  });

  it("is valid with UPS's candidate and classification when UPS found a match", () => {
    const verdict = addressVerdict(
      {
        XAVResponse: {
          Response: { ResponseStatus: { Code: "1" } },
          ValidAddressIndicator: "",
          Candidate: [
            {
              AddressClassification: { Code: "2" },
              AddressKeyFormat: {
                AddressLine: ["400 S STATE ST"],
                PoliticalDivision2: "SALT LAKE CITY",
                PoliticalDivision1: "UT",
                PostcodePrimaryLow: "84111",
                PostcodeExtendedLow: "2345",
                CountryCode: "US",
              },
            },
          ],
        },
      },
      TO,
    );
    expect(verdict).toMatchObject({
      valid: true,
      reasons: [],
      residential: true,
      address: { address1: "400 S STATE ST", city: "SALT LAKE CITY", postal_code: "84111-2345", first_name: "Bo" },
    });
  });

  it("is invalid, with the reason, when UPS found none or several", () => {
    const none = addressVerdict({ XAVResponse: { Response: {}, NoCandidatesIndicator: "" } }, TO);
    expect(none).toMatchObject({ valid: false, residential: null, address: TO });
    expect(none.reasons[0]).toMatch(/no address/);
    const several = addressVerdict(
      {
        XAVResponse: {
          Response: {},
          AmbiguousAddressIndicator: "",
          Candidate: [
            { AddressClassification: { Code: "1" }, AddressKeyFormat: { CountryCode: "US", AddressLine: ["A"] } },
            { AddressKeyFormat: { CountryCode: "US", AddressLine: ["B"] } },
          ],
        },
      },
      TO,
    );
    expect(several).toMatchObject({ valid: false, residential: false, address: { address1: "A" } });
    expect(several.reasons[0]).toMatch(/2 addresses/);
  });
});

describe("UPS's commercial invoice for a shipment abroad", () => {
  const item = T_SHIRT_ITEM;
  const SOLD_TO = withAttention(upsParty(TO));
  const INVOICE = { number: "shipment-7", date: "2026-11-27" };

  it("declares each item per unit in dollars, with its origin and commodity code, and the goods' total", () => {
    const invoice = commercialInvoice(
      [item, { ...item, description: "Mug", quantity: 1, valueCents: 999, hsTariffCode: null, countryOfOrigin: null }],
      SOLD_TO,
      INVOICE,
      "US",
    );
    if ("refusal" in invoice) throw new Error(invoice.refusal);
    expect(invoice.invoiceLineTotal).toEqual({ CurrencyCode: "USD", MonetaryValue: "34.99" });
    expect(invoice.forms).toMatchObject({
      FormType: ["01"],
      InvoiceNumber: "shipment-7",
      InvoiceDate: "20261127",
      ReasonForExport: "SALE",
      CurrencyCode: "USD",
    });
    expect(invoice.forms.Contacts?.SoldTo?.Name).toBe("Bo Chen");
    expect(invoice.forms.Product).toEqual([
      {
        Description: ["Cotton T-shirt"],
        Unit: { Number: "2", UnitOfMeasurement: { Code: "PCS" }, Value: "12.50" },
        CommodityCode: "610910",
        OriginCountryCode: "PE",
      },
      {
        Description: ["Mug"],
        Unit: { Number: "1", UnitOfMeasurement: { Code: "PCS" }, Value: "9.99" },
        OriginCountryCode: "US",
      },
    ]);
  });

  it("gives the reason for export from the items' content type", () => {
    const gift = commercialInvoice([{ ...item, contentType: "gift" }], SOLD_TO, INVOICE, "US");
    expect("forms" in gift && gift.forms.ReasonForExport).toBe("GIFT");
  });

  it("refuses in words a shipment abroad without items, or with an item it cannot declare", () => {
    expect(commercialInvoice([], SOLD_TO, INVOICE, "US")).toEqual({
      refusal: expect.stringMatching(/items/),
    });
    expect(commercialInvoice([{ ...item, valueCents: null }], SOLD_TO, INVOICE, "US")).toEqual({
      refusal: expect.stringMatching(/Item 1 needs a description and a value/),
    });
  });
});
