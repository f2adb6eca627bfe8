import type { Kysely } from "kysely";

/**
 * What a carrier needs besides the confirmation number to cancel a pickup it booked (FedEx: the
 * company that comes and the Express location that took it; DHL Express: who booked it), as JSON.
 * Pickups booked before this need nothing more (null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("pickups").addColumn("carrier_details", "text").execute();
}
