import type { CarrierAdapter } from "../../carriers/carrier.js";
import { CARRIERS } from "../../carriers/registry.js";
import { ownedBy } from "../../storage/owned-by.js";
import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import type { AccountScope, DomainServices } from "../services.js";
import { type BatchRecord, openForManifesting } from "./batches.repository.js";
import { type BatchTiming, createBatches } from "./create-batches.js";

/**
 * `POST /shipments/batches/daily`: for every carrier that makes daily batches, every shipment of
 * that ship date not yet batched or closed out that its document can take, one request per
 * connection that sold them and per origin ZIP (a SCAN form covers one entry facility; FedEx
 * closes an account's whole day at once, whatever the origin), dated that day.
 */
export async function createDailyBatches(
  services: DomainServices,
  scope: AccountScope,
  shipmentDate: string,
  timing: BatchTiming,
): Promise<BatchRecord[]> {
  const created: BatchRecord[] = [];
  for (const carrier of CARRIERS) {
    const rows = await services.db
      .selectFrom("shipments")
      .select(["id", "carrier_code", "carrier_account_id", "from_location"])
      .where(ownedBy(scope))
      .where("carrier_code", "=", carrier.code)
      .where("ship_date", "=", shipmentDate)
      .where(openForManifesting)
      .orderBy("id")
      .execute();
    const sellers = new Map<number | null, CarrierAdapter>();
    const requests = new Map<string, number[]>();
    const sellerKeys = new Map<CarrierAdapter, number>();
    for (const row of rows) {
      if (!sellers.has(row.carrier_account_id)) {
        sellers.set(row.carrier_account_id, await sellingCarrierOf(services, row));
      }
      const seller = sellers.get(row.carrier_account_id) as CarrierAdapter;
      if (!seller.manifests?.daily) continue;
      if (!sellerKeys.has(seller)) sellerKeys.set(seller, sellerKeys.size);
      const zip = seller.manifests.closesShipDate
        ? ""
        : (JSON.parse(row.from_location) as { postal_code: string }).postal_code.slice(0, 5);
      const key = `${sellerKeys.get(seller)}:${zip}`;
      const ids = requests.get(key);
      if (ids) ids.push(row.id);
      else requests.set(key, [row.id]);
    }
    for (const shipmentIds of requests.values()) {
      const { batches } = await createBatches(
        services,
        scope,
        { shipmentIds, includeMerged: false, mailingDate: shipmentDate, skipIneligible: true },
        timing,
      );
      created.push(...batches);
    }
  }
  return created;
}
