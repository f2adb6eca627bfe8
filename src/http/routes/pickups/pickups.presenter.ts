import type { PickupRow } from "../../../domain/pickups/pickups.repository.js";
import { presentAddress } from "../wire/address.js";

export function presentPickup(pickup: PickupRow) {
  return {
    id: pickup.id,
    location: presentAddress(JSON.parse(pickup.location) as Record<string, unknown>),
    pickup_date: pickup.pickup_date,
    status: pickup.status,
    shipment_ids: JSON.parse(pickup.shipment_ids) as number[],
    shipment_batch_ids: JSON.parse(pickup.shipment_batch_ids) as number[],
    external_id: pickup.external_id,
    carrier_code: pickup.carrier_code,
    location_detail: pickup.location_detail,
    special_instructions: pickup.special_instructions,
    package_count: pickup.package_count,
    weight: pickup.weight_oz,
    created_at: pickup.created_at,
    updated_at: pickup.updated_at,
  };
}
