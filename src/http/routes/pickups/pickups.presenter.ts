import type { PickupRow } from "../../../domain/pickups/pickups.repository.js";

const ADDRESS_KEYS = [
  "external_id",
  "company",
  "first_name",
  "last_name",
  "nick_name",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "country",
  "postal_code",
  "phone",
  "email",
] as const;

/** Addr-out: every documented key, null when empty. */
export function presentAddress(address: Record<string, unknown>) {
  return Object.fromEntries(
    ADDRESS_KEYS.map((key) => {
      const value = address[key];
      return [key, typeof value === "string" && value.length > 0 ? value : null];
    }),
  ) as Record<(typeof ADDRESS_KEYS)[number], string | null>;
}

export function presentPickup(pickup: PickupRow) {
  return {
    id: pickup.id,
    location: presentAddress(JSON.parse(pickup.location) as Record<string, unknown>),
    pickup_date: pickup.pickup_date,
    status: pickup.status,
    shipment_ids: JSON.parse(pickup.shipment_ids) as number[],
    shipment_batch_ids: JSON.parse(pickup.shipment_batch_ids) as number[],
    external_id: pickup.external_id,
    location_detail: pickup.location_detail,
    special_instructions: pickup.special_instructions,
    package_count: pickup.package_count,
    weight: pickup.weight_oz,
    created_at: pickup.created_at,
    updated_at: pickup.updated_at,
  };
}
