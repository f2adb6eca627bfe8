import type { CarrierAdapter, TrackingReport } from "../../carriers/carrier.js";
import { findService } from "../../carriers/registry.js";
import { carrierToday } from "../rates/delivery-date.js";
import { postalCancelDeadline } from "../shipments/cancel-window.js";
import type { ShipmentAddress } from "../shipments/new-shipment.js";
import type { ParcelRow, ShipmentRow } from "../shipments/shipments.repository.js";

/** How the sandbox carriers' clock runs (`SANDBOX_TIME_SCALE`); real carriers ignore it. */
export interface TrackingOptions {
  timeScale: number;
  /** Percent of sandbox USPS parcels found different from their labels when accepted (`SANDBOX_AUDIT_PERCENT`). */
  auditPercent?: number;
}

/** Asks the shipment's carrier for one parcel's tracking as of `asOf`. */
export async function readCarrierTracking(
  carrier: CarrierAdapter,
  shipment: ShipmentRow,
  parcel: ParcelRow,
  asOf: Date,
  options: TrackingOptions,
  outcome: string | null = shipment.tracking_outcome,
): Promise<TrackingReport> {
  const service = findService(shipment.service_id);
  if (!service || !parcel.tracking_number) return { events: [], estimatedDeliveryDate: null, nextEventAt: null };
  return carrier.track({
    trackingNumber: parcel.tracking_number,
    service,
    from: JSON.parse(shipment.from_location) as ShipmentAddress,
    to: JSON.parse(shipment.to_location) as ShipmentAddress,
    labelCreatedAt: new Date(shipment.shipped_at ?? shipment.created_at),
    shipDate: shipment.ship_date,
    promisedDeliveryDate: shipment.delivery_date ?? shipment.ship_date,
    acceptedAt: shipment.manifested_at ? new Date(shipment.manifested_at) : undefined,
    // USPS takes a parcel once its label data is closed out (02:00 Central on the manifest day),
    // which is also when the label stops being cancellable.
    acceptedNotBefore:
      shipment.carrier_code === "usps"
        ? postalCancelDeadline(shipment.ship_date, carrierToday(new Date(shipment.created_at)))
        : undefined,
    asOf,
    simulation: { timeScale: options.timeScale, shiftMs: shipment.tracking_shift_ms, outcome },
  });
}
