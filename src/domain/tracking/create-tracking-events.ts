import type { TrackingLocation, TrackingStatus } from "../../carriers/carrier.js";
import { DomainError, notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { isTrackable } from "../shipments/shipment-status.js";
import { findShipment } from "../shipments/shipments.repository.js";
import { recordTrackingEvents, withTrackingLock } from "./record-tracking.js";

/**
 * The shipping-partner events of Publication 199 a GDE shipper may report before USPS has the
 * parcel, in eHub's words, and where each leaves the parcel.
 */
export const GDE_EVENT_CODES = {
  80: { description: "Pre-shipment information sent to USPS", status: "pre_transit" },
  81: { description: "Package arrived at USPS facility", status: "in_transit" },
  82: { description: "Package departed USPS facility", status: "in_transit" },
} as const satisfies Record<number, { description: string; status: TrackingStatus }>;
export type GdeEventCode = keyof typeof GDE_EVENT_CODES;

export interface CustomTrackingEvent extends TrackingLocation {
  code: GdeEventCode;
  secondaryCode: number | null;
  description: string | null;
  occurredAt: Date;
}

/** GDE (Global Direct Entry) services are the ones whose code says so. */
export function isGdeService(serviceCode: string): boolean {
  return serviceCode.includes("_gde");
}

/**
 * Adds one custom event to every parcel of each shipment (eHub's GDE tracking events). Every
 * shipment is checked first, so one unknown, foreign, non-GDE or cancelled shipment refuses the
 * whole request; then each shipment's events are stored and sent on the stream with its tracking.
 */
export async function createTrackingEvents(
  services: DomainServices,
  scope: AccountScope,
  shipmentIds: readonly number[],
  event: CustomTrackingEvent,
): Promise<void> {
  const ids = [...new Set(shipmentIds)];
  for (const id of ids) {
    const shipment = await findShipment(services.db, scope, id);
    if (!shipment || shipment.status === "purchasing" || shipment.status === "failed") throw notFound("shipment", id);
    if (!isGdeService(shipment.service_code)) {
      throw new DomainError(
        "tracking_event.not_gde",
        `Shipment ${id} ships with ${shipment.service_code}; custom tracking events are for GDE services only.`,
      );
    }
    if (!isTrackable(shipment.status) && shipment.status !== "delivered" && shipment.status !== "returned") {
      throw new DomainError("tracking.not_trackable", `Shipment ${id} is ${shipment.status}; it has no tracking.`);
    }
  }
  const words = GDE_EVENT_CODES[event.code];
  for (const id of ids) {
    await withTrackingLock(services, id, async (trx, current) => {
      await recordTrackingEvents(
        services,
        trx,
        current,
        current.parcels.map((parcel) => ({
          parcelId: parcel.id,
          source: "custom" as const,
          sequence: null,
          code: String(event.code),
          secondaryCode: event.secondaryCode === null ? null : String(event.secondaryCode),
          description: event.description ?? words.description,
          status: words.status,
          city: event.city,
          state: event.state,
          postalCode: event.postalCode,
          country: event.country,
          occurredAt: event.occurredAt,
        })),
      );
    });
  }
}
