import type { Transaction } from "kysely";
import { CarrierCallError } from "../../carriers/api-client/carrier-http-client.js";
import { CarrierError, type TrackingReport } from "../../carriers/carrier.js";
import type { QueuedJob } from "../../jobs/queue.js";
import type { Database } from "../../storage/schema.js";
import { auditAcceptedParcels } from "../adjustments/adjust-shipment.js";
import { carrierServiceStatuses, sellingCarrierOf } from "../carriers/carrier-connections.js";
import type { DomainServices } from "../services.js";
import { isTrackable } from "../shipments/shipment-status.js";
import { readCarrierTracking, type TrackingOptions } from "./carrier-tracking.js";
import {
  type NewTrackingEvent,
  recordTrackingEvents,
  type TrackingWrite,
  withTrackingLock,
} from "./record-tracking.js";
import { nextRefreshAt } from "./refresh-schedule.js";

export const REFRESH_TRACKING_JOB = "shipment.refresh_tracking";

export interface RefreshTrackingPayload {
  shipmentId: number;
  /** The `tracking_refresh_at` this job was enqueued for; a job whose time was replaced does nothing. */
  due: string;
}

/**
 * Sets when a shipment's tracking is next read and enqueues the job that reads it, in the caller's
 * transaction. A job enqueued earlier for another time finds its time replaced and does nothing,
 * so a shipment has one live refresh however often it is rescheduled.
 */
export async function scheduleTrackingRefresh(
  services: DomainServices,
  trx: Transaction<Database>,
  shipmentId: number,
  at: Date | null,
): Promise<void> {
  const due = at?.toISOString() ?? null;
  await trx.updateTable("shipments").set({ tracking_refresh_at: due }).where("id", "=", shipmentId).execute();
  if (!due || !at) return;
  const payload: RefreshTrackingPayload = { shipmentId, due };
  await services.jobs.enqueue(REFRESH_TRACKING_JOB, payload, { runAt: at, executor: trx, maxAttempts: 10 });
}

/**
 * The refresh job: reads each parcel's tracking from the carrier, stores what is new (and sends it
 * on the event stream), and schedules the next read, backing off as the parcel ages. It stops for
 * a shipment delivered, returned or cancelled. A carrier that does not answer (or whose tracking
 * API the operator marked offline) leaves the parcels marked stale since the first failure.
 */
export async function refreshTracking(
  services: DomainServices,
  payload: RefreshTrackingPayload,
  options: TrackingOptions,
): Promise<void> {
  const now = services.clock.now();
  const reports = await readReports(services, payload, now, options);
  await withTrackingLock(services, payload.shipmentId, async (trx, current) => {
    const { shipment } = current;
    if (shipment.tracking_refresh_at !== payload.due) return;
    if (!isTrackable(shipment.status) || reports === "not_trackable") {
      await scheduleTrackingRefresh(services, trx, shipment.id, null);
      return;
    }
    const labelCreatedAt = new Date(shipment.shipped_at ?? shipment.created_at);
    if (reports instanceof Date) {
      await scheduleTrackingRefresh(services, trx, shipment.id, reports);
      return;
    }
    if (reports === "unanswered") {
      await trx
        .updateTable("parcels")
        .set({ tracking_stale_since: now.toISOString() })
        .where("shipment_id", "=", shipment.id)
        .where("tracking_stale_since", "is", null)
        .execute();
      await scheduleTrackingRefresh(services, trx, shipment.id, nextRefreshAt(labelCreatedAt, now, null));
      return;
    }
    await storeReports(services, trx, current, reports, now, options);
    const after = await trx.selectFrom("shipments").select("status").where("id", "=", shipment.id).executeTakeFirst();
    const nextEvent = reports
      .map((r) => r.report.nextEventAt)
      .filter((at): at is Date => at !== null)
      .sort((a, b) => a.getTime() - b.getTime())[0];
    const next = isTrackable(after?.status ?? shipment.status)
      ? nextRefreshAt(labelCreatedAt, now, nextEvent ?? null, options.timeScale)
      : null;
    await scheduleTrackingRefresh(services, trx, shipment.id, next);
  });
}

interface ParcelReport {
  parcelId: number;
  report: TrackingReport;
}

/** The carrier is asked outside any transaction (a slow carrier must not hold locks). */
async function readReports(
  services: DomainServices,
  payload: RefreshTrackingPayload,
  now: Date,
  options: TrackingOptions,
): Promise<ParcelReport[] | "unanswered" | "not_trackable" | Date> {
  const shipment = await services.db
    .selectFrom("shipments")
    .selectAll()
    .where("id", "=", payload.shipmentId)
    .executeTakeFirst();
  if (!shipment || !isTrackable(shipment.status)) return "not_trackable";
  if (shipment.tracking_refresh_at !== payload.due) return [];
  const offline = (await carrierServiceStatuses(services)).some(
    (s) => s.carrier_code === shipment.carrier_code && s.api_service === "tracking" && s.status === "offline",
  );
  if (offline) return "unanswered";
  const parcels = await services.db.selectFrom("parcels").selectAll().where("shipment_id", "=", shipment.id).execute();
  const carrier = await sellingCarrierOf(services, shipment);
  try {
    return await Promise.all(
      parcels.map(async (parcel) => ({
        parcelId: parcel.id,
        report: await readCarrierTracking(carrier, shipment, parcel, now, options),
      })),
    );
  } catch (error) {
    // Not asked at all: the connection's hourly budget is spent (or its breaker open); read again when it allows.
    if (error instanceof CarrierCallError && error.retryAt) return error.retryAt;
    if (error instanceof CarrierError) return "unanswered";
    throw error;
  }
}

/**
 * Stores the events a carrier reported that are not stored yet. No event is dated before the
 * label was bought or before the latest stored one, and the events of one report have distinct,
 * increasing times up to now: the sandbox's advance control pulls a planned journey forward, and
 * its early events would otherwise land before the purchase or on one instant.
 */
export async function storeReports(
  services: DomainServices,
  trx: Transaction<Database>,
  current: TrackingWrite,
  reports: readonly ParcelReport[],
  now: Date,
  options: TrackingOptions,
): Promise<void> {
  const fresh: NewTrackingEvent[] = [];
  const labelBoughtAt = Date.parse(current.shipment.shipped_at ?? current.shipment.created_at);
  for (const { parcelId, report } of reports) {
    const stored = current.stored.filter((e) => e.parcel_id === parcelId);
    const lastSequence = Math.max(0, ...stored.map((e) => e.sequence ?? 0));
    const latestStored = Math.max(...stored.map((e) => Date.parse(e.event_timestamp) + 1), -Infinity);
    const events = report.events.filter((event) => event.sequence > lastSequence);
    const times = spacedTimes(
      events.map((event) => event.occurredAt.getTime()),
      Math.max(labelBoughtAt, latestStored),
      now.getTime(),
    );
    events.forEach((event, index) => {
      fresh.push({ ...event, parcelId, source: "carrier", occurredAt: new Date(times[index] ?? now.getTime()) });
    });
    await trx
      .updateTable("parcels")
      .set({
        estimated_delivery_date: report.estimatedDeliveryDate,
        tracking_updated_at: now.toISOString(),
        tracking_stale_since: null,
      })
      .where("id", "=", parcelId)
      .execute();
  }
  const stored = await recordTrackingEvents(services, trx, current, fresh);
  // USPS audits a parcel once it has it: the first in-transit event is its acceptance.
  const accepted = current.parcels.filter(
    (parcel) =>
      stored.some((e) => e.parcel_id === parcel.id && e.status === "in_transit") &&
      !current.stored.some((e) => e.parcel_id === parcel.id && e.status === "in_transit"),
  );
  await auditAcceptedParcels(services, trx, current.shipment, accepted, options.auditPercent ?? 0);
}

/**
 * Times for events planned at `planned` (in order), none before `earliest` nor after `now`: when
 * the plan starts earlier, its span up to now is scaled into [earliest, now], keeping the events'
 * order and proportions. Each time is then at least 1 ms after the one before, so no two events
 * share an instant, and none after now (only when the window holds fewer milliseconds than events
 * do the last ones pass now by those few milliseconds).
 */
export function spacedTimes(planned: readonly number[], earliest: number, now: number): number[] {
  const capped = planned.map((time) => Math.min(time, now));
  const start = Math.min(capped[0] ?? earliest, earliest);
  const scale = now > start ? (now - Math.max(earliest, start)) / (now - start) : 0;
  let previous = earliest - 1;
  const forward = capped.map((time) => {
    const scaled = Math.max(earliest, start) + Math.round((time - start) * scale);
    previous = Math.max(scaled, previous + 1);
    return previous;
  });
  // Times pushed past now by the 1 ms steps are pulled back below their successors when there is room.
  let next = now + 1;
  const backward = forward
    .map((_, index) => forward[forward.length - 1 - index] as number)
    .map((time) => {
      next = Math.min(time, next - 1);
      return next;
    });
  return next >= earliest ? backward.reverse() : forward;
}

/** A label's tracking is first read a minute after purchase, when the carrier has its data. */
export const FIRST_TRACKING_READ_MS = 60_000;

/**
 * The job of a shipment's first tracking read, a minute from `from`, for its purchase to queue
 * beside its other jobs in one statement; it reads only once the shipment's `tracking_refresh_at`
 * is set to `due` (a purchase that failed never sets it, and the job does nothing).
 */
export function firstTrackingRead(shipmentId: number, from: Date): { job: QueuedJob; due: string } {
  const at = new Date(from.getTime() + FIRST_TRACKING_READ_MS);
  const due = at.toISOString();
  return {
    job: {
      kind: REFRESH_TRACKING_JOB,
      payload: { shipmentId, due } satisfies RefreshTrackingPayload,
      runAt: at,
      maxAttempts: 10,
    },
    due,
  };
}
