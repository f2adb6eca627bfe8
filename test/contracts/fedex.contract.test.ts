import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PurchaseRequest, RateRequest } from "../../src/carriers/carrier.js";
import { fedexApi } from "../../src/carriers/fedex/api/index.js";
import type { RealCarrier } from "../../src/carriers/real-carrier.js";
import { findService } from "../../src/carriers/registry.js";
import { ManualClock } from "../../src/clock.js";
import { FEDEX_BOX, fedexPurchaseRequest, fedexRateRequest, fedexTrackRequest } from "../helpers/fedex-requests.js";
import { ABROAD_RECIPIENTS, declaredItem, LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";
import { FEDEX_SPEC_FILES } from "../stand-ins/fedex/fedex-stand-in.js";
import { standInContext, standInPdf } from "../stand-ins/stand-in-server.js";
import { carrierSpecsAvailable, publishedContract, type SentRequest } from "./published-specs.js";
import { type SpecAnswer, SpecServer } from "./spec-server.js";

/**
 * The FedEx adapter against FedEx's own published specs: every request it sends in the scenarios
 * below is checked against its operation, and it reads the specs' own example answers (adapted only
 * where an example lacks what a label needs: a tracking number per package and the label file).
 */
const CREDENTIALS = { client_id: "contract-key", client_secret: "contract-secret", account_number: "740561073" };
const GROUND = findService(392)!;
const HOME = findService(402)!;
const INTERNATIONAL = findService(401)!;

const item = declaredItem;
const ABROAD = ABROAD_RECIPIENTS;

/**
 * FedEx's specs give no example answers for these operations: these are built from their response
 * schemas (and checked against them by the server), with what the adapter reads.
 */
function answerFor(request: SentRequest): SpecAnswer | undefined {
  const sent = JSON.parse(request.body || "{}") as {
    requestedShipment?: { requestedPackageLineItems: unknown[]; labelSpecification?: { imageType: string } };
    trackingInfo?: { trackingNumberInfo: { trackingNumber: string } }[];
  };
  const transactionId = "624deea6-b709-470c-8c39-4b5511281492";
  const path = request.url.split("?")[0];
  if (path === "/rate/v1/rates/quotes") {
    const replies = ["FEDEX_GROUND", "GROUND_HOME_DELIVERY", "INTERNATIONAL_PRIORITY"].map((serviceType) => ({
      serviceType,
      ratedShipmentDetails: [
        {
          rateType: "ACCOUNT",
          totalNetCharge: 17.71,
          shipmentRateDetail: { rateZone: "03", surCharges: [{ type: "FUEL", description: "Fuel", amount: 1.56 }] },
        },
      ],
    }));
    return { status: 200, body: { transactionId, output: { rateReplyDetails: replies } } };
  }
  if (path === "/ship/v1/shipments" && sent.requestedShipment) {
    const imageType = sent.requestedShipment.labelSpecification?.imageType;
    const label = imageType === "PDF" ? standInPdf("FedEx label") : Buffer.from("^XA^XZ");
    const pieceResponses = sent.requestedShipment.requestedPackageLineItems.map((_, i) => ({
      trackingNumber: `79474128${1000 + i}`,
      packageDocuments: [{ contentType: "LABEL", docType: imageType, encodedLabel: label.toString("base64") }],
    }));
    const shipmentRating = {
      actualRateType: "PAYOR_ACCOUNT_SHIPMENT",
      shipmentRateDetails: [
        {
          rateType: "PAYOR_ACCOUNT_SHIPMENT",
          totalNetCharge: 17.71,
          surcharges: [{ surchargeType: "FUEL", amount: 1.56 }],
        },
      ],
    };
    const shipment = {
      masterTrackingNumber: "794741281000",
      pieceResponses,
      completedShipmentDetail: { shipmentRating },
    };
    return { status: 200, body: { transactionId, output: { transactionShipments: [shipment] } } };
  }
  if (path === "/ship/v1/shipments/cancel") {
    return {
      status: 200,
      body: { transactionId, output: { cancelledShipment: true, message: "Shipment is successfully cancelled" } },
    };
  }
  if (path === "/track/v1/trackingnumbers") {
    const trackingNumber = sent.trackingInfo?.[0]?.trackingNumberInfo.trackingNumber ?? "";
    const result = { trackingNumberInfo: { trackingNumber }, scanEvents: [] };
    return {
      status: 200,
      body: { transactionId, output: { completeTrackResults: [{ trackingNumber, trackResults: [result] }] } },
    };
  }
  if (path === "/address/v1/addresses/resolve") {
    const resolved = {
      streetLinesToken: ["220 S STATE ST"],
      city: "SALT LAKE CITY",
      stateOrProvinceCode: "UT",
      countryCode: "US",
      classification: "RESIDENTIAL",
      attributes: { Resolved: true, DPV: true },
    };
    return { status: 200, body: { transactionId, output: { resolvedAddresses: [resolved] } } };
  }
  if (path === "/ship/v1/endofday/") {
    return {
      status: 200,
      body: { transactionId, output: { closeDocuments: [{ type: "MANIFEST", shippingCycle: "1" }] } },
    };
  }
  if (path === "/pickup/v1/pickups/availabilities") {
    const options = [{ carrier: "FDXG", available: true, pickupDate: "2026-11-27", cutOffTime: "18:00:00" }];
    return { status: 200, body: { transactionId, output: { options } } };
  }
  if (path === "/pickup/v1/pickups") {
    return { status: 200, body: { transactionId, output: { pickupConfirmationCode: "7", location: "NQAA" } } };
  }
  if (path === "/pickup/v1/pickups/cancel") {
    const output = { pickupConfirmationCode: "7", cancelConfirmationMessage: "Requested pickup has been cancelled." };
    return { status: 200, body: { transactionId, output } };
  }
  return undefined;
}

describe.runIf(carrierSpecsAvailable())("the FedEx adapter against FedEx's published specs", () => {
  let server: SpecServer;
  let real: RealCarrier;
  const clock = new ManualClock("2026-11-26T15:00:00Z");

  beforeAll(async () => {
    server = new SpecServer(await publishedContract(FEDEX_SPEC_FILES), (request, example) => {
      if (request.url.startsWith("/oauth/token")) {
        return {
          status: 200,
          body: { access_token: "contract-token", token_type: "bearer", expires_in: 3599, scope: "CXS" },
        };
      }
      return answerFor(request) ?? example;
    });
    real = fedexApi.open(fedexApi.credentials(CREDENTIALS)!, standInContext(await server.start(), clock));
  });
  afterAll(() => server.stop());

  const rateRequest = (overrides: Partial<RateRequest> = {}) =>
    fedexRateRequest({ services: [GROUND, HOME, INTERNATIONAL], shipDate: "2026-11-26", ...overrides });
  const purchaseRequest = (overrides: Partial<PurchaseRequest> = {}) =>
    fedexPurchaseRequest({ label: { format: "pdf", size: "4x6" }, ...overrides });

  const domestic = [
    { name: "residential", to: SALT_LAKE_RESIDENCE, residential: true, service: HOME },
    { name: "commercial", to: { ...SALT_LAKE_RESIDENCE, company: "Zion Supply" }, residential: false, service: GROUND },
    {
      name: "recipient without a phone",
      to: { ...SALT_LAKE_RESIDENCE, phone: null },
      residential: true,
      service: HOME,
    },
  ];

  it.each(domestic)("rates and buys at home: $name", async ({ to, residential, service }) => {
    await real.adapter.rate(rateRequest({ to, residential }));
    const bought = await real.adapter.purchase(purchaseRequest({ to, residential, service, services: [service] }));
    expect(bought.parcels).toHaveLength(1);
  });

  it.each(["pdf", "png", "zpl", "epl2"] as const)("buys a %s label, two parcels in one shipment", async (format) => {
    const bought = await real.adapter.purchase(
      purchaseRequest({
        label: { format, size: "4x6" },
        parcels: [FEDEX_BOX, FEDEX_BOX],
        parcelSerials: [1, 2],
        contents: ["A", null].map((reference) => ({ reference, items: [] })),
      }),
    );
    expect(bought.parcels).toHaveLength(2);
  });

  it.each(Object.entries(ABROAD))("rates and buys abroad with customs items: %s", async (_country, to) => {
    await real.adapter.rate(rateRequest({ to, residential: true, services: [INTERNATIONAL] }));
    const bought = await real.adapter.purchase(
      purchaseRequest({
        to,
        service: INTERNATIONAL,
        services: [INTERNATIONAL],
        contents: [{ reference: null, items: [item("Wool scarf", "PE"), item("Greeting card", null)] }],
      }),
    );
    expect(bought.parcels).toHaveLength(1);
  });

  it.each(["print", "scan_based"] as const)(
    "buys a %s return label: a return shipment with a printed return label, customer to merchant",
    async (type) => {
      const bought = await real.adapter.purchase(
        purchaseRequest({
          from: SALT_LAKE_RESIDENCE,
          to: LOS_ANGELES_WAREHOUSE,
          residential: false,
          service: GROUND,
          services: [GROUND],
          returnLabel: { type },
        }),
      );
      expect(bought.parcels).toHaveLength(1);
      const sent = JSON.parse(server.requests.filter((r) => r.url === "/ship/v1/shipments").at(-1)!.body);
      const shipment = sent.requestedShipment;
      expect(shipment.shipmentSpecialServices).toEqual({
        specialServiceTypes: ["RETURN_SHIPMENT"],
        returnShipmentDetail: { returnType: "PRINT_RETURN_LABEL" },
      });
      expect(shipment.shipper.address.postalCode).toBe(SALT_LAKE_RESIDENCE.postal_code);
      expect(shipment.recipients[0].address.postalCode).toBe(LOS_ANGELES_WAREHOUSE.postal_code);
    },
  );

  it("buys a return label from abroad with its customs items", async () => {
    const bought = await real.adapter.purchase(
      purchaseRequest({
        from: ABROAD.GB!,
        to: LOS_ANGELES_WAREHOUSE,
        residential: false,
        service: INTERNATIONAL,
        services: [INTERNATIONAL],
        contents: [{ reference: null, items: [item("Wool scarf", "PE")] }],
        returnLabel: { type: "print" },
      }),
    );
    expect(bought.parcels).toHaveLength(1);
    const sent = JSON.parse(server.requests.filter((r) => r.url === "/ship/v1/shipments").at(-1)!.body);
    expect(sent.requestedShipment.customsClearanceDetail.commercialInvoice.shipmentPurpose).toBe("REPAIR_AND_RETURN");
  });

  it("voids, tracks, checks an address and closes the day", async () => {
    await real.adapter.voidLabels(["794741281000"]);
    await real.adapter.track(fedexTrackRequest("794741281000", clock.now()));
    await real.adapter.addresses!.validate(SALT_LAKE_RESIDENCE);
    await real.adapter.manifests!.fileManifest({
      mailingDate: "2026-11-26",
      originPostalCode: "90035",
      scope: "domestic",
      serial: 1,
      trackingNumberCount: 1,
    });
  });

  it("books a Ground pickup and cancels it", async () => {
    const booked = await real.adapter.pickups!.schedule({
      location: LOS_ANGELES_WAREHOUSE,
      pickupDate: "2026-11-27",
      packageCount: 1,
      weightOz: 24,
      serial: 1,
      locationDetail: null,
      specialInstructions: null,
      shipments: [{ service: GROUND, trackingNumbers: ["794741281000"], toCountry: "US", parcels: [FEDEX_BOX] }],
      now: clock.now(),
    });
    await real.adapter.pickups!.cancel({ ...booked, pickupDate: "2026-11-27" });
  });

  it("sent nothing FedEx's specs refuse, and called every operation", () => {
    expect(server.violations.map((v) => `${v.request} ${v.where} ${v.message}`)).toEqual([]);
    const called = new Set(server.requests.map((r) => server.contract.operationOf(r)));
    for (const operation of [
      "POST /oauth/token",
      "POST /rate/v1/rates/quotes",
      "POST /ship/v1/shipments",
      "PUT /ship/v1/shipments/cancel",
      "POST /track/v1/trackingnumbers",
      "POST /address/v1/addresses/resolve",
      "PUT /ship/v1/endofday/",
      "POST /pickup/v1/pickups/availabilities",
      "POST /pickup/v1/pickups",
      "PUT /pickup/v1/pickups/cancel",
    ]) {
      expect(called).toContain(operation);
    }
  });
});
