/**
 * The batch benchmark (part of `npm run bench`; alone: `node --import tsx scripts/bench-batch.ts`):
 * shipments already bought are put into one batch and its SCAN form generated, as the API and the
 * manifest job do it, on a fresh SQLite database. It reports the time and the heap at its highest
 * above where it started, for a small and a large batch: a streamed document needs no more
 * memory for ten thousand pieces than for one thousand.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openServices } from "../src/app.js";
import { impbTrackingNumber } from "../src/carriers/usps/tracking-number.js";
import { ManualClock } from "../src/clock.js";
import { loadConfig } from "../src/config.js";
import { createAccount } from "../src/domain/accounts/create-account.js";
import { createBatches, type ManifestPayload } from "../src/domain/batches/create-batches.js";
import { generateManifests } from "../src/domain/batches/generate-manifests.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../test/helpers/shipments.js";

export interface BatchMeasurement {
  shipments: number;
  createMs: number;
  generateMs: number;
  /** Highest heap in use above the heap before each step, sampled every 5 ms. */
  createPeakHeapMb: number;
  generatePeakHeapMb: number;
  pages: number;
}

export async function measureBatch(shipments: number): Promise<BatchMeasurement> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-batch-"));
  const clock = new ManualClock("2026-01-15T15:00:00.000Z");
  const services = await openServices({ ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }) }, clock);
  try {
    const account = await createAccount(services, { name: "Bench" });
    const scope = { accountId: account.id, mode: "test" as const };
    const ids = await seedShipments(services, scope.accountId, shipments);
    const create = await measured(() =>
      createBatches(services, scope, { shipmentIds: ids, includeMerged: false }, { manifestDelayMs: 0 }),
    );
    const payload: ManifestPayload = { batchIds: create.result.batches.map((b) => b.batch.id), mergedFile: null };
    const generate = await measured(() => generateManifests(services, payload));
    const batch = await services.db
      .selectFrom("batches")
      .select("document_file")
      .where("id", "=", payload.batchIds[0] as number)
      .executeTakeFirstOrThrow();
    const pdf = (await services.files.get(batch.document_file as string))?.toString("latin1") ?? "";
    return {
      shipments,
      createMs: create.ms,
      generateMs: generate.ms,
      createPeakHeapMb: create.peakHeapMb,
      generatePeakHeapMb: generate.peakHeapMb,
      pages: Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(pdf)?.[1] ?? 0),
    };
  } finally {
    await services.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Time taken and the heap at its highest above where it started (sampled every 5 ms). */
async function measured<T>(run: () => Promise<T>): Promise<{ result: T; ms: number; peakHeapMb: number }> {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { result, ms, peakHeapMb: (peak - before) / 1_048_576 };
}

/** Bought USPS Ground Advantage shipments with one parcel each, written straight to the database. */
export async function seedShipments(
  services: Awaited<ReturnType<typeof openServices>>,
  accountId: number,
  count: number,
): Promise<number[]> {
  const stamp = services.clock.now().toISOString();
  return services.db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const shipment = await trx
        .insertInto("shipments")
        .values({
          account_id: accountId,
          mode: "test",
          status: "shipped",
          status_reason: null,
          carrier_code: "usps",
          service_id: 1172,
          service_code: "usps_ground_advantage",
          order_id: null,
          account_reference: null,
          to_location: JSON.stringify(SALT_LAKE_RESIDENCE),
          from_location: JSON.stringify(LOS_ANGELES_WAREHOUSE),
          return_location: null,
          ship_date: "2026-01-15",
          label_format: "pdf",
          label_size: "4x6",
          label_text1: null,
          label_text2: null,
          rate_cents: 700,
          cost_details: "[]",
          zone: "04",
          delivery_days: 3,
          delivery_date: "2026-01-20",
          delivery_guaranteed: 0,
          batch_id: null,
          shipped_at: stamp,
          manifested_at: null,
          cancel_requested_at: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("parcels")
        .values({
          shipment_id: shipment.id,
          position: 0,
          length: 10,
          width: 8,
          height: 4,
          weight: 24,
          package_type: "parcel",
          name: null,
          status: "shipped",
          tracking_number: impbTrackingNumber(shipment.id, {
            channel: "94",
            serviceTypeCode: "001",
            mailerId: "999000001",
          }),
          barcode_data: null,
          cost_cents: 700,
          cost_details: "[]",
          parcel_items: "[]",
          customs_data: null,
          service_options: "{}",
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
      ids.push(shipment.id);
    }
    return ids;
  });
}

export function batchTable(rows: readonly BatchMeasurement[]): string {
  const lines = [
    "| shipments in the batch | create (ms) | documents generated (ms) | total (s) | SCAN form pages | peak heap, create (MB) | peak heap, documents (MB) |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.shipments} | ${Math.round(row.createMs)} | ${Math.round(row.generateMs)} | ${((row.createMs + row.generateMs) / 1000).toFixed(2)} | ${row.pages} | ${row.createPeakHeapMb.toFixed(1)} | ${row.generatePeakHeapMb.toFixed(1)} |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = [await measureBatch(1000), await measureBatch(10_000)];
  console.log(batchTable(rows));
}
