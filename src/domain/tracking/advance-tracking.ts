import type { CarrierAdapter, CarrierTrackingEvent } from "../../carriers/carrier.js";
import { findCarrier } from "../../carriers/registry.js";
import type { Outcome } from "../../carriers/sandbox/tracking-timeline.js";
import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import { DomainError, notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { isTrackable } from "../shipments/shipment-status.js";
import { findShipment, type ShipmentRow } from "../shipments/shipments.repository.js";
import { readCarrierTracking, type TrackingOptions } from "./carrier-tracking.js";
import { type TrackingWrite, withTrackingLock } from "./record-tracking.js";
import { scheduleTrackingRefresh, storeReports } from "./refresh-tracking.js";

/** The statuses the advance control can move a sandbox shipment to. */
export const ADVANCE_TARGETS = [
  "in_transit",
  "out_for_delivery",
  "exception",
  "available_for_pickup",
  "delivered",
  "returned",
] as const;
export type AdvanceTarget = (typeof ADVANCE_TARGETS)[number];

/** The journey ending that reaches a status the drawn ending may not. */
const ENDING_FOR: Partial<Record<AdvanceTarget, Outcome>> = {
  delivered: "delivered",
  exception: "attempted_then_delivered",
  available_for_pickup: "held_for_pickup",
  returned: "returned",
};

/** Far enough ahead to see a whole journey, returns included. */
const WHOLE_JOURNEY_MS = 400 * 24 * 3_600_000;

/** Each parcel's whole planned journey, per ending tried. */
type Plans = Map<string | null, Map<number, CarrierTrackingEvent[]>>;

const finished = (shipment: ShipmentRow) =>
  new DomainError(
    shipment.status === "delivered" || shipment.status === "returned" ? "tracking.complete" : "tracking.not_trackable",
    `Shipment ${shipment.id} is ${shipment.status}; its tracking does not move any more.`,
  );

/**
 * The sandbox's time control for integrators (test mode only): moves a shipment to its next
 * tracking event, or on to the first event reporting `to`, at once. The events are stored and sent
 * on the stream as the carrier would have sent them, and the rest of the journey goes on from now
 * at the usual pace. Asking for an ending the journey would not have (a return, a pickup) switches
 * to a journey that has it, if the parcel has not passed the point where they part.
 */
export async function advanceTracking(
  services: DomainServices,
  scope: AccountScope,
  shipmentId: number,
  to: AdvanceTarget | undefined,
  options: TrackingOptions,
): Promise<void> {
  if (scope.mode !== "test") {
    throw new DomainError("sandbox.test_mode_only", "Sandbox controls work with test API keys only.");
  }
  const found = await findShipment(services.db, scope, shipmentId);
  if (!found || found.status === "purchasing" || found.status === "failed") throw notFound("shipment", shipmentId);
  if (!isTrackable(found.status)) throw finished(found);
  const carrier = await sellingCarrierOf(services, found);
  if (carrier !== findCarrier(found.carrier_code)) {
    throw new DomainError(
      "sandbox.real_carrier",
      `Shipment ${shipmentId} was bought through a real ${carrier.displayName} connection; its tracking comes from ${carrier.displayName}, not from the sandbox's time control.`,
    );
  }
  const now = services.clock.now();
  // The carrier is asked before the transaction: no carrier call holds a lock.
  const plans = await readPlans(services, carrier, found, to, now, options);
  await withTrackingLock(services, found.id, async (trx, current) => {
    const { shipment } = current;
    if (!isTrackable(shipment.status)) throw finished(shipment);
    const chosen = chooseJourney(current, plans, to);
    const lead = current.parcels[0];
    const target = lead ? chosen?.steps.get(lead.id)?.at(-1) : undefined;
    if (!chosen || !target) {
      throw to
        ? new DomainError(
            "tracking.status_unreachable",
            `Shipment ${shipment.id} cannot reach ${to} from where it is (${shipment.status}).`,
          )
        : new DomainError("tracking.complete", `Shipment ${shipment.id} has no further tracking event.`);
    }
    // The journey moves ahead so that its target event happens now.
    const aheadMs = Math.max(0, target.occurredAt.getTime() - now.getTime());
    await trx
      .updateTable("shipments")
      .set({
        tracking_shift_ms: shipment.tracking_shift_ms + aheadMs * options.timeScale,
        tracking_outcome: chosen.outcome,
      })
      .where("id", "=", shipment.id)
      .execute();
    const reports = [...chosen.steps.entries()].map(([parcelId, steps]) => ({
      parcelId,
      report: {
        events: steps.map((event) => ({ ...event, occurredAt: new Date(event.occurredAt.getTime() - aheadMs) })),
        estimatedDeliveryDate: current.parcels.find((p) => p.id === parcelId)?.estimated_delivery_date ?? null,
        nextEventAt: null,
      },
    }));
    await storeReports(services, trx, current, reports, now, options);
    // Read again at once: the read finds nothing new and schedules itself for the next event.
    await scheduleTrackingRefresh(services, trx, shipment.id, now);
  });
}

async function readPlans(
  services: DomainServices,
  carrier: CarrierAdapter,
  shipment: ShipmentRow,
  to: AdvanceTarget | undefined,
  now: Date,
  options: TrackingOptions,
): Promise<Plans> {
  const parcels = await services.db.selectFrom("parcels").selectAll().where("shipment_id", "=", shipment.id).execute();
  const endings = new Set<string | null>([
    shipment.tracking_outcome,
    ...(to && ENDING_FOR[to] ? [ENDING_FOR[to]] : []),
  ]);
  const plans: Plans = new Map();
  for (const ending of endings) {
    const byParcel = new Map<number, CarrierTrackingEvent[]>();
    for (const parcel of parcels) {
      const asOf = new Date(now.getTime() + WHOLE_JOURNEY_MS);
      byParcel.set(parcel.id, (await readCarrierTracking(carrier, shipment, parcel, asOf, options, ending)).events);
    }
    plans.set(ending, byParcel);
  }
  return plans;
}

/**
 * The first journey (the current one, then one with the asked-for ending) that agrees with the
 * events already stored and still has the target ahead, with each parcel's events up to it.
 */
function chooseJourney(
  current: TrackingWrite,
  plans: Plans,
  to: AdvanceTarget | undefined,
): { outcome: string | null; steps: Map<number, CarrierTrackingEvent[]> } | undefined {
  for (const [outcome, byParcel] of plans) {
    const steps = new Map<number, CarrierTrackingEvent[]>();
    let agrees = true;
    for (const parcel of current.parcels) {
      const planned = byParcel.get(parcel.id) ?? [];
      const stored = current.stored.filter((e) => e.parcel_id === parcel.id && e.sequence !== null);
      agrees &&= stored.every((e) => planned.find((p) => p.sequence === e.sequence)?.code === e.code);
      const lastSequence = Math.max(0, ...stored.map((e) => e.sequence ?? 0));
      const ahead = planned.filter((e) => e.sequence > lastSequence);
      const end = to ? ahead.findIndex((e) => e.status === to) : ahead.length > 0 ? 0 : -1;
      if (end >= 0) steps.set(parcel.id, ahead.slice(0, end + 1));
    }
    const lead = current.parcels[0];
    if (agrees && lead && steps.has(lead.id)) return { outcome, steps };
  }
  return undefined;
}
