import type { Insertable, Kysely } from "kysely";
import type { Database, MoneyIncidentTable } from "./schema.js";

export type NewMoneyIncident = Omit<
  Insertable<MoneyIncidentTable>,
  "id" | "tracking_numbers" | "created_at" | "repaired_at" | "repair"
> & {
  tracking_numbers?: readonly string[];
};

/** Writes an open incident (in `executor`'s transaction when given one); returns its id. */
export async function insertMoneyIncident(
  executor: Kysely<Database>,
  incident: NewMoneyIncident,
  stamp: string,
): Promise<number> {
  const row = await executor
    .insertInto("money_incidents")
    .values({
      ...incident,
      failure: incident.failure.slice(0, 2000),
      tracking_numbers: JSON.stringify(incident.tracking_numbers ?? []),
      created_at: stamp,
      repaired_at: null,
      repair: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
