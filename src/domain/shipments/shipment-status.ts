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

const TRANSITIONS: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  purchasing: ["shipped", "failed"],
  failed: [],
  shipped: ["manifested", "in_transit", "cancel_pending", "exception"],
  manifested: ["in_transit", "cancel_pending", "exception"],
  in_transit: ["out_for_delivery", "delivered", "available_for_pickup", "returned", "exception"],
  out_for_delivery: ["delivered", "available_for_pickup", "returned", "exception", "in_transit"],
  available_for_pickup: ["delivered", "returned", "exception"],
  delivered: [],
  returned: [],
  exception: ["in_transit", "returned", "delivered"],
  // The carrier scanned the label after all: the charge stands and the shipment goes on.
  cancel_pending: ["cancelled", "shipped", "manifested", "in_transit"],
  cancelled: [],
};

export function canMove(from: ShipmentStatus, to: ShipmentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isShipmentStatus(value: string): value is ShipmentStatus {
  return (SHIPMENT_STATUSES as readonly string[]).includes(value);
}
