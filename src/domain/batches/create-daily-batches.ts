import { CARRIERS } from "../../carriers/registry.js";
import { ownedBy } from "../../storage/owned-by.js";
import type { AccountScope, DomainServices } from "../services.js";
import type { BatchRecord } from "./batches.repository.js";
import { type BatchTiming, createBatches } from "./create-batches.js";

/**
 * `POST /shipments/batches/daily`: for every carrier that makes daily batches, every shipment of
 * that ship date not yet batched or closed out, one request per origin ZIP (a SCAN form covers one
 * entry facility), dated that day.
 */
export async function createDailyBatches(
  services: DomainServices,
  scope: AccountScope,
  shipmentDate: string,
  timing: BatchTiming,
): Promise<BatchRecord[]> {
  const created: BatchRecord[] = [];
  for (const carrier of CARRIERS.filter((c) => c.manifests?.daily)) {
    const rows = await services.db
      .selectFrom("shipments")
      .select(["id", "from_location"])
      .where(ownedBy(scope))
      .where("carrier_code", "=", carrier.code)
      .where("ship_date", "=", shipmentDate)
      .where("status", "=", "shipped")
      .where("batch_id", "is", null)
      .where("manifested_at", "is", null)
      .orderBy("id")
      .execute();
    const byOrigin = new Map<string, number[]>();
    for (const row of rows) {
      const zip = (JSON.parse(row.from_location) as { postal_code: string }).postal_code.slice(0, 5);
      const ids = byOrigin.get(zip);
      if (ids) ids.push(row.id);
      else byOrigin.set(zip, [row.id]);
    }
    for (const shipmentIds of byOrigin.values()) {
      const { batches } = await createBatches(
        services,
        scope,
        { shipmentIds, includeMerged: false, mailingDate: shipmentDate },
        timing,
      );
      created.push(...batches);
    }
  }
  return created;
}
