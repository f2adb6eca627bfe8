import { randomInt } from "node:crypto";
import type { PickupShipment } from "../../carriers/carrier.js";
import { findService } from "../../carriers/registry.js";
import { ownedBy } from "../../storage/owned-by.js";
import type { AddressInput } from "../addresses/standardize-address.js";
import { slices, storableIds } from "../batches/batches.repository.js";
import { type BatchTiming, createBatches } from "../batches/create-batches.js";
import { offlineApi, requireCarrierApi } from "../carriers/carrier-connections.js";
import { callingCarrier, carrierUnavailable } from "../carriers/carrier-failure.js";
import { DomainError, notFound } from "../errors.js";
import { carrierToday } from "../rates/delivery-date.js";
import type { AccountScope, DomainServices } from "../services.js";
import type { ShipmentRow } from "../shipments/shipments.repository.js";
import { checkPickup, sellersPickupCarrier } from "./pickup-availability.js";
import { insertPickup, type PickupRow } from "./pickups.repository.js";

export interface PickupLocation extends AddressInput {
  external_id?: string;
}

export interface NewPickup {
  location?: PickupLocation;
  /** YYYY-MM-DD; the next day the carrier comes when absent. */
  pickupDate?: string;
  shipmentIds: readonly number[];
  batchIds: readonly number[];
  /** Batch the shipments first. */
  createBatch: boolean;
  locationDetail: string | null;
  specialInstructions: string | null;
}

/**
 * Books a pickup for shipments and batches of the account with the carrier that sold their labels,
 * through the same connection: every one must be of that one carrier connection, bought and not
 * cancelled; the count and weight are summed from their parcels; the day and address must be ones
 * the carrier serves. With `createBatch`, the shipments are batched (a SCAN form for the driver)
 * before the pickup is booked.
 */
export async function createPickup(
  services: DomainServices,
  scope: AccountScope,
  input: NewPickup,
  timing: BatchTiming,
): Promise<PickupRow> {
  const shipmentIds = [...new Set(input.shipmentIds)];
  let batchIds = [...new Set(input.batchIds)];
  if (shipmentIds.length === 0 && batchIds.length === 0) {
    throw new DomainError(
      "request.invalid",
      "pickup: name the shipments (shipment_ids) or batches (shipment_batch_ids) to pick up.",
    );
  }
  const direct = await shipmentsIn(services, scope, { ids: shipmentIds });
  for (const id of shipmentIds) if (!direct.some((s) => s.id === id)) throw notFound("shipment", id);
  const storableBatchIds = storableIds(batchIds);
  const batches = storableBatchIds.length
    ? await services.db
        .selectFrom("batches")
        .select(["id", "carrier_code"])
        .where(ownedBy(scope))
        .where("id", "in", storableBatchIds)
        .execute()
    : [];
  for (const id of batchIds) if (!batches.some((b) => b.id === id)) throw notFound("batch", id);
  const batched = await shipmentsIn(services, scope, { batchIds });
  const all = [...direct, ...batched.filter((s) => !shipmentIds.includes(s.id))];
  const first = refuseIneligible(all, batches);
  const carrier = await sellersPickupCarrier(services, first);
  await requireCarrierApi(services, scope, first.carrier_code, "pickup");

  const now = services.clock.now();
  const location = input.location ?? fromLocationOf(direct[0] ?? batched[0]);
  const day = input.pickupDate ?? carrier.pickups.availability(carrierToday(now), now, location).pickupDate;
  const checked = checkPickup(carrier, location, day, now);
  if (!checked.available) {
    throw new DomainError(
      "pickup.unavailable",
      `${checked.reason}. The next day ${carrier.displayName} can come is ${checked.pickupDate}.`,
    );
  }
  const offline = await offlineApi(services, carrier.code, "pickup");
  if (offline) {
    throw carrierUnavailable(
      carrier.displayName,
      `the pickup service is offline${offline.message ? ` (${offline.message})` : ""}.`,
    );
  }
  if (input.createBatch && shipmentIds.length > 0) {
    const unbatched = direct.filter((s) => s.batch_id === null).map((s) => s.id);
    if (unbatched.length > 0) {
      const created = await createBatches(services, scope, { shipmentIds: unbatched, includeMerged: false }, timing);
      batchIds = [...batchIds, ...created.batches.map((b) => b.batch.id)];
    }
  }
  const parcels = await parcelsOf(
    services,
    all.map((s) => s.id),
  );
  const weightOz = parcels.reduce((sum, p) => sum + p.weight, 0);
  const { confirmationNumber, details } = await callingCarrier(services.clock, () =>
    carrier.pickups.schedule({
      location: checked.location,
      pickupDate: day,
      packageCount: parcels.length,
      weightOz,
      serial: randomInt(1, 1_000_000_000),
      locationDetail: input.locationDetail,
      specialInstructions: input.specialInstructions,
      shipments: pickupShipments(all, parcels),
      now,
    }),
  );
  const stamp = now.toISOString();
  return insertPickup(services.db, {
    account_id: scope.accountId,
    mode: scope.mode,
    carrier_code: carrier.code,
    status: "REQUESTED",
    location: JSON.stringify({ ...checked.location, external_id: input.location?.external_id ?? null }),
    pickup_date: day,
    shipment_ids: JSON.stringify(shipmentIds),
    shipment_batch_ids: JSON.stringify(batchIds),
    external_id: confirmationNumber,
    location_detail: input.locationDetail,
    special_instructions: input.specialInstructions,
    package_count: parcels.length,
    weight_oz: weightOz,
    created_at: stamp,
    updated_at: stamp,
    carrier_details: details ? JSON.stringify(details) : null,
  });
}

/** Bought shipments of the scope by their ids, or by the batches they are on. */
async function shipmentsIn(
  services: DomainServices,
  scope: AccountScope,
  by: { ids: readonly number[] } | { batchIds: readonly number[] },
): Promise<ShipmentRow[]> {
  const rows: ShipmentRow[] = [];
  const [column, values] = "ids" in by ? (["id", by.ids] as const) : (["batch_id", by.batchIds] as const);
  for (const slice of slices(storableIds(values))) {
    rows.push(
      ...(await services.db
        .selectFrom("shipments")
        .selectAll()
        .where(ownedBy(scope))
        .where("status", "not in", ["purchasing", "failed"])
        .where(column, "in", slice)
        .execute()),
    );
  }
  // In the order asked for, so "the first shipment" (whose sender is the pickup's address when
  // none is given) and the carriers an error names do not depend on the engine's row order.
  const rank = new Map(values.map((value, index) => [value, index]));
  const rankOf = (row: ShipmentRow) => rank.get((column === "id" ? row.id : row.batch_id) as number) ?? 0;
  return rows.sort((a, b) => rankOf(a) - rankOf(b) || a.id - b.id);
}

/** The first shipment, once all are of one carrier connection and none is cancelled. */
function refuseIneligible(
  shipments: readonly ShipmentRow[],
  batches: readonly { id: number; carrier_code: string }[],
): ShipmentRow {
  const carriers = [...new Set([...shipments, ...batches].map((s) => s.carrier_code))];
  if (carriers.length > 1) {
    throw new DomainError(
      "pickup.mixed_carriers",
      `A pickup is for one carrier's shipments; these are of ${carriers.join(", ")}. Book one pickup per carrier.`,
    );
  }
  const first = shipments[0];
  if (!first) throw new DomainError("request.invalid", "pickup: the batches named hold no shipments.");
  if (new Set(shipments.map((s) => s.carrier_account_id)).size > 1) {
    throw new DomainError(
      "pickup.mixed_carriers",
      `These ${first.carrier_code} shipments were bought through different connections of the account; book one pickup per connection.`,
    );
  }
  const cancelled = shipments.filter((s) => s.status === "cancel_pending" || s.status === "cancelled");
  if (cancelled.length > 0) {
    throw new DomainError(
      "pickup.shipment_unavailable",
      `Cancelled shipments are not picked up: ${cancelled.map((s) => `shipment ${s.id} is ${s.status}`).join(", ")}.`,
    );
  }
  return first;
}

function fromLocationOf(shipment: ShipmentRow | undefined): PickupLocation {
  if (!shipment) throw new DomainError("request.invalid", "pickup.location: the address to pick up from is required.");
  return JSON.parse(shipment.from_location) as PickupLocation;
}

interface PickedParcel {
  shipment_id: number;
  length: number;
  width: number;
  height: number;
  weight: number;
  package_type: string;
  tracking_number: string | null;
}

async function parcelsOf(services: DomainServices, shipmentIds: readonly number[]): Promise<PickedParcel[]> {
  const rows: PickedParcel[] = [];
  for (const slice of slices(shipmentIds)) {
    rows.push(
      ...(await services.db
        .selectFrom("parcels")
        .select(["shipment_id", "length", "width", "height", "weight", "package_type", "tracking_number"])
        .where("shipment_id", "in", slice)
        .orderBy("shipment_id")
        .orderBy("position")
        .execute()),
    );
  }
  return rows;
}

/** The shipments as the carrier lists them on a pickup: service, destination, parcels and tracking numbers. */
function pickupShipments(shipments: readonly ShipmentRow[], parcels: readonly PickedParcel[]): PickupShipment[] {
  return shipments.flatMap((shipment) => {
    const service = findService(shipment.service_id);
    if (!service) return [];
    const own = parcels.filter((p) => p.shipment_id === shipment.id);
    return [
      {
        service,
        trackingNumbers: own.map((p) => p.tracking_number).filter((n): n is string => n !== null),
        toCountry: (JSON.parse(shipment.to_location) as { country: string }).country,
        parcels: own.map((p) => ({
          lengthIn: p.length,
          widthIn: p.width,
          heightIn: p.height,
          weightOz: p.weight,
          packageType: p.package_type,
        })),
      },
    ];
  });
}
