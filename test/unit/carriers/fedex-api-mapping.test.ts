import { describe, expect, it } from "vitest";
import type { PurchaseRequest } from "../../../src/carriers/carrier.js";
import { fedexCredentials } from "../../../src/carriers/fedex/api/fedex-credentials.js";
import {
  addressVerdict,
  chargedRate,
  commercialInvoiceOf,
  estimatedDeliveryDate,
  fedexAddress,
  fedexErrorWords,
  fedexLabelSpec,
  fedexPackage,
  fedexPackaging,
  fedexPounds,
  fedexServiceType,
  porterPackageType,
  porterServiceCode,
  quoteFromRatedShipment,
  rateDeliveryDate,
  readableRate,
  shipmentDeliveryDate,
  shipmentRatingDetail,
  surchargeKind,
  trackingEvents,
  trackingStatus,
  transitDays,
} from "../../../src/carriers/fedex/api/fedex-mapping.js";
import { shipRequest } from "../../../src/carriers/fedex/api/fedex-requests.js";
import type { FedexRatedShipmentDetail } from "../../../src/carriers/fedex/api/fedex-wire.js";
import { FEDEX_SERVICES } from "../../../src/carriers/fedex/services.js";
import { findService } from "../../../src/carriers/registry.js";
import { fedexPurchaseRequest } from "../../helpers/fedex-requests.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../../helpers/shipments.js";

const box = { lengthIn: 10.2, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" };

describe("Porter's FedEx services as FedEx service types", () => {
  it.each([
    [392, "FEDEX_GROUND"],
    [402, "GROUND_HOME_DELIVERY"],
    [395, "FEDEX_EXPRESS_SAVER"],
    [393, "FEDEX_2_DAY"],
    [394, "FEDEX_2_DAY_AM"],
    [396, "STANDARD_OVERNIGHT"],
    [398, "PRIORITY_OVERNIGHT"],
    [397, "FIRST_OVERNIGHT"],
    [401, "INTERNATIONAL_PRIORITY"],
    [399, "INTERNATIONAL_ECONOMY"],
  ])("service %i is %s, and back", (id, serviceType) => {
    const service = findService(id)!;
    expect(fedexServiceType(service)).toBe(serviceType);
    expect(porterServiceCode(serviceType)).toBe(service.serviceCode);
  });

  it("knows every Porter FedEx service, and FedEx's newer name for International Priority", () => {
    for (const service of FEDEX_SERVICES) expect(fedexServiceType(service)).toBeDefined();
    expect(porterServiceCode("FEDEX_INTERNATIONAL_PRIORITY")).toBe("fedex_intl_priority");
    expect(porterServiceCode("FEDEX_FREIGHT_ECONOMY")).toBeUndefined();
  });
});

describe("packaging", () => {
  it("sends a parcel as YOUR_PACKAGING and FedEx packaging at One Rate", () => {
    expect(fedexPackaging([box, box])).toEqual({ packagingType: "YOUR_PACKAGING", oneRate: false });
    expect(fedexPackaging([{ packageType: "fedex_pak" }])).toEqual({ packagingType: "FEDEX_PAK", oneRate: true });
    expect(fedexPackaging([{ packageType: "fedex_box_medium" }])).toMatchObject({ packagingType: "FEDEX_MEDIUM_BOX" });
    expect(porterPackageType("FEDEX_TUBE")).toBe("fedex_tube");
    expect(porterPackageType("FEDEX_10KG_BOX")).toBe("parcel");
  });

  it("refuses parcels in different packaging in one shipment, and packaging FedEx does not have", () => {
    expect(fedexPackaging([box, { packageType: "fedex_pak" }])).toHaveProperty("refusal");
    expect(fedexPackaging([{ packageType: "flat_rate_envelope" }])).toEqual({
      refusal: "FedEx has no packaging flat_rate_envelope",
    });
  });

  it("weighs in pounds to a tenth, rounded up, and measures whole inches, rounded up", () => {
    expect(fedexPounds(24)).toBe(1.5);
    expect(fedexPounds(17)).toBe(1.1);
    expect(fedexPounds(0.5)).toBe(0.1);
    expect(fedexPackage(box, 1)).toEqual({
      sequenceNumber: 1,
      groupPackageCount: 1,
      weight: { units: "LB", value: 1.5 },
      dimensions: { length: 11, width: 8, height: 4, units: "IN" },
    });
    expect(fedexPackage({ ...box, lengthIn: 0, widthIn: 0, heightIn: 0 }, 2)).not.toHaveProperty("dimensions");
  });

  it("writes addresses with street lines only where given", () => {
    expect(
      fedexAddress(
        {
          address1: "1 Main St",
          address2: "",
          city: "Salt Lake City",
          state: "UT",
          country: "US",
          postal_code: "84111",
        },
        true,
      ),
    ).toEqual({
      streetLines: ["1 Main St"],
      city: "Salt Lake City",
      stateOrProvinceCode: "UT",
      postalCode: "84111",
      countryCode: "US",
      residential: true,
    });
  });
});

describe("FedEx's rated shipment as a quote", () => {
  const detail: FedexRatedShipmentDetail = {
    rateType: "ACCOUNT",
    totalBaseCharge: 20.5,
    totalNetCharge: 25.69,
    shipmentRateDetail: {
      totalBillingWeight: { units: "LB", value: 3 },
      surCharges: [
        { type: "FUEL", description: "Fuel Surcharge", amount: 3.08 },
        { type: "RESIDENTIAL_DELIVERY", description: "Residential delivery surcharge", amount: 2.11 },
        { type: "PEAK", description: "Demand Surcharge", amount: 0 },
      ],
    },
  };

  it("makes each surcharge a line, the transportation charge the rest, and totals FedEx's net charge", () => {
    const quote = quoteFromRatedShipment(detail, [box]);
    expect(quote.totalCents).toBe(2569);
    expect(quote.lines).toEqual([
      { kind: "base", description: "Transportation", amountCents: 2050 },
      { kind: "fuel", description: "Fuel Surcharge", amountCents: 308 },
      { kind: "residential", description: "Residential delivery surcharge", amountCents: 211 },
    ]);
    expect(quote.billableWeightOz).toBe(48);
  });

  it("names surcharge kinds Porter's way where it has a name, FedEx's otherwise", () => {
    expect(surchargeKind("DELIVERY_AREA")).toBe("delivery_area");
    expect(surchargeKind("OVERSIZE")).toBe("large_package");
    expect(surchargeKind("SIGNATURE_OPTION")).toBe("signature_option");
    expect(surchargeKind(undefined)).toBe("surcharge");
  });

  it("charges the account rate and keeps the list rate beside it", () => {
    const list = { ...detail, rateType: "LIST", totalNetCharge: 30 };
    expect(chargedRate([list, detail])).toEqual({ charged: detail, list });
    expect(chargedRate([list])).toEqual({ charged: list, list });
    expect(chargedRate(undefined)).toEqual({ charged: undefined, list: undefined });
    expect(readableRate(detail)).toBe(true);
    expect(readableRate({ rateType: "ACCOUNT" })).toBe(false);
  });

  it("reads FedEx's delivery date and transit time", () => {
    expect(
      rateDeliveryDate({ serviceType: "FEDEX_2_DAY", operationalDetail: { deliveryDate: "2026-12-01T20:00:00" } }),
    ).toBe("2026-12-01");
    expect(
      rateDeliveryDate({ serviceType: "FEDEX_2_DAY", commit: { dateDetail: { dayFormat: "2026-12-02T10:30:00" } } }),
    ).toBe("2026-12-02");
    expect(rateDeliveryDate({ serviceType: "FEDEX_GROUND" })).toBeUndefined();
    expect(
      shipmentDeliveryDate({ completedShipmentDetail: { operationalDetail: { deliveryDate: "2026-12-03" } } }),
    ).toBe("2026-12-03");
    expect(shipmentDeliveryDate({ pieceResponses: [{ deliveryTimestamp: "2026-12-04T20:00:00" }] })).toBe("2026-12-04");
    expect(shipmentDeliveryDate(undefined)).toBeUndefined();
    expect(transitDays("THREE_DAYS")).toBe(3);
    expect(transitDays("ONE_DAY")).toBe(1);
    expect(transitDays("SMARTPOST_TRANSIT_DAYS")).toBeUndefined();
  });

  it("reads FedEx's error words with their codes", () => {
    expect(
      fedexErrorWords({
        transactionId: "624deea6",
        errors: [{ code: "NOT.AUTHORIZED.ERROR", message: "The given client credentials were not valid." }],
      }),
    ).toBe("The given client credentials were not valid. (NOT.AUTHORIZED.ERROR)");
    expect(fedexErrorWords({ errors: [] })).toBeUndefined();
    expect(fedexErrorWords("nope")).toBeUndefined();
  });
});

describe("the Ship API's rating of a label", () => {
  // The Ship API lists a rating per rate type; `actualRateType` names the one FedEx charged, and
  // its surcharges name their type in `surchargeType` (ship-api.json, ShipmentRating and Surcharge).
  const rating = {
    actualRateType: "PAYOR_ACCOUNT_SHIPMENT",
    shipmentRateDetails: [
      { rateType: "PAYOR_ACCOUNT_PACKAGE", totalNetCharge: 99.99, surcharges: [] },
      { rateType: "PAYOR_LIST_SHIPMENT", totalNetCharge: 30, surcharges: [] },
      {
        rateType: "PAYOR_ACCOUNT_SHIPMENT",
        rateZone: "03",
        totalNetCharge: 17.71,
        totalBillingWeight: { units: "LB" as const, value: 2 },
        surcharges: [
          { surchargeType: "FUEL", description: "Fuel Surcharge", amount: 1.56 },
          { surchargeType: "RESIDENTIAL_DELIVERY", description: "Residential delivery", amount: 5.75 },
        ],
      },
    ],
  };

  it("charges the rate FedEx names as actual, its surcharges read by their surcharge type", () => {
    const detail = shipmentRatingDetail(rating)!;
    expect(detail.totalNetCharge).toBe(17.71);
    const quote = quoteFromRatedShipment(detail, [box]);
    expect(quote.totalCents).toBe(1771);
    expect(quote.lines.map((line) => [line.kind, line.amountCents])).toEqual([
      ["base", 1040],
      ["fuel", 156],
      ["residential", 575],
    ]);
  });

  it("falls back to the account's shipment rate when FedEx names none", () => {
    expect(shipmentRatingDetail({ ...rating, actualRateType: undefined })?.totalNetCharge).toBe(17.71);
  });
});

describe("labels", () => {
  it("asks FedEx for the format and stock the label needs", () => {
    expect(fedexLabelSpec("pdf", "4x6")).toEqual({
      imageType: "PDF",
      labelStockType: "PAPER_4X6",
      widthIn: 4,
      heightIn: 6,
      dpi: 72,
    });
    expect(fedexLabelSpec("zpl", "4x6")).toMatchObject({ imageType: "ZPLII", labelStockType: "STOCK_4X6", dpi: 203 });
    expect(fedexLabelSpec("epl2", "4x8")).toMatchObject({ imageType: "EPL2", labelStockType: "STOCK_4X8" });
    expect(fedexLabelSpec("png", "8.5x11")).toMatchObject({
      imageType: "PNG",
      labelStockType: "PAPER_85X11_TOP_HALF_LABEL",
    });
  });

  it("refuses a format or size FedEx does not make, naming what it makes", () => {
    expect(fedexLabelSpec("gif", "4x6")).toEqual({ refusal: "FedEx makes labels as pdf, png, zpl, epl2; not gif" });
    expect(fedexLabelSpec("zpl", "8.5x11")).toEqual({
      refusal: "FedEx makes zpl labels in the sizes 4x6, 4x8; not 8.5x11",
    });
  });
});

describe("return shipments", () => {
  const credentials = fedexCredentials({ client_id: "key", client_secret: "secret", account_number: "740561073" })!;
  const label = { imageType: "PDF", labelStockType: "PAPER_4X6", widthIn: 4, heightIn: 6, dpi: 72 } as const;
  const returnRequest = fedexPurchaseRequest({
    from: SALT_LAKE_RESIDENCE,
    to: LOS_ANGELES_WAREHOUSE,
    residential: false,
    returnLabel: { type: "print" },
  });
  const shipped = (request: PurchaseRequest, serviceType: string, packagingType: string, oneRate: boolean) =>
    shipRequest(credentials, request, serviceType, { packagingType, oneRate }, label, "8015550199").requestedShipment;

  it("asks for a return shipment with a printed return label, the customer as shipper and the merchant as recipient", () => {
    const shipment = shipped(returnRequest, "FEDEX_GROUND", "YOUR_PACKAGING", false);
    expect(shipment.shipmentSpecialServices).toEqual({
      specialServiceTypes: ["RETURN_SHIPMENT"],
      returnShipmentDetail: { returnType: "PRINT_RETURN_LABEL" },
    });
    expect(shipment.shipper.address.postalCode).toBe(SALT_LAKE_RESIDENCE.postal_code);
    expect(shipment.recipients[0]?.address.postalCode).toBe(LOS_ANGELES_WAREHOUSE.postal_code);
  });

  it("keeps One Rate beside the return, and sends neither on an outbound shipment in the shipper's packaging", () => {
    const oneRate = shipped(returnRequest, "FEDEX_2_DAY", "FEDEX_PAK", true);
    expect(oneRate.shipmentSpecialServices?.specialServiceTypes).toEqual(["FEDEX_ONE_RATE", "RETURN_SHIPMENT"]);
    const outbound = shipped(fedexPurchaseRequest(), "GROUND_HOME_DELIVERY", "YOUR_PACKAGING", false);
    expect(outbound).not.toHaveProperty("shipmentSpecialServices");
  });
});

describe("FedEx's commercial invoice", () => {
  const pdf = Buffer.from("%PDF-1.4 invoice");
  const invoice = { contentType: "COMMERCIAL_INVOICE", docType: "PDF", encodedLabel: pdf.toString("base64") };
  const label = { contentType: "LABEL", docType: "PDF", encodedLabel: "TEFCRUw=" };

  it("is read from the shipment's documents, or a package's", () => {
    expect(commercialInvoiceOf({ shipmentDocuments: [label, invoice] })).toEqual(pdf);
    expect(commercialInvoiceOf({ pieceResponses: [{ packageDocuments: [label, invoice] }] })).toEqual(pdf);
  });

  it("is absent when FedEx answers none, or only its URL", () => {
    expect(commercialInvoiceOf({ pieceResponses: [{ packageDocuments: [label] }] })).toBeUndefined();
    expect(
      commercialInvoiceOf({ shipmentDocuments: [{ contentType: "COMMERCIAL_INVOICE", url: "https://x" }] }),
    ).toBeUndefined();
    expect(commercialInvoiceOf(undefined)).toBeUndefined();
  });
});

describe("tracking", () => {
  it("maps FedEx's derived status codes first, its event types next", () => {
    expect(trackingStatus("OC", "IN")).toBe("pre_transit");
    expect(trackingStatus("AR", "IT")).toBe("in_transit");
    expect(trackingStatus("OD", "OD")).toBe("out_for_delivery");
    expect(trackingStatus("DL", "DL")).toBe("delivered");
    expect(trackingStatus("DE", "DE")).toBe("exception");
    expect(trackingStatus("HP", "HL")).toBe("available_for_pickup");
    expect(trackingStatus("RS", "RS")).toBe("returned");
    expect(trackingStatus("HP", undefined)).toBe("available_for_pickup");
    expect(trackingStatus("ZZ", "ZZ")).toBe("in_transit");
  });

  it("turns FedEx's scans, newest first, into Porter's events, oldest first", () => {
    const events = trackingEvents({
      scanEvents: [
        {
          date: "2026-11-27T08:10:00-07:00",
          eventType: "DL",
          eventDescription: "Delivered",
          derivedStatusCode: "DL",
          scanLocation: { city: "SALT LAKE CITY", stateOrProvinceCode: "UT", postalCode: "84111", countryCode: "US" },
        },
        { date: "not a date", eventType: "IT" },
        {
          date: "2026-11-26T09:00:00-05:00",
          eventType: "OC",
          eventDescription: "Shipment information sent to FedEx",
          derivedStatusCode: "IN",
        },
      ],
    });
    expect(events).toEqual([
      {
        sequence: 1,
        occurredAt: new Date("2026-11-26T14:00:00Z"),
        code: "OC",
        secondaryCode: "IN",
        description: "Shipment information sent to FedEx",
        status: "pre_transit",
        city: null,
        state: null,
        postalCode: null,
        country: null,
      },
      {
        sequence: 2,
        occurredAt: new Date("2026-11-27T15:10:00Z"),
        code: "DL",
        secondaryCode: "DL",
        description: "Delivered",
        status: "delivered",
        city: "SALT LAKE CITY",
        state: "UT",
        postalCode: "84111",
        country: "US",
      },
    ]);
  });

  it("reads the estimated delivery date", () => {
    expect(
      estimatedDeliveryDate({ dateAndTimes: [{ type: "ESTIMATED_DELIVERY", dateTime: "2026-11-30T00:00:00-06:00" }] }),
    ).toBe("2026-11-30");
    expect(estimatedDeliveryDate({ estimatedDeliveryTimeWindow: { window: { ends: "2026-12-01T18:00:00" } } })).toBe(
      "2026-12-01",
    );
    expect(estimatedDeliveryDate({})).toBeNull();
  });
});

describe("address validation", () => {
  const asked = { address1: "1 main street", city: "salt lake city", state: "UT", country: "US", postal_code: "84111" };

  it("takes FedEx's standardized address and classification", () => {
    expect(
      addressVerdict(asked, {
        streetLinesToken: ["1 MAIN ST", "STE 200"],
        city: "SALT LAKE CITY",
        stateOrProvinceCode: "UT",
        countryCode: "US",
        parsedPostalCode: { base: "84111", addOn: "2305" },
        classification: "BUSINESS",
        attributes: { Resolved: "true", DPV: true },
      }),
    ).toEqual({
      valid: true,
      reasons: [],
      residential: false,
      address: {
        address1: "1 MAIN ST",
        address2: "STE 200",
        city: "SALT LAKE CITY",
        state: "UT",
        country: "US",
        postal_code: "84111-2305",
      },
    });
  });

  it("says why an address falls short", () => {
    const verdict = addressVerdict(asked, {
      countryCode: "US",
      classification: "UNKNOWN",
      attributes: { Resolved: "true", DPV: "true", SuiteRequiredButMissing: "true" },
    });
    expect(verdict).toMatchObject({
      valid: false,
      residential: null,
      reasons: ["A suite or apartment number is required"],
    });
    expect(addressVerdict(asked, { countryCode: "US", attributes: { Resolved: "false" } })).toMatchObject({
      valid: false,
      reasons: ["FedEx could not match the address to a delivery point"],
    });
    expect(addressVerdict(asked, undefined).valid).toBe(false);
  });
});

describe("FedEx credentials", () => {
  const full = { client_id: "l7xx-api-key", client_secret: "s3cr3t", account_number: "740561073" };

  it("reads the API key, secret key and account number", () => {
    expect(fedexCredentials(full)).toEqual({
      clientId: "l7xx-api-key",
      clientSecret: "s3cr3t",
      accountNumber: "740561073",
    });
  });

  it("leaves a connection without an OAuth client to the sandbox", () => {
    expect(fedexCredentials({})).toBeUndefined();
    expect(fedexCredentials({ account_number: "A1B2C3" })).toBeUndefined();
  });

  it("names what is missing or malformed", () => {
    expect(() => fedexCredentials({ client_id: "x" })).toThrow(/client_secret/);
    expect(() => fedexCredentials({ ...full, account_number: undefined })).toThrow(/account_number/);
    expect(() => fedexCredentials({ ...full, account_number: "12-34" })).toThrow(/digits/);
    expect(() => fedexCredentials({ ...full, client_secret: 42 })).toThrow(/must be a string/);
  });
});
