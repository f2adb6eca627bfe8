import { randomInt } from "node:crypto";
import { ownedBy } from "../../storage/owned-by.js";
import type { AddressInput } from "../addresses/standardize-address.js";
import { slices, storableIds } from "../batches/batches.repository.js";
import { type BatchTiming, createBatches } from "../batches/create-batches.js";
import { offlineApi, requireCarrierApi } from "../carriers/carrier-connections.js";
import { DomainError, notFound } from "../errors.js";
import { carrierToday } from "../rates/delivery-date.js";
import type { AccountScope, DomainServices } from "../services.js";
import type { ShipmentRow } from "../shipments/shipments.repository.js";
import { checkPickup, PICKUP_CARRIER_CODE, pickupCapability, withSellersPickups } from "./pickup-availability.js";
import { insertPickup, type PickupRow } from "./pickups.repository.js";

export interface PickupLocation extends AddressInput {
  external_id?: string;
}

export interface NewPickup {
  location?: PickupLocation;
  /** YYYY-MM-DD; the next day USPS comes when absent. */
  pickupDate?: string;
  shipmentIds: readonly number[];
  batchIds: readonly number[];
  /** Batch the shipments first (reference §3.17). */
  createBatch: boolean;
  locationDetail: string | null;
  specialInstructions: string | null;
}

/**
 * Books a USPS pickup for shipments and batches of the account: every one must be a USPS
 * shipment that is bought and not cancelled; the count and weight are summed from their parcels;
 * the day and address must be ones USPS serves. With `createBatch`, the shipments are batched
 * (a SCAN form for the driver) before the pickup is booked.
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
  await requireCarrierApi(services, scope, PICKUP_CARRIER_CODE, "pickup");
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
  refuseIneligible(all, batches);

  const now = services.clock.now();
  const location = input.location ?? fromLocationOf(direct[0] ?? batched[0]);
  const day = input.pickupDate ?? pickupCapability().availability(carrierToday(now), now).pickupDate;
  const checked = checkPickup(location, day, now);
  if (!checked.available) {
    throw new DomainError(
      "pickup.unavailable",
      `${checked.reason}. The next day USPS can come is ${checked.pickupDate}.`,
    );
  }
  const offline = await offlineApi(services, PICKUP_CARRIER_CODE, "pickup");
  if (offline) {
    throw new DomainError(
      "carrier.rejected",
      `USPS returned error: the pickup service is offline${offline.message ? ` (${offline.message})` : ""}.`,
    );
  }
  if (input.createBatch && shipmentIds.length > 0) {
    const unbatched = direct.filter((s) => s.batch_id === null).map((s) => s.id);
    if (unbatched.length > 0) {
      const created = await createBatches(services, scope, { shipmentIds: unbatched, includeMerged: false }, timing);
      batchIds = [...batchIds, ...created.batches.map((b) => b.batch.id)];
    }
  }
  const parcels = await parcelTotals(
    services,
    all.map((s) => s.id),
  );
  const { confirmationNumber } = await withSellersPickups(services, all[0] as ShipmentRow, (pickups) =>
    pickups.schedule({
      location: checked.location,
      pickupDate: day,
      packageCount: parcels.count,
      weightOz: parcels.weightOz,
      serial: randomInt(1, 1_000_000_000),
      locationDetail: input.locationDetail,
      specialInstructions: input.specialInstructions,
    }),
  );
  const stamp = now.toISOString();
  return insertPickup(services.db, {
    account_id: scope.accountId,
    mode: scope.mode,
    carrier_code: PICKUP_CARRIER_CODE,
    status: "REQUESTED",
    location: JSON.stringify({ ...checked.location, external_id: input.location?.external_id ?? null }),
    pickup_date: day,
    shipment_ids: JSON.stringify(shipmentIds),
    shipment_batch_ids: JSON.stringify(batchIds),
    external_id: confirmationNumber,
    location_detail: input.locationDetail,
    special_instructions: input.specialInstructions,
    package_count: parcels.count,
    weight_oz: parcels.weightOz,
    created_at: stamp,
    updated_at: stamp,
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
  return rows;
}

function refuseIneligible(
  shipments: readonly ShipmentRow[],
  batches: readonly { id: number; carrier_code: string }[],
): void {
  const others = [
    ...shipments
      .filter((s) => s.carrier_code !== PICKUP_CARRIER_CODE)
      .map((s) => `shipment ${s.id} (${s.carrier_code})`),
    ...batches.filter((b) => b.carrier_code !== PICKUP_CARRIER_CODE).map((b) => `batch ${b.id} (${b.carrier_code})`),
  ];
  if (others.length > 0) {
    throw new DomainError(
      "pickup.carrier_not_supported",
      `USPS picks up USPS shipments only; not ${others.join(", ")}.`,
    );
  }
  const cancelled = shipments.filter((s) => s.status === "cancel_pending" || s.status === "cancelled");
  if (cancelled.length > 0) {
    throw new DomainError(
      "pickup.shipment_unavailable",
      `Cancelled shipments are not picked up: ${cancelled.map((s) => `shipment ${s.id} is ${s.status}`).join(", ")}.`,
    );
  }
}

function fromLocationOf(shipment: ShipmentRow | undefined): PickupLocation {
  if (!shipment) throw new DomainError("request.invalid", "pickup.location: the address to pick up from is required.");
  return JSON.parse(shipment.from_location) as PickupLocation;
}

async function parcelTotals(services: DomainServices, shipmentIds: readonly number[]) {
  let count = 0;
  let weightOz = 0;
  for (const slice of slices(shipmentIds)) {
    const row = await services.db
      .selectFrom("parcels")
      .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.sum<number>("weight").as("weight")])
      .where("shipment_id", "in", slice)
      .executeTakeFirstOrThrow();
    count += Number(row.count);
    weightOz += Number(row.weight ?? 0);
  }
  return { count, weightOz };
}
