import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CarrierAdapter, PurchaseRequest } from "../../../src/carriers/carrier.js";
import { findService } from "../../../src/carriers/registry.js";
import { uspsApi } from "../../../src/carriers/usps/api/index.js";
import { ManualClock } from "../../../src/clock.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../../helpers/shipments.js";
import { standInContext } from "../../stand-ins/stand-in-server.js";
import { STAND_IN_USPS_CREDENTIALS, UspsStandIn } from "../../stand-ins/usps/usps-stand-in.js";

const CREDENTIALS = STAND_IN_USPS_CREDENTIALS;
const FROM = LOS_ANGELES_WAREHOUSE;
const TO = SALT_LAKE_RESIDENCE;
const PARCEL = { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" };

/** The real USPS adapter, as a connection opens it, against the USPS stand-in. */
describe("the USPS API adapter (against the USPS stand-in)", () => {
  let standIn: UspsStandIn;
  let clock: ManualClock;
  let usps: CarrierAdapter;

  beforeAll(async () => {
    standIn = await new UspsStandIn({
      clientId: CREDENTIALS.client_id,
      clientSecret: CREDENTIALS.client_secret,
    }).start();
    clock = new ManualClock();
    standIn.clock = clock;
    const credentials = uspsApi.credentials(CREDENTIALS);
    if (!credentials) throw new Error("real USPS credentials");
    usps = uspsApi.open(credentials, standInContext(standIn.baseUrl, clock, 2000)).adapter;
  });
  afterAll(() => standIn.stop());

  const purchaseRequest = (overrides: Partial<PurchaseRequest> = {}): PurchaseRequest => {
    const service = findService(1172)!;
    return {
      from: FROM,
      to: TO,
      parcels: [PARCEL],
      residential: true,
      services: [service],
      service,
      purchaseKey: "shipment-1",
      parcelSerials: [1],
      shipDate: "2026-01-15",
      label: { format: "pdf", size: "4x6" },
      contents: [{ reference: "order 1001", items: [] }],
      ...overrides,
    };
  };

  it("says which label formats USPS makes", () => {
    expect(usps.labelFormats).toEqual(["pdf", "png", "jpeg", "gif", "tiff", "zpl", "epl2"]);
    expect(usps.apis).toEqual(["rate", "label", "manifest", "tracking", "pickup"]);
  });

  it("buys one label per parcel, the file as USPS made it, priced as USPS charged", async () => {
    const purchase = await usps.purchase(
      purchaseRequest({ parcels: [PARCEL, { ...PARCEL, weightOz: 40 }], parcelSerials: [1, 2] }),
    );
    expect(purchase.parcels).toHaveLength(2);
    const [first] = purchase.parcels;
    expect(first?.label?.bytes.toString("latin1")).toContain(`USPS stand-in label ${first?.trackingNumber}`);
    expect(first?.label).toMatchObject({ format: "pdf", widthIn: 4, heightIn: 6, dpi: 72 });
    expect(first?.barcodeData).toBe(`42084111${first?.trackingNumber}`);
    // 2 lb × $5.20 + zone 2 × $0.35, and 3 lb × $5.20 + $0.70.
    expect(purchase.rate.parcelQuotes?.map((q) => q.totalCents)).toEqual([1110, 1630]);
    expect(purchase.rate.quote?.totalCents).toBe(2740);
    expect(purchase.rate.zone).toBe("02");
    const calls = standIn.requests.filter((r) => r.path === "/labels/v3/label");
    expect(calls.at(-1)?.body).toMatchObject({ imageInfo: { packageNumber: 2, totalPackages: 2 } });
  });

  it("reads USPS's default multipart answer as well as its JSON one", async () => {
    standIn.multipartAnswers = true;
    try {
      const purchase = await usps.purchase(purchaseRequest({ label: { format: "png", size: "4x6" } }));
      expect(purchase.parcels[0]?.label?.bytes.subarray(0, 4).toString("latin1")).toBe("\x89PNG");
    } finally {
      standIn.multipartAnswers = false;
    }
  });

  it("buys a return label through Labels' returns call, customer to merchant, and voids it", async () => {
    for (const multipart of [false, true]) {
      standIn.multipartAnswers = multipart;
      try {
        const purchase = await usps.purchase(
          purchaseRequest({ from: TO, to: FROM, residential: false, returnLabel: { type: "scan_based" } }),
        );
        const trackingNumber = purchase.parcels[0]?.trackingNumber as string;
        expect(purchase.parcels[0]?.label?.bytes.toString("latin1")).toContain(`USPS stand-in label ${trackingNumber}`);
        expect(purchase.rate.quote?.totalCents).toBeGreaterThan(0);
        const sent = standIn.requests.filter((r) => r.path === "/labels/v3/return-label").at(-1)?.body;
        expect(sent).toMatchObject({
          fromAddress: { ZIPCode: TO.postal_code.slice(0, 5) },
          toAddress: { ZIPCode: FROM.postal_code.slice(0, 5) },
          packageDescription: { mailClass: "USPS_GROUND_ADVANTAGE_RETURN_SERVICE" },
        });
        await usps.voidLabels([trackingNumber]);
        expect(standIn.labels.get(trackingNumber)?.status).toBe("canceled");
      } finally {
        standIn.multipartAnswers = false;
      }
    }
    expect(standIn.specViolations).toEqual([]);
  });

  it("refuses a return label abroad or in a mail class without a return service, before asking USPS", async () => {
    const before = standIn.requests.length;
    await expect(
      usps.purchase(purchaseRequest({ service: findService(688)!, returnLabel: { type: "print" } })),
    ).rejects.toThrow(/return labels for Ground Advantage, Priority Mail and Priority Mail Express only/);
    await expect(
      usps.purchase(purchaseRequest({ service: findService(691)!, returnLabel: { type: "print" } })),
    ).rejects.toThrow(/within the US only/);
    expect(standIn.requests.slice(before).filter((r) => r.path.startsWith("/labels/"))).toEqual([]);
  });

  it("voids the labels bought before a parcel USPS refuses, and fails in USPS's words", async () => {
    const before = standIn.labels.size;
    await expect(
      usps.purchase(
        purchaseRequest({
          parcels: [PARCEL, { ...PARCEL, weightOz: 80 * 16 }],
          parcelSerials: [1, 2],
        }),
      ),
    ).rejects.toThrow(/70 pounds/);
    const sold = [...standIn.labels.values()].slice(before);
    expect(sold.map((l) => l.status)).toEqual(["canceled"]);
  });

  it("voids by tracking number, and names the labels USPS would not void", async () => {
    const { parcels } = await usps.purchase(purchaseRequest());
    const trackingNumber = parcels[0]?.trackingNumber as string;
    await usps.voidLabels([trackingNumber]);
    expect(standIn.labels.get(trackingNumber)?.status).toBe("canceled");
    await expect(usps.voidLabels([trackingNumber])).rejects.toThrow(new RegExp(`${trackingNumber}: .*Order not found`));
  });

  it("buys an international label with its customs form, and voids it through International Labels", async () => {
    const service = findService(691)!;
    const purchase = await usps.purchase(
      purchaseRequest({
        service,
        services: [service],
        to: { ...TO, state: "ON", country: "CA", postal_code: "M5H 2N2", city: "Toronto" },
        contents: [
          {
            reference: null,
            items: [
              {
                description: "T-shirt",
                quantity: 1,
                weightOz: 8,
                valueCents: 1500,
                countryOfOrigin: "US",
                hsTariffCode: null,
                contentType: "merchandise",
                eelPfc: "NOEEI 30.37(a)",
              },
            ],
          },
        ],
      }),
    );
    const trackingNumber = purchase.parcels[0]?.trackingNumber as string;
    expect(trackingNumber).toMatch(/^CP\d{9}US$/);
    const sent = standIn.labels.get(trackingNumber)?.request as {
      toAddress: Record<string, unknown>;
      customsForm: Record<string, unknown>;
    };
    expect(sent.toAddress).toMatchObject({ country: "Canada", countryISOAlpha2Code: "CA" });
    expect(sent.customsForm).toMatchObject({ AESITN: "NOEEI 30.37(a)" });
    expect(purchase.rate).toMatchObject({ zone: null, priceGroup: "1" });
    await usps.voidLabels([trackingNumber]);
    expect(standIn.labels.get(trackingNumber)?.status).toBe("canceled");
    await expect(
      usps.purchase(
        purchaseRequest({
          service,
          services: [service],
          to: { ...TO, country: "CA" },
          label: { format: "png", size: "4x6" },
        }),
      ),
    ).rejects.toThrow(/international labels as pdf, tiff, zpl/);
  });

  it("retries a label whose answer was lost with the same X-Idempotency-Key, so USPS sells it once", async () => {
    const labelsBefore = standIn.labels.size;
    const callsBefore = standIn.requests.length;
    standIn.fail("sold-then-500", { operation: "labels", times: 1 });
    const purchase = await usps.purchase(purchaseRequest());
    const calls = standIn.requests.slice(callsBefore).filter((r) => r.path === "/labels/v3/label");
    expect(calls).toHaveLength(2);
    expect(calls[0]?.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(calls[1]?.idempotencyKey).toBe(calls[0]?.idempotencyKey);
    expect(standIn.labels.size).toBe(labelsBefore + 1);
    expect(standIn.labels.has(purchase.parcels[0]?.trackingNumber as string)).toBe(true);
  });

  it("gives each label of a shipment its own X-Idempotency-Key", async () => {
    const callsBefore = standIn.requests.length;
    await usps.purchase(purchaseRequest({ parcels: [PARCEL, PARCEL], parcelSerials: [1, 2] }));
    const keys = standIn.requests
      .slice(callsBefore)
      .map((r) => r.idempotencyKey)
      .filter(Boolean);
    expect(new Set(keys).size).toBe(2);
  });

  it("bills an international label by its dimensional weight, which International Labels gives in pounds", async () => {
    const service = findService(691)!;
    const item = {
      description: "Pillow",
      quantity: 1,
      weightOz: 16,
      valueCents: 1500,
      countryOfOrigin: "US",
      hsTariffCode: null,
      contentType: "merchandise",
      eelPfc: "NOEEI 30.37(a)",
    };
    const purchase = await usps.purchase(
      purchaseRequest({
        service,
        services: [service],
        parcels: [{ lengthIn: 14, widthIn: 12, heightIn: 12, weightOz: 16, packageType: "parcel" }],
        to: { ...TO, state: "ON", country: "CA", postal_code: "M5H 2N2", city: "Toronto" },
        contents: [{ reference: null, items: [item] }],
      }),
    );
    const trackingNumber = purchase.parcels[0]?.trackingNumber as string;
    // The stand-in answers 14 × 12 × 12 / 166 = 12.1 lb, as International Labels writes it ("12.1").
    expect(purchase.rate.parcelQuotes?.[0]?.billableWeightOz).toBe(Math.round(12.1 * 16));
    await usps.voidLabels([trackingNumber]);
  });

  it("tracks through Package Tracking, and a number USPS does not know has no events", async () => {
    const { parcels } = await usps.purchase(purchaseRequest());
    const trackingNumber = parcels[0]?.trackingNumber as string;
    standIn.scan(trackingNumber, {
      eventCode: "01",
      eventType: "Delivered, Front Door/Porch",
      at: new Date("2026-01-17T19:00:00Z"),
    });
    const service = findService(1172)!;
    const request = {
      trackingNumber,
      service,
      from: FROM,
      to: TO,
      labelCreatedAt: clock.now(),
      shipDate: "2026-01-15",
      promisedDeliveryDate: "2026-01-19",
      asOf: clock.now(),
    };
    const report = await usps.track(request);
    expect(report.events.map((e) => [e.code, e.status])).toEqual([
      ["GX", "pre_transit"],
      ["01", "delivered"],
    ]);
    expect((await usps.track({ ...request, trackingNumber: "9400100000000000000000" })).events).toEqual([]);
  });

  it("validates US addresses through Addresses", async () => {
    const verdict = await usps.addresses?.validate({ ...TO, address1: "220 South State Street" });
    expect(verdict).toMatchObject({
      valid: true,
      residential: true,
      address: { address1: "220 S STATE ST", postal_code: "84111-1234" },
    });
    const nowhere = await usps.addresses?.validate({ ...TO, address1: "1 Nowhere Lane" });
    expect(nowhere).toMatchObject({ valid: false, reasons: [expect.stringContaining("There is no match")] });
    await expect(usps.addresses?.validate({ ...TO, country: "CA" })).rejects.toThrow(/US addresses only/);
  });

  it("books and cancels a carrier pickup, cancelling with the pickup's ETag", async () => {
    const pickups = usps.pickups!;
    const { confirmationNumber } = await pickups.schedule({
      location: FROM,
      pickupDate: "2026-01-16",
      packageCount: 2,
      weightOz: 48,
      serial: 1,
      locationDetail: "mail room",
      specialInstructions: null,
      shipments: [],
      now: new Date("2026-01-15T15:00:00Z"),
    });
    expect(standIn.pickups.get(confirmationNumber)?.request).toMatchObject({
      pickupLocation: { packageLocation: "MAIL_ROOM" },
      estimatedWeight: 3,
    });
    await pickups.cancel({ confirmationNumber, pickupDate: "2026-01-16" });
    expect(standIn.pickups.get(confirmationNumber)?.cancelled).toBe(true);
    const deletion = standIn.requests.findLast((r) => r.method === "DELETE" && r.path.includes(confirmationNumber));
    expect(deletion).toBeDefined();
    await expect(
      pickups.schedule({
        location: { ...FROM, postal_code: "99999" },
        pickupDate: "2026-01-16",
        packageCount: 1,
        weightOz: 16,
        serial: 2,
        locationDetail: null,
        specialInstructions: null,
        shipments: [],
        now: new Date("2026-01-15T15:00:00Z"),
      }),
    ).rejects.toThrow(/not available at this address/);
  });

  it("files a SCAN form for labels and answers USPS's EFN and its own form", async () => {
    const { parcels } = await usps.purchase(purchaseRequest());
    const trackingNumber = parcels[0]?.trackingNumber as string;
    const { documentNumber, document } = await usps.manifests!.fileManifest({
      mailingDate: "2026-01-15",
      originPostalCode: "90035",
      scope: "domestic",
      serial: 1,
      trackingNumberCount: 1,
      trackingNumbers: [trackingNumber],
      from: FROM,
    });
    expect(documentNumber).toBe(standIn.labels.get(trackingNumber)?.manifestNumber);
    expect(document?.format).toBe("pdf");
    expect(document?.bytes.toString("latin1")).toContain(`(USPS SCAN Form ${documentNumber})`);
  });

  it("asks for the payment token once for its eight hours, and again after", async () => {
    const before = standIn.callsTo("payments");
    await Promise.all([usps.purchase(purchaseRequest()), usps.purchase(purchaseRequest())]);
    expect(standIn.callsTo("payments")).toBe(before);
    clock.advance(8 * 60 * 60_000);
    await usps.purchase(purchaseRequest());
    expect(standIn.callsTo("payments")).toBe(before + 1);
  });
});
