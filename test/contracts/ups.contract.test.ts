import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CarrierAddress, PickupRequest, PurchaseRequest, RateRequest } from "../../src/carriers/carrier.js";
import { CarrierError } from "../../src/carriers/carrier.js";
import type { RatedParcel } from "../../src/carriers/catalogue.js";
import type { RealCarrier } from "../../src/carriers/real-carrier.js";
import { findService } from "../../src/carriers/registry.js";
import { upsApi } from "../../src/carriers/ups/api/index.js";
import { UPS_PORTER_LABEL_FORMATS } from "../../src/carriers/ups/api/ups-shipping.js";
import { ManualClock } from "../../src/clock.js";
import { ABROAD_RECIPIENTS, declaredItem, LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";
import { standInContext } from "../stand-ins/stand-in-server.js";
import { UPS_SPEC_FILES } from "../stand-ins/ups/ups-stand-in.js";
import { carrierSpecsAvailable, publishedContract, type SentRequest } from "./published-specs.js";
import { type SpecAnswer, SpecServer } from "./spec-server.js";
import { upsProseViolations, upsSpecExcused } from "./ups-rules.js";

/**
 * The UPS adapter against UPS's own published specs (OAuth client credentials, Rating, Shipping,
 * Tracking, Address Validation, Pickup): every request it sends in the scenarios below is checked
 * against its operation, and against the rules the Shipping spec states only in prose. UPS's specs
 * give example answers for Pickup Creation alone; every other answer is built from the response
 * schema (and checked against it by the server) with what the adapter reads.
 */
const APP = { client_id: "contract-app", client_secret: "contract-secret", shipper_number: "A1B2C3" };
const GROUND = findService(666)!;
const SECOND_DAY = findService(675)!;
const NEXT_DAY = findService(672)!;
const EARLY = findService(674)!;
const EXPRESS = findService(669)!;
const SAVER = findService(668)!;
const STANDARD = findService(667)!;
const DOMESTIC_SERVICES = [GROUND, SECOND_DAY, NEXT_DAY];
const INTERNATIONAL_SERVICES = [EXPRESS, SAVER];

const BOX: RatedParcel = { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" };
const SHIPMENT_ID = "1ZA1B2C30391234567";
const SECOND_PACKAGE = "1ZA1B2C30391234578";

const COMMERCIAL: CarrierAddress = { ...SALT_LAKE_RESIDENCE, company: "Zion Supply Co" };
const NO_PHONE: CarrierAddress = { ...SALT_LAKE_RESIDENCE, phone: null };
/** Businesses and homes abroad, with and without an email. */
const ABROAD: Record<string, CarrierAddress> = {
  ...ABROAD_RECIPIENTS,
  GB: { ...ABROAD_RECIPIENTS.GB, company: "Tea Rooms Ltd", last_name: "Lee" },
  DE: { ...ABROAD_RECIPIENTS.DE, company: "Kaffee GmbH" },
  AU: { ...ABROAD_RECIPIENTS.AU, last_name: "Ng", email: "kim@example.com" },
};

const SUCCESS = { ResponseStatus: { Code: "1", Description: "Success" } };
const money = (value: string) => ({ CurrencyCode: "USD", MonetaryValue: value });
const pounds = (weight: string) => ({ UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: weight });
/** A one-pixel GIF: what UPS answers for a GIF label, in base64. */
const GIF = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";
const LABEL_BYTES: Record<string, string> = {
  GIF,
  ZPL: Buffer.from(`^XA^FO50,50^FD${SHIPMENT_ID}^FS^XZ`).toString("base64"),
  EPL: Buffer.from(`N\nA50,50,0,3,1,1,N,"${SHIPMENT_ID}"\nP1\n`).toString("base64"),
};

const pathOf = (request: SentRequest) => new URL(request.url, "http://spec-server").pathname;
const bodyOf = (request: SentRequest) => (request.body ? JSON.parse(request.body) : {}) as Record<string, unknown>;

/** The rated shipment of one service code, as Rating's `RatedShipment` schema has it. */
function ratedShipment(code: string, packages: number, timeInTransit: string | undefined) {
  return {
    Service: { Code: code, Description: "UPS" },
    Zone: "005",
    BillingWeight: pounds(String(2 * packages)),
    TransportationCharges: money("17.71"),
    ItemizedCharges: [{ Code: "270", Description: "RESIDENTIAL ADDRESS", ...money("5.75") }],
    ServiceOptionsCharges: money("0.00"),
    TotalCharges: money("23.46"),
    RatedPackage: Array.from({ length: packages }, () => ({
      TransportationCharges: money("8.85"),
      ServiceOptionsCharges: money("0.00"),
      TotalCharges: money("8.85"),
      Weight: "2.0",
      BillingWeight: pounds("2"),
      ItemizedCharges: [{ Code: "375", Description: "FUEL SURCHARGE", ...money("1.56") }],
    })),
    ...(timeInTransit
      ? {
          TimeInTransit: {
            PickupDate: timeInTransit,
            PackageBillType: "03",
            ServiceSummary: {
              Service: { Description: "UPS" },
              EstimatedArrival: {
                Arrival: { Date: "20261201", Time: "230000" },
                BusinessDaysInTransit: "3",
                Pickup: { Date: timeInTransit, Time: "170000" },
                DayOfWeek: "TUE",
              },
            },
          },
        }
      : {}),
  };
}

/**
 * UPS's answers: the spec's example where it has one (Pickup Creation), else built from the
 * response schema. Each is checked against the spec by the server.
 */
function answer(request: SentRequest, example: SpecAnswer | undefined): SpecAnswer | undefined {
  const path = pathOf(request);
  const route = `${request.method} ${path}`;
  if (route === "POST /security/v1/oauth/token") {
    return {
      status: 200,
      body: {
        token_type: "Bearer",
        issued_at: "1764169200000",
        client_id: APP.client_id,
        access_token: "contract-token",
        scope: "",
        expires_in: "14399",
        refresh_count: "0",
        status: "approved",
      },
    };
  }
  if (/^POST \/api\/rating\//.test(route)) {
    const shipment = (bodyOf(request).RateRequest as { Shipment: Record<string, unknown> }).Shipment;
    const packages = (shipment.Package as unknown[]).length;
    const pickup = (shipment.DeliveryTimeInformation as { Pickup?: { Date?: string } } | undefined)?.Pickup?.Date;
    const abroad =
      (shipment.ShipTo as { Address: { CountryCode: string } }).Address.CountryCode !==
      (shipment.Shipper as { Address: { CountryCode: string } }).Address.CountryCode;
    const codes = abroad ? ["07", "65", "11"] : ["03", "02", "01", "14"];
    return {
      status: 200,
      body: {
        RateResponse: {
          Response: {
            ...SUCCESS,
            Alert: [{ Code: "110971", Description: "Your invoice may vary from the displayed reference rates" }],
          },
          RatedShipment: codes.map((code) => ratedShipment(code, packages, pickup)),
        },
      },
    };
  }
  if (/^POST \/api\/shipments\/[^/]+\/ship$/.test(route)) {
    const sent = bodyOf(request).ShipmentRequest as {
      Shipment: { Package: unknown[]; ShipmentServiceOptions?: unknown };
      LabelSpecification: { LabelImageFormat: { Code: string } };
    };
    const format = sent.LabelSpecification.LabelImageFormat.Code;
    const numbers = sent.Shipment.Package.map((_, i) => (i === 0 ? SHIPMENT_ID : SECOND_PACKAGE));
    return {
      status: 200,
      body: {
        ShipmentResponse: {
          Response: SUCCESS,
          ShipmentResults: {
            ShipmentCharges: {
              TransportationCharges: money("17.71"),
              ServiceOptionsCharges: money("0.00"),
              TotalCharges: money("17.71"),
            },
            BillingWeight: pounds("00000002"),
            ShipmentIdentificationNumber: SHIPMENT_ID,
            ...(sent.Shipment.ShipmentServiceOptions
              ? {
                  Form: {
                    Code: "01",
                    Description: "Invoice",
                    Image: {
                      ImageFormat: { Code: "PDF", Description: "PDF" },
                      GraphicImage: Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64"),
                    },
                  },
                }
              : {}),
            PackageResults: numbers.map((number) => ({
              TrackingNumber: number,
              ServiceOptionsCharges: money("0.00"),
              ShippingLabel: {
                ImageFormat: { Code: format, Description: format },
                GraphicImage: LABEL_BYTES[format] ?? GIF,
              },
              ItemizedCharges: [{ Code: "375", Description: "FUEL SURCHARGE", ...money("1.56") }],
            })),
          },
        },
      },
    };
  }
  if (/^DELETE \/api\/shipments\/[^/]+\/void\/cancel\//.test(route)) {
    const asked = new URL(request.url, "http://spec-server").searchParams.get("trackingnumber");
    const numbers = asked ? (JSON.parse(asked) as string[]) : [decodeURIComponent(path.split("/").pop()!)];
    return {
      status: 200,
      body: {
        VoidShipmentResponse: {
          Response: SUCCESS,
          SummaryResult: { Status: { Code: "1", Description: "Voided" } },
          PackageLevelResults: numbers.map((number) => ({
            TrackingNumber: number,
            Status: { Code: "1", Description: "Voided" },
          })),
        },
      },
    };
  }
  if (/^GET \/api\/track\/v1\/details\//.test(route)) {
    const number = decodeURIComponent(path.split("/").pop()!);
    const activity = (type: string, statusCode: string, description: string, date: string, time: string) => ({
      location: { address: { city: "SALT LAKE CITY", stateProvince: "UT", countryCode: "US", country: "US" } },
      status: { type, description, code: type, statusCode },
      date,
      time,
      gmtDate: date,
      gmtOffset: "-07:00",
      gmtTime: `${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}`,
    });
    return {
      status: 200,
      body: {
        trackResponse: {
          shipment: [
            {
              inquiryNumber: number,
              package: [
                {
                  trackingNumber: number,
                  deliveryDate: [{ type: "SDD", date: "20261130" }],
                  activity: [
                    activity("D", "011", "DELIVERED", "20261130", "143000"),
                    activity("M", "003", "Shipper created a label", "20261126", "150000"),
                  ],
                  currentStatus: { code: "011", description: "DELIVERED" },
                },
              ],
            },
          ],
        },
      },
    };
  }
  if (/^POST \/api\/addressvalidation\//.test(route)) {
    const key = (bodyOf(request).XAVRequest as { AddressKeyFormat: Record<string, unknown> }).AddressKeyFormat;
    const classification = { Code: "2", Description: "Residential" };
    return {
      status: 200,
      body: {
        XAVResponse: {
          Response: SUCCESS,
          ValidAddressIndicator: "",
          AddressClassification: classification,
          Candidate: [
            {
              AddressClassification: classification,
              AddressKeyFormat: {
                AddressLine: ["220 S STATE ST"],
                PoliticalDivision2: "SALT LAKE CITY",
                PoliticalDivision1: "UT",
                PostcodePrimaryLow: "84111",
                PostcodeExtendedLow: "1234",
                CountryCode: key.CountryCode,
              },
            },
          ],
        },
      },
    };
  }
  if (/^DELETE \/api\/shipments\/[^/]+\/pickup\//.test(route)) {
    return { status: 200, body: { PickupCancelResponse: { Response: SUCCESS, PickupType: "01" } } };
  }
  return example;
}

describe.runIf(carrierSpecsAvailable())("the UPS adapter against UPS's published specs", () => {
  let server: SpecServer;
  let real: RealCarrier;
  const clock = new ManualClock("2026-11-26T15:00:00Z");

  beforeAll(async () => {
    server = new SpecServer(await publishedContract(UPS_SPEC_FILES), answer, [], upsSpecExcused);
    real = upsApi.open(upsApi.credentials(APP)!, standInContext(await server.start(), clock, 20_000));
  }, 60_000);
  afterAll(() => server?.stop());

  const rateRequest = (to: CarrierAddress, overrides: Partial<RateRequest> = {}): RateRequest => ({
    from: LOS_ANGELES_WAREHOUSE,
    to,
    parcels: [BOX],
    residential: !to.company,
    services: to.country === "US" ? DOMESTIC_SERVICES : [...INTERNATIONAL_SERVICES, STANDARD],
    ...overrides,
  });
  const purchaseRequest = (
    to: CarrierAddress,
    service = GROUND,
    overrides: Partial<PurchaseRequest> = {},
  ): PurchaseRequest => ({
    ...rateRequest(to),
    services: [service],
    service,
    purchaseKey: "contract-1001",
    parcelSerials: [1],
    shipDate: "2026-11-27",
    label: { format: "pdf", size: "4x6" },
    contents: [
      {
        reference: "Order 1001",
        items: to.country === "US" ? [] : [declaredItem("Wool scarf", "PE"), declaredItem("Greeting card", null)],
      },
    ],
    ...overrides,
  });

  const domestic = [
    { name: "residential", to: SALT_LAKE_RESIDENCE },
    { name: "commercial", to: COMMERCIAL },
    { name: "recipient without a phone", to: NO_PHONE },
  ];

  it.each(domestic)("rates with and without a ship date, buys and voids at home: $name", async ({ to }) => {
    const rates = await real.adapter.rate(rateRequest(to));
    expect(rates.every((rate) => rate.quote)).toBe(true);
    await real.adapter.rate(rateRequest(to, { shipDate: "2026-11-27" }));
    const bought = await real.adapter.purchase(purchaseRequest(to));
    expect(bought.parcels.map((p) => p.trackingNumber)).toEqual([SHIPMENT_ID]);
    await real.adapter.voidLabels(bought.parcels.map((p) => p.trackingNumber));
  });

  it("buys Next Day Air Early for a recipient with a phone, and refuses it without one before asking UPS", async () => {
    await real.adapter.purchase(purchaseRequest(SALT_LAKE_RESIDENCE, EARLY));
    const before = server.requests.length;
    await expect(real.adapter.purchase(purchaseRequest(NO_PHONE, EARLY))).rejects.toBeInstanceOf(CarrierError);
    expect(server.requests.length).toBe(before);
  });

  it.each(UPS_PORTER_LABEL_FORMATS.flatMap((format) => ["4x6", "4x8"].map((size) => ({ format, size }))))(
    "buys a $format label on $size stock, two parcels in one shipment, and voids both",
    async ({ format, size }) => {
      const bought = await real.adapter.purchase(
        purchaseRequest(SALT_LAKE_RESIDENCE, NEXT_DAY, {
          label: { format, size: size as "4x6" },
          parcels: [BOX, { ...BOX, weightOz: 56 }],
          parcelSerials: [1, 2],
          contents: ["Order 1001", null].map((reference) => ({ reference, items: [] })),
        }),
      );
      expect(bought.parcels.map((p) => p.trackingNumber)).toEqual([SHIPMENT_ID, SECOND_PACKAGE]);
      await real.adapter.voidLabels(bought.parcels.map((p) => p.trackingNumber));
    },
  );

  it.each(Object.entries(ABROAD))("rates and buys abroad with customs items, two parcels: %s", async (_country, to) => {
    await real.adapter.rate(rateRequest(to, { shipDate: "2026-11-27", parcels: [BOX, BOX] }));
    const bought = await real.adapter.purchase(
      purchaseRequest(to, EXPRESS, { parcels: [BOX, BOX], parcelSerials: [1, 2] }),
    );
    expect(bought.parcels).toHaveLength(2);
    expect(bought.customsDocument).toBeDefined();
  });

  it("buys UPS Standard to Canada, where the shipment carries the goods' total", async () => {
    await real.adapter.purchase(purchaseRequest(ABROAD.CA!, STANDARD, { label: { format: "zpl", size: "4x6" } }));
  });

  it.each(["print", "scan_based"] as const)(
    "buys a %s return label: Print Return Label, the merchant as shipper and recipient, the customer as ShipFrom",
    async (type) => {
      const bought = await real.adapter.purchase(
        purchaseRequest(LOS_ANGELES_WAREHOUSE, GROUND, { from: SALT_LAKE_RESIDENCE, returnLabel: { type } }),
      );
      expect(bought.parcels.map((p) => p.trackingNumber)).toEqual([SHIPMENT_ID]);
      const sent = JSON.parse(server.requests.filter((r) => pathOf(r).endsWith("/ship")).at(-1)!.body);
      const shipment = sent.ShipmentRequest.Shipment;
      expect(shipment.ReturnService).toEqual({ Code: "9", Description: "UPS Print Return Label" });
      expect(shipment.Shipper.Address.PostalCode).toBe(LOS_ANGELES_WAREHOUSE.postal_code);
      expect(shipment.ShipTo.Address.PostalCode).toBe(LOS_ANGELES_WAREHOUSE.postal_code);
      expect(shipment.ShipFrom.Address.PostalCode).toBe(SALT_LAKE_RESIDENCE.postal_code);
      expect(shipment.Package[0].Description).toBeTruthy();
    },
  );

  it("buys a return label from abroad with two parcels, and refuses two parcels from home before asking UPS", async () => {
    const bought = await real.adapter.purchase(
      purchaseRequest(LOS_ANGELES_WAREHOUSE, EXPRESS, {
        from: ABROAD.GB!,
        parcels: [BOX, BOX],
        parcelSerials: [1, 2],
        contents: [
          { reference: "Return 1001", items: [declaredItem("Wool scarf", "PE")] },
          { reference: null, items: [] },
        ],
        returnLabel: { type: "print" },
      }),
    );
    expect(bought.parcels).toHaveLength(2);
    const sent = JSON.parse(server.requests.filter((r) => pathOf(r).endsWith("/ship")).at(-1)!.body);
    expect(sent.ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms.ReasonForExport).toBe("RETURN");
    const before = server.requests.length;
    await expect(
      real.adapter.purchase(
        purchaseRequest(LOS_ANGELES_WAREHOUSE, GROUND, {
          from: SALT_LAKE_RESIDENCE,
          parcels: [BOX, BOX],
          parcelSerials: [1, 2],
          returnLabel: { type: "print" },
        }),
      ),
    ).rejects.toThrow(/one parcel/);
    expect(server.requests.length).toBe(before);
  });

  it("tracks a package and checks an address", async () => {
    const report = await real.adapter.track({
      trackingNumber: SHIPMENT_ID,
      service: GROUND,
      from: LOS_ANGELES_WAREHOUSE,
      to: SALT_LAKE_RESIDENCE,
      labelCreatedAt: clock.now(),
      shipDate: "2026-11-27",
      promisedDeliveryDate: "2026-12-01",
      asOf: clock.now(),
    });
    expect(report.events.map((e) => e.status)).toEqual(["pre_transit", "delivered"]);
    const verdict = await real.adapter.addresses!.validate(SALT_LAKE_RESIDENCE);
    expect(verdict.valid).toBe(true);
    await real.adapter.addresses!.validate(COMMERCIAL);
  });

  const pickup = (overrides: Partial<PickupRequest> = {}): PickupRequest => ({
    location: LOS_ANGELES_WAREHOUSE,
    pickupDate: "2026-11-27",
    packageCount: 3,
    weightOz: 104,
    serial: 1,
    locationDetail: "Dock 4",
    specialInstructions: "Ring the side bell",
    shipments: [
      { service: GROUND, trackingNumbers: [SHIPMENT_ID], toCountry: "US", parcels: [BOX, BOX] },
      { service: EXPRESS, trackingNumbers: [SECOND_PACKAGE], toCountry: "CA", parcels: [BOX] },
    ],
    now: clock.now(),
    ...overrides,
  });

  it("books an On-Call pickup at a business and at a home, and cancels it", async () => {
    const booked = await real.adapter.pickups!.schedule(pickup());
    expect(booked.confirmationNumber).toBe("stringstrin");
    await real.adapter.pickups!.cancel({ ...booked, pickupDate: "2026-11-27" });
    await real.adapter.pickups!.schedule(
      pickup({ location: SALT_LAKE_RESIDENCE, locationDetail: null, specialInstructions: null, serial: 2 }),
    );
  });

  it("sent nothing UPS's specs refuse, in schema or prose, and called every operation it uses", () => {
    expect(server.violations.map((v) => `${v.request} ${v.operation} ${v.where}: ${v.message}`)).toEqual([]);
    const prose = server.requests.flatMap(upsProseViolations);
    expect(prose.map((v) => `${v.request} ${v.where}: ${v.message}`)).toEqual([]);
    // The prose rules had something to bite on: shipments abroad with invoices, and to Canada.
    expect(server.requests.some((r) => /"InternationalForms"/.test(r.body))).toBe(true);
    const called = new Set(server.requests.map((r) => server.contract.operationOf(r)));
    expect([...called].sort()).toEqual(
      [
        "POST /security/v1/oauth/token",
        "POST /api/rating/{version}/{requestoption}",
        "POST /api/shipments/{version}/ship",
        "DELETE /api/shipments/{version}/void/cancel/{shipmentidentificationnumber}",
        "GET /api/track/v1/details/{inquiryNumber}",
        "POST /api/addressvalidation/{version}/{requestoption}",
        "POST /api/pickupcreation/{version}/pickup",
        "DELETE /api/shipments/{version}/pickup/{CancelBy}",
      ].sort(),
    );
    expect(server.requests.some((r) => pathOf(r).endsWith("/Shoptimeintransit"))).toBe(true);
    expect(server.requests.some((r) => pathOf(r).endsWith("/Shop"))).toBe(true);
  });
});
