import type { Kysely } from "kysely";
import { addDays, centralDateAndHour } from "../../carriers/sandbox/carrier-calendar.js";
import type { Database } from "../../storage/schema.js";
import type { DomainServices } from "../services.js";
import { centralTimeInstant } from "../shared/central-time.js";
import { markManifested } from "./batches.repository.js";

export const POSTAL_CLOSE_OUT_JOB = "postal.close_out";
/** USPS closes out the day's labels at 02:00 Central. */
export const CLOSE_OUT_HOUR = 2;

export interface CloseOutPayload {
  /** YYYY-MM-DD: the manifest day whose 02:00 Central this close-out is. */
  day: string;
}

/** The instant of a manifest day's close-out: 02:00 Central, in standard or daylight time as it applies. */
export function closeOutInstant(day: string): Date {
  return centralTimeInstant(day, CLOSE_OUT_HOUR);
}

/** The next manifest day whose close-out is still ahead at `now`. */
export function nextCloseOutDay(now: Date): string {
  const today = centralDateAndHour(now).date;
  return closeOutInstant(today).getTime() > now.getTime() ? today : addDays(today, 1);
}

/**
 * Keeps one close-out job queued: called when a worker starts; each close-out queues the next.
 * A close-out already waiting for the day is left alone, so workers starting together, or two
 * close-outs of one day, do not multiply the chain.
 */
export async function scheduleCloseOut(services: DomainServices): Promise<void> {
  const waiting = await services.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", POSTAL_CLOSE_OUT_JOB)
    .where("state", "in", ["queued", "running"])
    .executeTakeFirst();
  if (waiting) return;
  await queueCloseOut(services, services.db, nextCloseOutDay(services.clock.now()));
}

async function queueCloseOut(services: DomainServices, executor: Kysely<Database>, day: string): Promise<void> {
  const payload = JSON.stringify({ day } satisfies CloseOutPayload);
  const queued = await executor
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", POSTAL_CLOSE_OUT_JOB)
    .where("payload", "=", payload)
    .where("state", "in", ["queued", "running"])
    .executeTakeFirst();
  if (queued) return;
  await services.jobs.enqueue(POSTAL_CLOSE_OUT_JOB, { day } satisfies CloseOutPayload, {
    runAt: closeOutInstant(day),
    maxAttempts: 20,
    executor,
  });
}

/**
 * The automatic postal close-out of a manifest day: every USPS shipment whose manifest day has
 * come (its ship date, or the day after when it was bought on its ship date) and that no batch
 * took becomes `manifested` at the close-out instant, all in one transaction, which also queues
 * the next day's close-out. A worker killed before the commit leaves nothing half closed; the
 * retry closes the same shipments.
 */
export async function closeOutPostalDay(services: DomainServices, payload: CloseOutPayload): Promise<number> {
  const day = payload.day;
  const closedAt = closeOutInstant(day).toISOString();
  const startOfDay = centralTimeInstant(day, 0).toISOString();
  const stamp = services.clock.now().toISOString();
  return services.db.transaction().execute(async (trx) => {
    const closed = await markManifested(
      trx,
      (eb) =>
        eb.and([
          eb("carrier_code", "=", "usps"),
          eb("batch_id", "is", null),
          eb("manifested_at", "is", null),
          eb.or([eb("ship_date", "<", day), eb.and([eb("ship_date", "=", day), eb("created_at", "<", startOfDay)])]),
        ]),
      closedAt,
      stamp,
    );
    await queueCloseOut(services, trx, addDays(day, 1));
    return closed;
  });
}
