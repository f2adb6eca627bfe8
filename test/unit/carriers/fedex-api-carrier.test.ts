import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CarrierError } from "../../../src/carriers/carrier.js";
import { fedexApi } from "../../../src/carriers/fedex/api/index.js";
import type { RealCarrier } from "../../../src/carriers/real-carrier.js";
import { findService } from "../../../src/carriers/registry.js";
import { ManualClock } from "../../../src/clock.js";
import { FEDEX_BOX, fedexPurchaseRequest, fedexRateRequest, fedexTrackRequest } from "../../helpers/fedex-requests.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, TORONTO_RESIDENCE } from "../../helpers/shipments.js";
import { FedexStandIn } from "../../stand-ins/fedex/fedex-stand-in.js";
import { standInContext } from "../../stand-ins/stand-in-server.js";
import { readPdf } from "../labels/label-tools.js";

const ACCOUNT = { clientId: "l7xx-porter", clientSecret: "fedex-s3cr3t", accountNumber: "740561073" };
const CREDENTIALS = {
  client_id: ACCOUNT.clientId,
  client_secret: ACCOUNT.clientSecret,
  account_number: ACCOUNT.accountNumber,
};
const BOX = FEDEX_BOX;
const rateRequest = fedexRateRequest;
const purchaseRequest = fedexPurchaseRequest;

describe("the FedEx API adapter (against the FedEx stand-in)", () => {
  let standIn: FedexStandIn;
  const clock = new ManualClock("2026-11-26T15:00:00Z");
  let real: RealCarrier;

  const open = (credentials: Record<string, unknown> = CREDENTIALS) =>
    fedexApi.open(fedexApi.credentials(credentials)!, standInContext(standIn.baseUrl, clock));

  beforeAll(async () => {
    standIn = await new FedexStandIn(ACCOUNT).start();
    real = open();
  });
  afterAll(() => standIn.stop());
  beforeEach(() => standIn.clearFaults());

  it("verifies the credentials with a form-encoded client-credentials token request", async () => {
    await real.verify();
    const token = standIn.requests.findLast((r) => r.path === "/oauth/token")!;
    expect(token.body).toEqual({ grant_type: "client_credentials", ...CREDENTIALS, account_number: undefined });
    const refused = open({ ...CREDENTIALS, client_secret: "wrong" });
    await expect(refused.verify()).rejects.toThrow(/The given client credentials were not valid/);
    await expect(refused.verify()).rejects.toBeInstanceOf(CarrierError);
    standIn.fail("malformed", { operation: "token" });
    await expect(open().verify()).rejects.toThrow(
      "FedEx answered the token request with something that is not a token.",
    );
  });

  it("rates every FedEx service in one call, with FedEx's surcharges as cost lines and its list rate as retail", async () => {
    const before = standIn.callsTo("rate");
    expect(await real.adapter.rate(rateRequest({ services: [] }))).toEqual([]);
    const rates = await real.adapter.rate(rateRequest({ shipDate: "2026-11-26" }));
    expect(standIn.callsTo("rate")).toBe(before + 1);
    const home = rates.find((r) => r.service.serviceId === 402)!;
    // The stand-in's table: 2 lb × $4.60 + zone 3 × $0.40 = $10.40; fuel 15 %; residential $5.75.
    expect(home.quote).toEqual({
      totalCents: 1040 + 156 + 575,
      billableWeightOz: 32,
      lines: [
        { kind: "base", description: "Transportation", amountCents: 1040 },
        { kind: "fuel", description: "Fuel Surcharge", amountCents: 156 },
        { kind: "residential", description: "Residential delivery surcharge", amountCents: 575 },
      ],
    });
    expect(home).toMatchObject({ zone: "03", priceGroup: "3", rateCalcTypes: ["standard"] });
    expect(home.retailCents).toBeGreaterThan(home.quote!.totalCents);
    expect(rates.find((r) => r.service.serviceId === 392)?.refusal).toBe(
      "FedEx does not offer FedEx Ground for this shipment",
    );
    expect(rates.find((r) => r.service.serviceId === 401)?.refusal).toMatch(/does not offer/);
    const body = standIn.lastBody("rate") as { requestedShipment: Record<string, unknown>; accountNumber: unknown };
    expect(body.accountNumber).toEqual({ value: ACCOUNT.accountNumber });
    // FedEx's own delivery date: the stand-in counts 4 business days from Thursday 26 November.
    expect(home.deliveryDate).toBe("2026-12-02");
    expect(body.requestedShipment).toMatchObject({
      shipDateStamp: "2026-11-26",
      pickupType: "DROPOFF_AT_FEDEX_LOCATION",
      packagingType: "YOUR_PACKAGING",
      rateRequestType: ["ACCOUNT", "LIST"],
      recipient: { address: { postalCode: "84111", countryCode: "US", residential: true } },
    });
  });

  it("prices FedEx packaging at One Rate, and shares a multi-parcel price among the parcels", async () => {
    const pak = { ...BOX, packageType: "fedex_pak" };
    const oneRate = await real.adapter.rate(rateRequest({ parcels: [pak] }));
    expect(oneRate.find((r) => r.service.serviceId === 393)).toMatchObject({ rateCalcTypes: ["flat_rate"] });
    expect(standIn.lastBody("rate")).toMatchObject({
      requestedShipment: {
        packagingType: "FEDEX_PAK",
        shipmentSpecialServices: { specialServiceTypes: ["FEDEX_ONE_RATE"] },
      },
    });
    const [two] = await real.adapter.rate(rateRequest({ parcels: [BOX, BOX], services: [findService(393)!] }));
    const shares = two!.parcelQuotes!.map((q) => q.totalCents);
    expect(shares).toHaveLength(2);
    expect(shares[0]! + shares[1]!).toBe(two!.quote!.totalCents);
    const mixed = await real.adapter.rate(rateRequest({ parcels: [BOX, pak] }));
    expect(mixed.every((r) => r.refusal?.includes("one packaging type"))).toBe(true);
  });

  it("rates a shipment abroad with its customs commodities, as FedEx requires for international rating", async () => {
    const abroad = [401, 399].map((id) => findService(id)!);
    const rates = await real.adapter.rate(rateRequest({ to: TORONTO_RESIDENCE, services: abroad }));
    expect(rates.map((r) => [r.service.serviceId, r.refusal])).toEqual([
      [401, undefined],
      [399, undefined],
    ]);
    expect(rates.every((r) => (r.quote?.totalCents ?? 0) > 0)).toBe(true);
    const shipment = (standIn.lastBody("rate") as { requestedShipment: Record<string, unknown> }).requestedShipment;
    expect(shipment.customsClearanceDetail).toEqual({
      commodities: [
        {
          description: "Parcel contents",
          quantity: 1,
          quantityUnits: "PCS",
          numberOfPieces: 1,
          weight: { units: "LB", value: 1.5 },
        },
      ],
    });
    await real.adapter.rate(rateRequest());
    expect(standIn.lastBody("rate").requestedShipment).not.toHaveProperty("customsClearanceDetail");
  });

  it("retries a 429, renews a refused token once, and fails the carrier on an outage or an unreadable answer", async () => {
    standIn.fail("429", { operation: "rate" });
    expect((await real.adapter.rate(rateRequest())).some((r) => r.quote)).toBe(true);
    standIn.revokeTokens();
    const tokens = standIn.callsTo("token");
    expect((await real.adapter.rate(rateRequest())).some((r) => r.quote)).toBe(true);
    expect(standIn.callsTo("token")).toBe(tokens + 1);
    for (const fault of ["500", "timeout", "malformed"] as const) {
      standIn.fail(fault, { operation: "rate", times: 3 });
      await expect(real.adapter.rate(rateRequest())).rejects.toBeInstanceOf(CarrierError);
      standIn.clearFaults();
    }
  });

  it("buys FedEx's own label in the format asked for, one tracking number per package, priced as FedEx rated it", async () => {
    const bought = await real.adapter.purchase(
      purchaseRequest({
        parcels: [BOX, BOX],
        parcelSerials: [1, 2],
        contents: [
          { reference: "A", items: [] },
          { reference: null, items: [] },
        ],
      }),
    );
    expect(bought.parcels).toHaveLength(2);
    const [first, second] = bought.parcels;
    expect(first!.trackingNumber).not.toBe(second!.trackingNumber);
    expect(first!.label).toMatchObject({ format: "zpl", widthIn: 4, heightIn: 6, dpi: 203 });
    expect(first!.label!.bytes.toString()).toContain(first!.trackingNumber);
    expect(bought.rate.quote!.totalCents).toBeGreaterThan(0);
    expect(bought.rate.deliveryDate).toBe("2026-12-02");
    expect(bought.rate.parcelQuotes!.reduce((s, q) => s + q.totalCents, 0)).toBe(bought.rate.quote!.totalCents);
    const body = standIn.lastBody("ship") as { requestedShipment: Record<string, unknown> };
    expect(body).toMatchObject({ labelResponseOptions: "LABEL", accountNumber: { value: ACCOUNT.accountNumber } });
    expect(body.requestedShipment).toMatchObject({
      serviceType: "GROUND_HOME_DELIVERY",
      shipDatestamp: "2026-11-26",
      labelSpecification: { imageType: "ZPLII", labelStockType: "STOCK_4X6" },
      shipper: { contact: { phoneNumber: "3105550100", companyName: "Acme Fulfillment" } },
      recipients: [{ contact: { personName: "Ann Lee", phoneNumber: "8015550100" } }],
    });
    expect((body.requestedShipment.requestedPackageLineItems as unknown[])[0]).toMatchObject({
      customerReferences: [{ customerReferenceType: "CUSTOMER_REFERENCE", value: "A" }],
    });

    await real.adapter.voidLabels(bought.parcels.map((p) => p.trackingNumber));
    expect(standIn.shipments.get(first!.trackingNumber)?.cancelled).toBe(true);
    await expect(real.adapter.voidLabels([first!.trackingNumber])).rejects.toThrow(/already been cancelled/);
  });

  it("buys a return label from the customer back to the merchant, as FedEx's spec allows", async () => {
    const before = standIn.specViolations.length;
    const purchase = await real.adapter.purchase(
      purchaseRequest({
        from: SALT_LAKE_RESIDENCE,
        to: LOS_ANGELES_WAREHOUSE,
        residential: false,
        returnLabel: { type: "print" },
      }),
    );
    expect(purchase.parcels).toHaveLength(1);
    const sent = standIn.requests.findLast((r) => r.path === "/ship/v1/shipments")!;
    expect(sent.body).toMatchObject({
      requestedShipment: {
        shipmentSpecialServices: {
          specialServiceTypes: ["RETURN_SHIPMENT"],
          returnShipmentDetail: { returnType: "PRINT_RETURN_LABEL" },
        },
      },
    });
    expect(standIn.specViolations.slice(before)).toEqual([]);
  });

  it("makes PDF and PNG labels on paper, and refuses what FedEx does not make", async () => {
    const pdf = await real.adapter.purchase(purchaseRequest({ label: { format: "pdf", size: "4x6" } }));
    expect(pdf.parcels[0]!.label).toMatchObject({ format: "pdf", dpi: 72 });
    expect(pdf.parcels[0]!.label!.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(
      (standIn.lastBody("ship") as { requestedShipment: { labelSpecification: unknown } }).requestedShipment
        .labelSpecification,
    ).toMatchObject({
      imageType: "PDF",
      labelStockType: "PAPER_4X6",
    });
    expect(real.adapter.labelFormats).toEqual(["pdf", "png", "zpl", "epl2"]);
    await expect(real.adapter.purchase(purchaseRequest({ label: { format: "gif", size: "4x6" } }))).rejects.toThrow(
      "FedEx makes labels as pdf, png, zpl, epl2; not gif",
    );
    await expect(
      real.adapter.purchase(purchaseRequest({ from: { ...LOS_ANGELES_WAREHOUSE, phone: null } })),
    ).rejects.toThrow(/phone/);
  });

  it("declares customs for a shipment abroad from the parcels' contents and keeps FedEx's commercial invoice", async () => {
    const abroad = purchaseRequest({
      to: TORONTO_RESIDENCE,
      service: findService(401)!,
      services: [findService(401)!],
      contents: [
        {
          reference: null,
          items: [
            {
              description: "Wool scarf",
              quantity: 2,
              weightOz: 12,
              valueCents: 4550,
              countryOfOrigin: "PE",
              hsTariffCode: "6117.10",
              contentType: "merchandise",
            },
            {
              description: "Greeting card",
              quantity: 1,
              weightOz: 1,
              valueCents: 300,
              countryOfOrigin: null,
              hsTariffCode: null,
              contentType: "merchandise",
            },
          ],
        },
      ],
    });
    const bought = await real.adapter.purchase(abroad);
    expect(bought.parcels).toHaveLength(1);
    const shipment = (standIn.lastBody("ship") as { requestedShipment: Record<string, unknown> }).requestedShipment;
    expect(shipment).toMatchObject({
      serviceType: "INTERNATIONAL_PRIORITY",
      totalWeight: 0.7,
      requestedPackageLineItems: [{ weight: { units: "KG", value: 0.7 } }],
      customsClearanceDetail: {
        dutiesPayment: { paymentType: "RECIPIENT" },
        isDocumentOnly: false,
        commercialInvoice: { shipmentPurpose: "SOLD", termsOfSale: "DAP" },
        totalCustomsValue: { amount: 48.5, currency: "USD" },
        commodities: [
          {
            description: "Wool scarf",
            quantity: 2,
            quantityUnits: "PCS",
            numberOfPieces: 2,
            // The Ship API weighs commodities in kilograms only, and the packages with them.
            weight: { units: "KG", value: 0.4 },
            unitPrice: { amount: 22.75, currency: "USD" },
            customsValue: { amount: 45.5, currency: "USD" },
            countryOfManufacture: "PE",
            harmonizedCode: "611710",
          },
          // Made where it is sent from when the item does not say.
          { description: "Greeting card", unitPrice: { amount: 3 }, countryOfManufacture: "US" },
        ],
      },
      shippingDocumentSpecification: {
        shippingDocumentTypes: ["COMMERCIAL_INVOICE"],
        commercialInvoiceDetail: { documentFormat: { docType: "PDF", stockType: "PAPER_LETTER" } },
      },
    });
    expect((shipment.customsClearanceDetail as { commodities: object[] }).commodities[1]).not.toHaveProperty(
      "harmonizedCode",
    );
    const invoice = bought.customsDocument?.toString("latin1") ?? "";
    expect(invoice.startsWith("%PDF-")).toBe(true);
    expect(invoice).toContain(`/Title (FedEx commercial invoice ${bought.parcels[0]?.trackingNumber})`);
    await expect(real.adapter.purchase({ ...abroad, contents: [{ reference: null, items: [] }] })).rejects.toThrow(
      /contents/,
    );
  });

  it("tracks through FedEx's scans, mapped to Porter's statuses", async () => {
    const bought = await real.adapter.purchase(purchaseRequest());
    const trackingNumber = bought.parcels[0]!.trackingNumber;
    standIn.scan(trackingNumber, {
      date: "2026-11-26T17:30:00-08:00",
      eventType: "PU",
      eventDescription: "Picked up",
      derivedStatusCode: "PU",
      derivedStatus: "Picked up",
    });
    standIn.scan(trackingNumber, {
      date: "2026-11-28T08:05:00-07:00",
      eventType: "OD",
      eventDescription: "On FedEx vehicle for delivery",
      derivedStatusCode: "OD",
      derivedStatus: "On the way",
      scanLocation: { city: "SALT LAKE CITY", stateOrProvinceCode: "UT", postalCode: "84111", countryCode: "US" },
    });
    const report = await real.adapter.track(fedexTrackRequest(trackingNumber, clock.now()));
    expect(report.events.map((e) => [e.code, e.secondaryCode, e.status])).toEqual([
      ["OC", "IN", "pre_transit"],
      ["PU", "PU", "in_transit"],
      ["OD", "OD", "out_for_delivery"],
    ]);
    expect(report.events[2]).toMatchObject({ city: "SALT LAKE CITY", occurredAt: new Date("2026-11-28T15:05:00Z") });
    expect(report.estimatedDeliveryDate).toBe("2026-12-02");
    const unknown = await real.adapter.track({ ...trackingRequestFor("999999999999") });
    expect(unknown.events).toEqual([]);
  });

  it("validates addresses through FedEx and closes the day's Ground shipments", async () => {
    const verdict = await real.adapter.addresses!.validate({
      ...SALT_LAKE_RESIDENCE,
      address1: "220 South State Street",
    });
    expect(verdict).toMatchObject({
      valid: true,
      residential: true,
      address: { address1: "220 SOUTH STATE ST", postal_code: "84111-1234" },
    });
    expect((await real.adapter.addresses!.validate({ ...SALT_LAKE_RESIDENCE, address1: "State St" })).valid).toBe(
      false,
    );

    const manifests = real.adapter.manifests!;
    const piece = {
      shipmentId: 1,
      scope: "domestic" as const,
      packageType: "parcel",
      shipDate: "2026-11-26",
      originPostalCode: "90035",
    };
    expect(
      manifests.refusal(
        { ...piece, serviceCode: "fedex_ground_home" },
        { mailingDate: "2026-11-26", originPostalCode: "90035" },
      ),
    ).toBeUndefined();
    expect(
      manifests.refusal(
        { ...piece, serviceCode: "fedex_2day" },
        { mailingDate: "2026-11-26", originPostalCode: "90035" },
      ),
    ).toMatch(/Express shipments need no close/);
    expect(
      manifests.refusal(
        { ...piece, serviceCode: "fedex_ground", shipDate: "2026-11-27" },
        { mailingDate: "2026-11-26", originPostalCode: "90035" },
      ),
    ).toMatch(/ship date is 2026-11-27.*one ship date at a time/);
    const closed = await manifests.fileManifest({
      mailingDate: "2026-11-26",
      originPostalCode: "90035",
      scope: "domestic",
      serial: 1,
      trackingNumberCount: 1,
    });
    expect(closed.documentNumber).toMatch(/^20261126/);
    // The stand-in's manifest comes in two parts listed out of order: joined by sequence, a PDF.
    expect(readPdf(closed.document!.bytes).text).toContain(`FEDEX GROUND MANIFEST ${closed.documentNumber}`);
    expect(standIn.lastBody("close")).toMatchObject({
      closeReqType: "GCDR",
      groundServiceCategory: "GROUND",
      closeDate: "2026-11-26",
    });
  });
});

function trackingRequestFor(trackingNumber: string) {
  const at = new Date("2026-11-26T15:00:00Z");
  return {
    trackingNumber,
    service: findService(402)!,
    from: LOS_ANGELES_WAREHOUSE,
    to: SALT_LAKE_RESIDENCE,
    labelCreatedAt: at,
    shipDate: "2026-11-26",
    promisedDeliveryDate: "2026-12-02",
    asOf: at,
  };
}
