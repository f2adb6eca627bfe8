import type { Kysely, Selectable } from "kysely";
import { insertMoneyIncident, type NewMoneyIncident } from "../../storage/money-incidents.js";
import type { Database, MoneyIncidentTable } from "../../storage/schema.js";
import type { DomainServices } from "../services.js";

export type MoneyIncidentRow = Selectable<MoneyIncidentTable>;

/** What a shipment's incident names about it. */
export interface IncidentShipment {
  id: number;
  account_id: number;
  mode: "test" | "production";
  carrier_code: string;
}

/** The shipment's ids as an incident records them. */
export function shipmentIds(shipment: IncidentShipment) {
  return {
    account_id: shipment.account_id,
    mode: shipment.mode,
    shipment_id: shipment.id,
    carrier_code: shipment.carrier_code,
  };
}

/**
 * Logs an incident with its ids, then records it (in `executor`'s transaction when given one) for
 * the repair job and the operator. Returns its id. The log line comes first: if the database is
 * what failed, it is the only trace.
 */
export async function recordMoneyIncident(
  services: DomainServices,
  incident: NewMoneyIncident,
  executor: Kysely<Database> = services.db,
): Promise<number> {
  services.logger?.error({ incident }, `money incident: ${incident.kind}`);
  return insertMoneyIncident(executor, incident, services.clock.now().toISOString());
}

/**
 * Records an incident beside a failure the caller goes on to throw, with the job that repairs it
 * (given `{ incidentId }`) in the same transaction. A record that cannot be written is logged with
 * the incident's ids, never thrown over the failure itself.
 */
export async function recordBesideFailure(
  services: DomainServices,
  incident: NewMoneyIncident,
  repairJob?: string,
): Promise<void> {
  try {
    await services.db.transaction().execute(async (trx) => {
      const incidentId = await recordMoneyIncident(services, incident, trx);
      if (repairJob) await services.jobs.enqueue(repairJob, { incidentId }, { maxAttempts: 10, executor: trx });
    });
  } catch (error) {
    services.logger?.error({ incident, err: error }, "money incident could not be recorded");
  }
}

export async function findMoneyIncident(db: Kysely<Database>, id: number): Promise<MoneyIncidentRow | undefined> {
  return db.selectFrom("money_incidents").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Open incidents, oldest first: what `porter doctor` lists. */
export async function openMoneyIncidents(db: Kysely<Database>): Promise<MoneyIncidentRow[]> {
  return db.selectFrom("money_incidents").selectAll().where("repaired_at", "is", null).orderBy("id").execute();
}

/** Marks open incidents repaired, saying how; `where` picks them by id, or by shipment and kind. */
export async function markRepaired(
  services: DomainServices,
  where: { id: number } | { shipmentId: number; kind: MoneyIncidentRow["kind"] },
  repair: string,
  executor: Kysely<Database> = services.db,
): Promise<void> {
  let update = executor
    .updateTable("money_incidents")
    .set({ repaired_at: services.clock.now().toISOString(), repair })
    .where("repaired_at", "is", null);
  update =
    "id" in where
      ? update.where("id", "=", where.id)
      : update.where("shipment_id", "=", where.shipmentId).where("kind", "=", where.kind);
  await update.execute();
}
