import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CarrierAdapter, CarrierAddress, PurchaseRequest, RateRequest } from "../../src/carriers/carrier.js";
import { CarrierError } from "../../src/carriers/carrier.js";
import type { RatedParcel } from "../../src/carriers/catalogue.js";
import { dhlExpressApi } from "../../src/carriers/dhl-express/api/index.js";
import type { RealCarrier } from "../../src/carriers/real-carrier.js";
import { findService } from "../../src/carriers/registry.js";
import { ManualClock } from "../../src/clock.js";
import { LOS_ANGELES_WAREHOUSE, T_SHIRT_ITEM, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { operationOf, proseRuleProblems } from "../stand-ins/dhl-express/dhl-express-stand-in.js";
import { standInContext } from "../stand-ins/stand-in-server.js";
import { carrierSpecsAvailable, publishedContract, type SentRequest } from "./published-specs.js";
import { type SpecAnswer, SpecServer } from "./spec-server.js";

const SPEC = "dhl-express/dpdhl-express-api-3.1.1_swagger.yaml";
const ACCOUNT = { apiKey: "contract-key", apiSecret: "contract-secret", accountNumber: "123456789" };
const WAYBILL = "1103733901";

const LONDON_BUSINESS: CarrierAddress = {
  company: "Tea Rooms Ltd",
  first_name: "Ann",
  last_name: "Lee",
  address1: "10 Downing St",
  city: "London",
  state: "LND",
  country: "GB",
  postal_code: "SW1A 2AA",
  phone: "+442071234567",
};
const MEXICO_CITY_RESIDENCE: CarrierAddress = {
  first_name: "Luis",
  address1: "Av. Reforma 222",
  city: "Ciudad de Mexico",
  state: "CMX",
  country: "MX",
  postal_code: "06600",
  phone: "+525512345678",
};
const BERLIN_BUSINESS: CarrierAddress = {
  company: "Kaffee GmbH",
  address1: "Unter den Linden 1",
  city: "Berlin",
  state: "BE",
  country: "DE",
  postal_code: "10117",
  phone: "+49301234567",
};
const SYDNEY_RESIDENCE: CarrierAddress = {
  first_name: "Kim",
  last_name: "Ng",
  address1: "1 Macquarie St",
  city: "Sydney",
  state: "NSW",
  country: "AU",
  postal_code: "2000",
  phone: "+61212345678",
  email: "kim@example.com",
};

const box = (weightOz = 24): RatedParcel => ({
  lengthIn: 10,
  widthIn: 8,
  heightIn: 4,
  weightOz,
  packageType: "parcel",
});
const envelope: RatedParcel = { lengthIn: 12, widthIn: 9, heightIn: 1, weightOz: 4, packageType: "envelope" };
const goods = (reference: string | null): PurchaseRequest["contents"][number] => ({ reference, items: [T_SHIRT_ITEM] });

interface Scenario {
  name: string;
  to: CarrierAddress;
  parcels: RatedParcel[];
  format: PurchaseRequest["label"]["format"];
}

/** Every destination with customs items, residential and business, one and several parcels, every label format. */
const SCENARIOS: Scenario[] = [
  { name: "Canada, residential, ZPL", to: TORONTO_RESIDENCE, parcels: [box()], format: "zpl" },
  { name: "United Kingdom, business, PDF", to: LONDON_BUSINESS, parcels: [box()], format: "pdf" },
  { name: "Mexico, residential, EPL", to: MEXICO_CITY_RESIDENCE, parcels: [box()], format: "epl2" },
  {
    name: "Germany, business, three parcels, PDF",
    to: BERLIN_BUSINESS,
    parcels: [box(), box(40), box(8)],
    format: "pdf",
  },
  {
    name: "Australia, residential with email, two parcels, ZPL",
    to: SYDNEY_RESIDENCE,
    parcels: [box(), box()],
    format: "zpl",
  },
  { name: "United Kingdom, documents in an envelope, PDF", to: LONDON_BUSINESS, parcels: [envelope], format: "pdf" },
];

/** DHL's own example answers, with what the adapter matches on (the product asked, USD prices) adapted. */
function answer(request: SentRequest, example: SpecAnswer | undefined): SpecAnswer | undefined {
  const path = new URL(request.url, "http://spec").pathname;
  if (request.method === "GET" && path.endsWith("/address-validate")) {
    const query = new URL(request.url, "http://spec").searchParams;
    return {
      status: 200,
      body: {
        address: [
          {
            countryCode: query.get("countryCode") ?? "US",
            postalCode: query.get("postalCode") ?? "",
            cityName: (query.get("cityName") ?? "").toUpperCase(),
            serviceArea: { code: "LAX", description: "LOS ANGELES-US" },
          },
        ],
      },
    };
  }
  if (request.method === "DELETE") return { status: 200, body: {} };
  if (!example) return undefined;
  // The spec's rate example is in pounds sterling; Porter charges in US dollars.
  const body = JSON.parse(JSON.stringify(example.body).replaceAll('"GBP"', '"USD"').replaceAll('"EUR"', '"USD"'));
  if (request.method === "POST" && path.endsWith("/rates")) {
    const sent = JSON.parse(request.body) as { productCode?: string; isCustomsDeclarable: boolean };
    // The example offers Express Worldwide for goods (P); papers are its documents product (D).
    const code = sent.productCode ?? (sent.isCustomsDeclarable ? "P" : "D");
    body.products = [{ ...body.products[0], productCode: code, localProductCode: code }];
  }
  if (request.method === "GET" && path.endsWith("/tracking")) {
    // The spec's tracking example breaks its own schema (events with `remarks`, pieces without
    // dimensions): those parts go, so the answer is one DHL's schema allows.
    for (const shipment of body.shipments) {
      delete shipment.pieces;
      for (const event of shipment.events) delete event.remarks;
    }
  }
  return { status: example.status, body };
}

describe.runIf(carrierSpecsAvailable())("DHL Express adapter against MyDHL API's published spec", () => {
  let server: SpecServer;
  let real: RealCarrier;
  let dhl: CarrierAdapter;
  const clock = new ManualClock("2026-11-26T15:00:00Z");
  const service = findService(300)!;

  beforeAll(async () => {
    server = new SpecServer(await publishedContract([SPEC]), answer);
    const origin = await server.start();
    real = dhlExpressApi.open(ACCOUNT, standInContext(`${origin}/mydhlapi/test`, clock));
    dhl = real.adapter;
  });
  afterAll(() => server.stop());

  const rateRequest = (to: CarrierAddress, parcels: RatedParcel[]): RateRequest => ({
    from: LOS_ANGELES_WAREHOUSE,
    to,
    parcels,
    residential: !to.company,
    services: [300, 294, 295].map((id) => findService(id)!),
  });
  const purchaseRequest = (scenario: Scenario, key: string): PurchaseRequest => ({
    ...rateRequest(scenario.to, scenario.parcels),
    service: findService(300)!,
    purchaseKey: key,
    parcelSerials: scenario.parcels.map((_, i) => i + 1),
    shipDate: "2026-11-27",
    label: { format: scenario.format, size: "4x6" },
    contents: scenario.parcels.map((parcel, i) =>
      parcel.packageType === "envelope" ? { reference: null, items: [] } : goods(i === 0 ? "Order 1001" : null),
    ),
  });

  it("verifies credentials with a conforming address question", async () => {
    await real.verify();
  });

  it.each(SCENARIOS)("rates and buys: $name", async (scenario) => {
    const rates = await dhl.rate(rateRequest(scenario.to, scenario.parcels));
    expect(rates.some((rate) => rate.quote)).toBe(true);
    const purchase = await dhl.purchase(purchaseRequest(scenario, `contract-${scenario.name}`));
    expect(purchase.parcels).toHaveLength(scenario.parcels.length);
    expect(purchase.parcels.every((parcel) => parcel.trackingNumber === WAYBILL)).toBe(true);
  });

  it("buys a return label from abroad: returned goods on DHL's returns invoice, customer to merchant", async () => {
    const scenario: Scenario = { name: "return", to: LOS_ANGELES_WAREHOUSE, parcels: [box()], format: "pdf" };
    const purchase = await dhl.purchase({
      ...purchaseRequest(scenario, "contract-return"),
      from: LONDON_BUSINESS,
      returnLabel: { type: "print" },
    });
    expect(purchase.parcels).toHaveLength(1);
    const sent = JSON.parse(server.requests.filter((r) => r.url.endsWith("/shipments")).at(-1)!.body);
    expect(sent.customerDetails.shipperDetails.postalAddress.postalCode).toBe(LONDON_BUSINESS.postal_code);
    expect(sent.customerDetails.receiverDetails.postalAddress.postalCode).toBe(LOS_ANGELES_WAREHOUSE.postal_code);
    expect(sent.content.exportDeclaration.exportReasonType).toBe("return");
    expect(sent.outputImageProperties.imageOptions).toContainEqual(
      expect.objectContaining({ typeCode: "invoice", invoiceType: "returns", templateName: "RET_COM_INVOICE_A4_01" }),
    );
  });

  it("refuses a scan-based return label without asking DHL: MyDHL API has no pay-on-use return", async () => {
    const before = server.requests.length;
    const scenario: Scenario = { name: "return", to: LOS_ANGELES_WAREHOUSE, parcels: [box()], format: "pdf" };
    await expect(
      dhl.purchase({
        ...purchaseRequest(scenario, "contract-scan-return"),
        from: LONDON_BUSINESS,
        returnLabel: { type: "scan_based" },
      }),
    ).rejects.toThrow(/pay-on-use/);
    expect(server.requests.length).toBe(before);
  });

  it("refuses a recipient without a phone without sending anything DHL would refuse", async () => {
    const before = server.requests.length;
    const { phone: _phone, ...noPhone } = LONDON_BUSINESS;
    const scenario: Scenario = { name: "no phone", to: noPhone, parcels: [box()], format: "pdf" };
    await expect(dhl.purchase(purchaseRequest(scenario, "contract-no-phone"))).rejects.toBeInstanceOf(CarrierError);
    expect(server.requests.length).toBe(before);
  });

  it("refuses a shipment within the United States without asking DHL (DHL Express carries between countries)", async () => {
    const before = server.requests.length;
    const domestic = { ...LOS_ANGELES_WAREHOUSE, postal_code: "10001", city: "New York", state: "NY" };
    const rates = await dhl.rate(rateRequest(domestic, [box()]));
    expect(rates.every((rate) => rate.refusal)).toBe(true);
    expect(server.requests.length).toBe(before);
  });

  it("tracks a waybill", async () => {
    const report = await dhl.track({
      trackingNumber: WAYBILL,
      service,
      from: LOS_ANGELES_WAREHOUSE,
      to: TORONTO_RESIDENCE,
      labelCreatedAt: clock.now(),
      shipDate: "2026-11-27",
      promisedDeliveryDate: "2026-11-30",
      asOf: clock.now(),
    });
    expect(report.events.length).toBeGreaterThan(0);
  });

  it("books and cancels a courier pickup", async () => {
    const pickups = dhl.pickups!;
    const booked = await pickups.schedule({
      location: LOS_ANGELES_WAREHOUSE,
      pickupDate: "2026-11-27",
      packageCount: 1,
      weightOz: 24,
      serial: 1,
      locationDetail: "reception",
      specialInstructions: "Ring the bell",
      shipments: [{ service, trackingNumbers: [WAYBILL], toCountry: "CA", parcels: [box()] }],
      now: clock.now(),
    });
    expect(booked.confirmationNumber).toBe("PRG221222000062");
    await pickups.cancel({ ...booked, pickupDate: "2026-11-27" });
  });

  it("voids without a call: MyDHL API has no void", async () => {
    const before = server.requests.length;
    await dhl.voidLabels([WAYBILL]);
    expect(server.requests.length).toBe(before);
  });

  it("sent only conforming requests, and called every operation it uses", () => {
    expect(server.violations).toEqual([]);
    // The rules the spec states only in prose, held beside the schema for every request.
    const checked = server.requests.map((request) => {
      const path = new URL(request.url, "http://spec").pathname.replace(/^\/mydhlapi\/test/, "");
      const operation = operationOf(request.method, path);
      return {
        operation,
        problems: proseRuleProblems(operation, request.body === "" ? undefined : JSON.parse(request.body)),
      };
    });
    expect(checked.filter((c) => c.operation === undefined)).toEqual([]);
    expect(checked.flatMap((c) => c.problems)).toEqual([]);
    const called = new Set(server.requests.map((r) => `${r.method} ${new URL(r.url, "http://spec").pathname}`));
    expect([...called].sort()).toEqual(
      [
        "GET /mydhlapi/test/address-validate",
        "POST /mydhlapi/test/rates",
        "POST /mydhlapi/test/shipments",
        `GET /mydhlapi/test/shipments/${WAYBILL}/tracking`,
        "POST /mydhlapi/test/pickups",
        "DELETE /mydhlapi/test/pickups/PRG221222000062",
      ].sort(),
    );
  });
});
