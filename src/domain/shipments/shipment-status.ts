import { TRACKING_STATUSES, type TrackingStatus } from "../../carriers/carrier.js";

/**
 * The shipment lifecycle as a table: code asks "may I move from X to Y?" instead of checking flags.
 * `purchasing` exists only between recording a purchase and the carrier's answer; `failed` is a
 * purchase that did not complete (nothing stays charged).
 */
export const SHIPMENT_STATUSES = [
  "purchasing",
  "failed",
  "shipped",
  "manifested",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "available_for_pickup",
  "returned",
  "exception",
  "cancel_pending",
  "cancelled",
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** The carrier's stages (tracking statuses but `pre_transit`): a label not yet scanned may reach any. */
const JOURNEY_FROM_START = TRACKING_STATUSES.filter(
  (status): status is Exclude<TrackingStatus, "pre_transit"> => status !== "pre_transit",
);

/**
 * Every status change goes through this table (`moveShipment` in the shipments repository guards
 * its write with it). Tracking moves a parcel forward only, but a carrier may skip stages (a label
 * scanned first on delivery), and an exception is left for any later stage; it never moves back
 * from `out_for_delivery` to `in_transit` (`statusAfterEvent` below). Only a label still in
 * Porter's hands (`shipped`, `manifested`) can be cancelled, and a cancelled label gets no
 * tracking, so `cancel_pending` only ever ends `cancelled` when its refund settles.
 */
const TRANSITIONS: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  purchasing: ["shipped", "failed"],
  failed: [],
  shipped: ["manifested", "cancel_pending", ...JOURNEY_FROM_START],
  manifested: ["cancel_pending", ...JOURNEY_FROM_START],
  in_transit: ["out_for_delivery", "available_for_pickup", "delivered", "returned", "exception"],
  out_for_delivery: ["available_for_pickup", "delivered", "returned", "exception"],
  available_for_pickup: ["delivered", "returned", "exception"],
  delivered: [],
  returned: [],
  exception: ["in_transit", "out_for_delivery", "available_for_pickup", "delivered", "returned"],
  cancel_pending: ["cancelled"],
  cancelled: [],
};

export function canMove(from: ShipmentStatus, to: ShipmentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The statuses the table lets reach `to`: what a status write's guard accepts. */
export function movesInto(to: ShipmentStatus): ShipmentStatus[] {
  return SHIPMENT_STATUSES.filter((from) => canMove(from, to));
}

export function isShipmentStatus(value: string): value is ShipmentStatus {
  return (SHIPMENT_STATUSES as readonly string[]).includes(value);
}

/** How far along its journey each trackable status is; tracking only ever moves a parcel forward. */
const JOURNEY_RANK: Partial<Record<ShipmentStatus, number>> = {
  shipped: 0,
  manifested: 0,
  in_transit: 1,
  out_for_delivery: 2,
  exception: 2,
  available_for_pickup: 3,
  delivered: 4,
  returned: 4,
};

/** Whether tracking may still change a parcel in this status (not cancelled, delivered or returned). */
export function isTrackable(status: string): boolean {
  return status !== "delivered" && status !== "returned" && JOURNEY_RANK[status as ShipmentStatus] !== undefined;
}

/**
 * The parcel status after a tracking event reporting `reported` (a tracking status, which may be
 * `pre_transit`). It moves only forward: an exception can happen at any point and is left when
 * the carrier reports progress again; a late "in transit" after "delivered" changes nothing.
 */
export function statusAfterEvent(current: string, reported: string): string {
  if (!isTrackable(current) || !isShipmentStatus(reported) || reported === current) return current;
  const from = JOURNEY_RANK[current as ShipmentStatus] as number;
  const to = JOURNEY_RANK[reported];
  if (to === undefined) return current;
  if (reported === "exception" || current === "exception") return to >= 1 ? reported : current;
  return to > from ? reported : current;
}

/** A shipment is as far along as its least advanced parcel, and never goes back either. */
export function shipmentStatusOf(parcelStatuses: readonly string[], current: string): string {
  let least: string | undefined;
  for (const status of parcelStatuses) {
    const rank = JOURNEY_RANK[status as ShipmentStatus];
    if (rank === undefined) return current;
    if (least === undefined || rank < (JOURNEY_RANK[least as ShipmentStatus] as number)) least = status;
  }
  return least === undefined ? current : statusAfterEvent(current, least);
}
