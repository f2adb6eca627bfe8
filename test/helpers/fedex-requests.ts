import type { PurchaseRequest, RateRequest, TrackingRequest } from "../../src/carriers/carrier.js";
import { findService } from "../../src/carriers/registry.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "./shipments.js";

/** One 1.5 lb box, 10 × 8 × 4 in. */
export const FEDEX_BOX = { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" };
/** Ground, Home Delivery, 2Day, Priority Overnight and International Priority. */
const FEDEX = [392, 402, 393, 398, 401].map((id) => findService(id)!);

/** A FedEx rate request from Los Angeles to a Salt Lake City residence, with `overrides` over it. */
export const fedexRateRequest = (overrides: Partial<RateRequest> = {}): RateRequest => ({
  from: LOS_ANGELES_WAREHOUSE,
  to: SALT_LAKE_RESIDENCE,
  parcels: [FEDEX_BOX],
  residential: true,
  services: FEDEX,
  ...overrides,
});

/** A Home Delivery label of one box as a ZPL 4×6, with `overrides` over it. */
export const fedexPurchaseRequest = (overrides: Partial<PurchaseRequest> = {}): PurchaseRequest => ({
  ...fedexRateRequest(),
  service: findService(402)!,
  services: [findService(402)!],
  purchaseKey: "shipment-1",
  parcelSerials: [1],
  shipDate: "2026-11-26",
  label: { format: "zpl", size: "4x6" },
  contents: [{ reference: "order 1001", items: [] }],
  ...overrides,
});

/** Tracking a Home Delivery label of the Los Angeles to Salt Lake City shipment, as of `now`. */
export const fedexTrackRequest = (trackingNumber: string, now: Date): TrackingRequest => ({
  trackingNumber,
  service: findService(402)!,
  from: LOS_ANGELES_WAREHOUSE,
  to: SALT_LAKE_RESIDENCE,
  labelCreatedAt: now,
  shipDate: "2026-11-26",
  promisedDeliveryDate: "2026-12-02",
  asOf: now,
});
