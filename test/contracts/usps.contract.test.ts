import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CarrierAdapter, CarrierAddress, PurchaseRequest } from "../../src/carriers/carrier.js";
import { findService } from "../../src/carriers/registry.js";
import { uspsApi } from "../../src/carriers/usps/api/index.js";
import { ManualClock } from "../../src/clock.js";
import type { LabelFormat } from "../../src/labels/label.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";
import { carrierPdf } from "../stand-ins/carrier-pdf.js";
import { standInContext } from "../stand-ins/stand-in-server.js";
import { carrierSpecsAvailable, publishedContract, type SentRequest } from "./published-specs.js";
import { type SpecAnswer, SpecServer } from "./spec-server.js";
import { USPS_SPEC_FILES, uspsProseViolations } from "./usps-rules.js";

const TOKEN_PATH = "/oauth2/v3/token";

/** Small real files of each kind USPS makes, as its answers carry them (base64). */
const ONE_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const LABEL_FILES: Record<string, string> = {
  PDF: carrierPdf("USPS contract label").toString("base64"),
  PNG: ONE_PIXEL_PNG,
  JPG: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]).toString("base64"),
  GIF: Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64").toString("base64"),
  TIFF: Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 0, 0]).toString("base64"),
  ZPL203DPI: Buffer.from("^XA^FO50,50^FDUSPS^FS^XZ").toString("base64"),
  EPL300DPI: Buffer.from('N\nA50,50,0,3,1,1,N,"USPS"\nP1\n').toString("base64"),
};

const path = (request: SentRequest) => new URL(request.url, "http://spec-server").pathname;
const bodyOf = (request: SentRequest) => (request.body ? JSON.parse(request.body) : {}) as Record<string, unknown>;

/**
 * USPS's answers as its specs document them (their own examples), adapted only where the adapter
 * needs what the example lacks: the label file, and a tracking number of the kind asked for.
 */
function answer(request: SentRequest, example: SpecAnswer | undefined): SpecAnswer | undefined {
  const route = `${request.method} ${path(request)}`;
  if (route === `POST ${TOKEN_PATH}`) {
    return { status: 200, body: { access_token: "contract-token", token_type: "Bearer", expires_in: 28_800 } };
  }
  if (route === "POST /labels/v3/label" || route === "POST /international-labels/v3/international-label") {
    const imageType = (bodyOf(request).imageInfo as { imageType: string }).imageType;
    const metadata = { ...(example?.body as Record<string, unknown>) };
    return { status: example?.status ?? 200, body: { ...metadata, labelImage: LABEL_FILES[imageType] } };
  }
  if (route === "POST /labels/v3/return-label") {
    const imageType = (bodyOf(request).imageInfo as { imageType: string }).imageType;
    const metadata = { ...(example?.body as Record<string, unknown>) };
    return { status: example?.status ?? 200, body: { ...metadata, returnLabelImage: LABEL_FILES[imageType] } };
  }
  return example ?? SCHEMA_VALID_ANSWERS.find(([pattern]) => pattern.test(route))?.[1](request);
}

/** Answers built from the schemas where the spec gives no example; each is checked against the spec. */
const SCHEMA_VALID_ANSWERS: [RegExp, (request: SentRequest) => SpecAnswer][] = [
  [
    /^GET \/tracking\/v3\/tracking\//,
    () => ({
      status: 200,
      body: {
        trackingNumber: "9400100000000000000000",
        trackingEvents: [
          {
            eventType: "Delivered, In/At Mailbox",
            eventTimestamp: "2026-01-17T14:02:00-07:00",
            GMTTimestamp: "2026-01-17T21:02:00Z",
            GMTOffset: "-07:00",
            eventCity: "SALT LAKE CITY",
            eventState: "UT",
            eventZIP: "84111",
            eventCountry: "",
            eventCode: "01",
          },
        ],
      },
    }),
  ],
  [
    /^GET \/addresses\/v3\/address$/,
    () => ({
      status: 200,
      body: {
        address: {
          streetAddress: "220 S STATE ST",
          city: "SALT LAKE CITY",
          state: "UT",
          ZIPCode: "84111",
          ZIPPlus4: "1234",
        },
        additionalInfo: { DPVConfirmation: "Y", business: "N", vacant: "N", centralDeliveryPoint: "N", DPVCMRA: "N" },
      },
    }),
  ],
  [
    /^GET \/pickup\/v3\/carrier-pickup\/eligibility$/,
    (request) => ({
      status: 200,
      body: {
        firstName: "Pat",
        lastName: "Lee",
        address: Object.fromEntries(new URL(request.url, "http://spec-server").searchParams),
        contact: [{ email: "dock@example.com" }],
      },
    }),
  ],
  [
    /^POST \/pickup\/v3\/carrier-pickup$/,
    (request) => ({ status: 200, body: { confirmationNumber: "WTC123456789", carrierPickupRequest: bodyOf(request) } }),
  ],
  [
    /^GET \/pickup\/v3\/carrier-pickup\//,
    () => ({ status: 200, body: [{ confirmationNumber: "WTC123456789" }], headers: { etag: '"contract-etag"' } }),
  ],
  [/^DELETE \/pickup\/v3\/carrier-pickup\//, () => ({ status: 200, body: {} })],
  [
    /^POST \/scan-forms\/v3\/scan-form$/,
    (request) => ({
      status: 200,
      body: {
        SCANFormMetadata: {
          manifestNumber: "9275090106547400000014",
          trackingNumbers: (bodyOf(request).shipment as { trackingNumbers: string[] }).trackingNumbers,
        },
        SCANFormImage: LABEL_FILES.PDF,
      },
    }),
  ],
];

const US_COMMERCIAL: CarrierAddress = { ...LOS_ANGELES_WAREHOUSE };
const US_RESIDENTIAL: CarrierAddress = { ...SALT_LAKE_RESIDENCE };
const US_NO_PHONE: CarrierAddress = { ...SALT_LAKE_RESIDENCE, phone: null };
const ABROAD: Record<string, CarrierAddress> = {
  CA: {
    ...US_RESIDENTIAL,
    address1: "1 Queen St W",
    city: "Toronto",
    state: "ON",
    postal_code: "M5H 2N2",
    country: "CA",
  },
  GB: {
    ...US_RESIDENTIAL,
    address1: "10 Downing St",
    city: "London",
    state: "",
    postal_code: "SW1A 2AA",
    country: "GB",
  },
  MX: {
    ...US_RESIDENTIAL,
    address1: "Av. Reforma 1",
    city: "Ciudad de Mexico",
    state: "CDMX",
    postal_code: "06500",
    country: "MX",
  },
  DE: {
    ...US_RESIDENTIAL,
    address1: "Unter den Linden 1",
    city: "Berlin",
    state: "",
    postal_code: "10117",
    country: "DE",
  },
  AU: { ...US_RESIDENTIAL, address1: "1 George St", city: "Sydney", state: "NSW", postal_code: "2000", country: "AU" },
};
const PARCEL = { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" };
const CUSTOMS_ITEM = {
  description: "Cotton T-shirt",
  quantity: 2,
  weightOz: 12,
  valueCents: 2500,
  countryOfOrigin: "US",
  hsTariffCode: "6109.10",
  contentType: "merchandise",
  eelPfc: "NOEEI 30.37(a)",
};
// Ground Advantage, Priority Mail, Priority Mail Express; Priority Mail International abroad.
const DOMESTIC_SERVICES = [1172, 684, 685];
const INTERNATIONAL_SERVICE = 691;

/**
 * Every request the real USPS adapter sends, checked against USPS's published specs (Domestic and
 * International Prices and Labels, Payments, Package Tracking, Addresses, Carrier Pickup, SCAN
 * Forms), answered from the specs' own examples.
 */
describe.runIf(carrierSpecsAvailable())("the USPS adapter against USPS's published specs", () => {
  let server: SpecServer;
  let usps: CarrierAdapter;
  const clock = new ManualClock();

  beforeAll(async () => {
    server = new SpecServer(await publishedContract(USPS_SPEC_FILES), answer, [TOKEN_PATH]);
    const credentials = uspsApi.credentials({
      client_id: "contract-app",
      client_secret: "contract-secret",
      crid: "56982563",
      mid: "903476223",
      eps_account: "1000405525",
    });
    if (!credentials) throw new Error("USPS credentials");
    usps = uspsApi.open(credentials, standInContext(await server.start(), clock, 5000)).adapter;
  }, 60_000);
  afterAll(() => server?.stop());

  const purchaseRequest = (to: CarrierAddress, serviceId: number, overrides: Partial<PurchaseRequest> = {}) => {
    const service = findService(serviceId)!;
    const international = to.country !== "US";
    return {
      from: US_COMMERCIAL,
      to,
      parcels: [PARCEL],
      residential: to !== US_COMMERCIAL,
      services: [service],
      service,
      purchaseKey: "contract",
      parcelSerials: [1],
      shipDate: "2026-01-15",
      label: { format: "pdf" as LabelFormat, size: "4x6" as const },
      contents: [{ reference: "order 1001", items: international ? [CUSTOMS_ITEM] : [] }],
      ...overrides,
    } satisfies PurchaseRequest;
  };

  const domestic = DOMESTIC_SERVICES.flatMap((serviceId) =>
    [US_COMMERCIAL, US_RESIDENTIAL, US_NO_PHONE].map((to) => ({ serviceId, to })),
  );

  it.each(domestic)("rates service $serviceId to $to.city", async ({ serviceId, to }) => {
    const request = purchaseRequest(to, serviceId);
    await usps.rate(request);
  });

  it.each(Object.keys(ABROAD))(
    "rates and buys Priority Mail International to %s with customs items, and voids it",
    async (country) => {
      const request = purchaseRequest(ABROAD[country]!, INTERNATIONAL_SERVICE);
      await usps.rate(request);
      const purchase = await usps.purchase(request);
      await usps.voidLabels(purchase.parcels.map((p) => p.trackingNumber));
    },
  );

  it.each(["pdf", "tiff", "zpl"])("buys an international label as %s", async (format) => {
    await usps.purchase(
      purchaseRequest(ABROAD.GB!, INTERNATIONAL_SERVICE, { label: { format: format as LabelFormat, size: "4x6" } }),
    );
  });

  it.each(["pdf", "png", "jpeg", "gif", "tiff", "zpl", "epl2"])("buys a domestic label as %s", async (format) => {
    await usps.purchase(
      purchaseRequest(US_RESIDENTIAL, 1172, { label: { format: format as LabelFormat, size: "4x6" } }),
    );
  });

  it.each(domestic)("buys service $serviceId to $to.city, two parcels, and voids them", async ({ serviceId, to }) => {
    const purchase = await usps.purchase(
      purchaseRequest(to, serviceId, {
        parcels: [PARCEL, { ...PARCEL, weightOz: 40 }],
        parcelSerials: [1, 2],
        contents: [
          { reference: "order 1001", items: [] },
          { reference: null, items: [] },
        ],
      }),
    );
    await usps.voidLabels(purchase.parcels.map((p) => p.trackingNumber));
  });

  it("buys a domestic label with insurance: extra service 930 and the package's value", async () => {
    await usps.purchase(purchaseRequest(US_RESIDENTIAL, 684, { parcels: [{ ...PARCEL, insuredCents: 25_000 }] }));
    const sent = bodyOf(server.requests.filter((r) => path(r) === "/labels/v3/label").at(-1)!) as {
      packageDescription: { extraServices?: number[]; packageOptions?: { packageValue: number } };
    };
    expect(sent.packageDescription).toMatchObject({ extraServices: [930], packageOptions: { packageValue: 250 } });
  });

  it.each([
    { serviceId: 1172, type: "print", mailClass: "USPS_GROUND_ADVANTAGE_RETURN_SERVICE" },
    { serviceId: 684, type: "scan_based", mailClass: "PRIORITY_MAIL_RETURN_SERVICE" },
    { serviceId: 685, type: "print", mailClass: "PRIORITY_MAIL_EXPRESS_RETURN_SERVICE" },
  ] as const)(
    "buys a $type return label for service $serviceId: $mailClass, customer to merchant",
    async ({ serviceId, type, mailClass }) => {
      // The labels bought above spend the connection's hourly label calls: the next hour has its own.
      clock.advance(60 * 60 * 1000);
      const purchase = await usps.purchase(
        purchaseRequest(US_COMMERCIAL, serviceId, { from: US_RESIDENTIAL, returnLabel: { type } }),
      );
      expect(purchase.parcels[0]?.label?.bytes.length).toBeGreaterThan(0);
      const sent = bodyOf(server.requests.filter((r) => path(r) === "/labels/v3/return-label").at(-1)!) as {
        fromAddress: { ZIPCode: string };
        toAddress: { ZIPCode: string };
        packageDescription: { mailClass: string };
      };
      expect(sent.packageDescription.mailClass).toBe(mailClass);
      expect([sent.fromAddress.ZIPCode, sent.toAddress.ZIPCode]).toEqual([
        SALT_LAKE_RESIDENCE.postal_code.slice(0, 5),
        LOS_ANGELES_WAREHOUSE.postal_code.slice(0, 5),
      ]);
    },
  );

  it("tracks a label", async () => {
    await usps.track({
      trackingNumber: "9400100000000000000000",
      service: findService(1172)!,
      from: US_COMMERCIAL,
      to: US_RESIDENTIAL,
      labelCreatedAt: clock.now(),
      shipDate: "2026-01-15",
      promisedDeliveryDate: "2026-01-19",
      asOf: clock.now(),
    });
  });

  it("checks an address", async () => {
    await usps.addresses!.validate(US_RESIDENTIAL);
  });

  it("books a carrier pickup with instructions and cancels it", async () => {
    const pickup = await usps.pickups!.schedule({
      now: new Date("2026-01-15T15:00:00Z"),
      pickupDate: "2026-01-16",
      location: US_RESIDENTIAL,
      locationDetail: null,
      specialInstructions: "Ring the side bell",
      packageCount: 3,
      weightOz: 80,
      serial: 7,
      shipments: [],
    });
    await usps.pickups!.cancel({ ...pickup, pickupDate: "2026-01-16" });
  });

  it("files a SCAN form", async () => {
    await usps.manifests!.fileManifest({
      mailingDate: "2026-01-15",
      originPostalCode: "90035",
      scope: "domestic",
      serial: 1,
      trackingNumberCount: 1,
      trackingNumbers: ["9400100000000000000000"],
      from: US_COMMERCIAL,
    });
  });

  it("sent nothing USPS's specs refuse in prose", () => {
    const broken = server.requests.flatMap(uspsProseViolations).map((v) => `${v.where}: ${v.message}`);
    expect(server.requests.some((r) => path(r) === "/international-labels/v3/international-label")).toBe(true);
    expect(broken).toEqual([]);
  });

  it("sent nothing USPS's specs refuse, and called every operation of the matrix", () => {
    expect(server.violations.map((v) => `${v.request} ${v.operation} ${v.where}: ${v.message}`)).toEqual([]);
    const called = new Set(
      server.requests.filter((r) => path(r) !== TOKEN_PATH).map((r) => server.contract.operationOf(r)),
    );
    expect([...called].sort()).toEqual([
      "DELETE /international-labels/v3/international-label/{trackingNumber}",
      "DELETE /labels/v3/label/{trackingNumber}",
      "DELETE /pickup/v3/carrier-pickup/{confirmationNumber}",
      "GET /addresses/v3/address",
      "GET /pickup/v3/carrier-pickup/eligibility",
      "GET /pickup/v3/carrier-pickup/{confirmationNumber}",
      "GET /tracking/v3/tracking/{trackingNumber}",
      "POST /international-labels/v3/international-label",
      "POST /international-prices/v3/base-rates/search",
      "POST /labels/v3/label",
      "POST /labels/v3/return-label",
      "POST /payments/v3/payment-authorization",
      "POST /pickup/v3/carrier-pickup",
      "POST /prices/v3/base-rates/search",
      "POST /scan-forms/v3/scan-form",
    ]);
  });
});
