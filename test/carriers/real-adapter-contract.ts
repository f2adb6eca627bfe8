import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CarrierAdapter,
  type CarrierAddress,
  CarrierError,
  type ParcelContents,
  TRACKING_STATUSES,
} from "../../src/carriers/carrier.js";
import type { RatedParcel } from "../../src/carriers/catalogue.js";
import type { RealCarrier, RealCarrierFactory } from "../../src/carriers/real-carrier.js";
import { findService } from "../../src/carriers/registry.js";
import { ManualClock } from "../../src/clock.js";
import { storedCarrierLabel } from "../../src/labels/images/carrier-raster.js";
import type { LabelFormat } from "../../src/labels/label.js";
import { standInContext } from "../stand-ins/stand-in-server.js";

/** A carrier's stand-in as the contract drives it. */
export interface RunningStandIn {
  baseUrl: string;
  /** Makes the carrier's rating API fail the next calls as an outage would. */
  failRating(): void;
  clearFaults(): void;
  stop(): Promise<void>;
}

/** What each real carrier adapter hands the shared contract. */
export interface RealAdapterSubject {
  name: string;
  factory: RealCarrierFactory<unknown>;
  startStandIn(): Promise<RunningStandIn>;
  /** Credentials the stand-in accepts, and a set it refuses. */
  credentials: Record<string, unknown>;
  refusedCredentials: Record<string, unknown>;
  from: CarrierAddress;
  to: CarrierAddress;
  parcels: RatedParcel[];
  /** Porter service ids to rate; the first is bought. */
  serviceIds: number[];
  /** Whether the carrier voids labels (DHL Express does not). */
  voids: boolean;
  /** What each parcel holds, for carriers that declare it (international); none when absent. */
  contents?: ParcelContents[];
}

/** The first bytes each label format starts with. */
const SIGNATURES: Record<LabelFormat, (bytes: Buffer) => boolean> = {
  pdf: (b) => b.subarray(0, 5).toString("latin1") === "%PDF-",
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8,
  gif: (b) => b.subarray(0, 4).toString("latin1") === "GIF8",
  tiff: (b) => ["II*\0", "MM\0*"].includes(b.subarray(0, 4).toString("latin1")),
  zpl: (b) => b.toString("latin1").includes("^XA"),
  epl2: (b) => /^\s*N\s*$/m.test(b.toString("latin1")),
};

/**
 * The contract every real carrier adapter keeps, run against its stand-in: credentials parsed and
 * verified, rates as whole quotes in integer cents or refusals, failures as CarrierError, labels
 * in every format it claims with one tracking number per parcel, tracking in Porter's statuses,
 * and voids (or a clear refusal where the carrier has none).
 */
export function describeRealAdapterContract(subject: RealAdapterSubject): void {
  describe(`the real ${subject.name} adapter keeps the carrier adapter contract`, () => {
    let standIn: RunningStandIn;
    let real: RealCarrier;
    let adapter: CarrierAdapter;
    const clock = new ManualClock();
    const open = (credentials: Record<string, unknown>) =>
      subject.factory.open(subject.factory.credentials(credentials), standInContext(standIn.baseUrl, clock));
    const services = () => subject.serviceIds.map((id) => findService(id)).filter((s) => s !== undefined);
    const request = () => ({
      from: subject.from,
      to: subject.to,
      parcels: subject.parcels,
      residential: false,
      services: services(),
    });
    let serial = 1000;
    const buy = (format: LabelFormat) => {
      const service = services()[0];
      if (!service) throw new Error("the subject names no known service");
      serial += subject.parcels.length;
      return adapter.purchase({
        ...request(),
        services: [service],
        service,
        purchaseKey: `contract-${serial}`,
        parcelSerials: subject.parcels.map((_, index) => serial + index),
        shipDate: clock.now().toISOString().slice(0, 10),
        label: { format, size: "4x6" },
        contents: subject.contents ?? subject.parcels.map(() => ({ reference: null, items: [] })),
      });
    };

    beforeAll(async () => {
      standIn = await subject.startStandIn();
      real = open(subject.credentials);
      adapter = real.adapter;
    });
    afterAll(() => standIn.stop());

    it("reads no credentials as a sandbox connection", () => {
      expect(subject.factory.credentials({})).toBeUndefined();
    });

    it("verifies credentials the carrier accepts and refuses others with the carrier's words", async () => {
      await expect(real.verify()).resolves.toBeUndefined();
      await expect(open(subject.refusedCredentials).verify()).rejects.toBeInstanceOf(CarrierError);
    });

    it("answers each service with a whole quote in integer cents whose lines add up, or a refusal", async () => {
      const rates = await adapter.rate(request());
      expect(rates.length).toBeGreaterThan(0);
      for (const rate of rates) {
        expect(subject.serviceIds.map((id) => findService(id)?.serviceCode)).toContain(rate.service.serviceCode);
        if (rate.refusal !== undefined) {
          expect(rate.refusal).toMatch(/\S/);
          continue;
        }
        const quote = rate.quote;
        expect(quote).toBeDefined();
        expect(Number.isInteger(quote?.totalCents)).toBe(true);
        expect(quote?.totalCents).toBeGreaterThan(0);
        expect(quote?.lines.reduce((sum, line) => sum + line.amountCents, 0)).toBe(quote?.totalCents);
        for (const line of quote?.lines ?? []) expect(Number.isInteger(line.amountCents)).toBe(true);
      }
      expect(rates.some((rate) => rate.quote !== undefined)).toBe(true);
    });

    it("fails a carrier outage as a CarrierError, never another error", async () => {
      standIn.failRating();
      try {
        await expect(adapter.rate(request())).rejects.toBeInstanceOf(CarrierError);
      } finally {
        standIn.clearFaults();
        clock.advance(61_000);
      }
    });

    it("claims the label formats it sells and delivers each, one tracking number and label per parcel", async () => {
      if (!adapter.apis.includes("label")) return;
      expect(adapter.labelFormats?.length).toBeGreaterThan(0);
      const seen = new Set<string>();
      for (const format of adapter.labelFormats ?? []) {
        const purchase = await buy(format);
        expect(purchase.parcels).toHaveLength(subject.parcels.length);
        for (const parcel of purchase.parcels) {
          expect(parcel.trackingNumber).toMatch(/^[A-Z0-9]{8,40}$/);
          expect(seen.has(parcel.trackingNumber)).toBe(false);
          seen.add(parcel.trackingNumber);
          const made = parcel.label;
          if (!made) throw new Error(`no ${format} label for ${parcel.trackingNumber}`);
          expect(made.widthIn).toBeGreaterThan(0);
          expect(made.heightIn).toBeGreaterThan(0);
          // What the carrier made is either the format asked or a raster Porter re-encodes into it.
          const stored = await storedCarrierLabel(made, format);
          expect(SIGNATURES[format](stored.bytes), `${format} signature`).toBe(true);
        }
        expect(Number.isInteger(purchase.rate.quote?.totalCents)).toBe(true);
      }
    });

    it("tracks a label it sold in Porter's statuses, oldest event first", async () => {
      if (!adapter.apis.includes("label") || !adapter.apis.includes("tracking")) return;
      const format = adapter.labelFormats?.[0] ?? "pdf";
      const purchase = await buy(format);
      const trackingNumber = purchase.parcels[0]?.trackingNumber as string;
      const service = services()[0];
      if (!service) return;
      const report = await adapter.track({
        trackingNumber,
        service,
        from: subject.from,
        to: subject.to,
        labelCreatedAt: clock.now(),
        shipDate: clock.now().toISOString().slice(0, 10),
        promisedDeliveryDate: clock.now().toISOString().slice(0, 10),
        asOf: clock.now(),
      });
      const times = report.events.map((event) => event.occurredAt.getTime());
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      for (const event of report.events) expect(TRACKING_STATUSES).toContain(event.status);
    });

    it(
      subject.voids ? "voids labels it sold" : "answers a void with its rule, as a CarrierError if it refuses",
      async () => {
        if (!adapter.apis.includes("label")) return;
        const purchase = await buy(adapter.labelFormats?.[0] ?? "pdf");
        const numbers = purchase.parcels.map((parcel) => parcel.trackingNumber);
        if (subject.voids) {
          await expect(adapter.voidLabels(numbers)).resolves.toBeUndefined();
          return;
        }
        const refusal = await adapter.voidLabels(numbers).catch((error: unknown) => error);
        if (refusal !== undefined) expect(refusal).toBeInstanceOf(CarrierError);
      },
    );
  });
}
