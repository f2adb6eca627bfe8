import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { refuseShipmentStatuses } from "../helpers/failures.js";
import {
  exited,
  PROCESS_TEST_TIMEOUT_MS,
  type RunningProcess,
  startProcess,
  stopProcess,
  waitForProcess,
} from "../helpers/processes.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const CHILD_LEASE_MS = 2000;

describe("a manifest job interrupted halfway manifests no shipment", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let child: RunningProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    t = await buildTestApp({ config: { manifestDelayMs: 0 } });
    // The child worker runs on the system clock: the jobs must be due in real time.
    t.clock.set(new Date());
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-crash-"));
  });
  afterAll(async () => {
    await stopProcess(child);
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function batchOf(count: number): Promise<{ batchId: number; shipmentIds: number[] }> {
    const shipmentIds: number[] = [];
    for (let i = 0; i < count; i++) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/v2/shipments/ship",
        headers: merchant.auth,
        payload: {
          shipment: shipmentToBuy(),
        },
      });
      shipmentIds.push(response.json().shipment.id);
    }
    // Only the manifest job is left to run: the purchases' recovery jobs are not part of this.
    await t.services.db.deleteFrom("jobs").execute();
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/batches",
      headers: merchant.auth,
      payload: { shipments_ids: shipmentIds },
    });
    expect(created.statusCode, created.body).toBe(201);
    return { batchId: Number(created.json().shipments_batches[0].id), shipmentIds };
  }

  const statuses = async (ids: number[]) => {
    const rows = await t.services.db.selectFrom("shipments").select("status").where("id", "in", ids).execute();
    const parcels = await t.services.db
      .selectFrom("parcels")
      .select("status")
      .where("shipment_id", "in", ids)
      .execute();
    return new Set([...rows, ...parcels].map((r) => r.status));
  };
  const batchStatus = async (id: number) =>
    (await t.services.db.selectFrom("batches").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

  it("rolls the whole batch back when the recording transaction fails midway, then succeeds on retry", async () => {
    const { batchId, shipmentIds } = await batchOf(3);
    const worker = new Worker(t.services.jobs, jobHandlers(t.services), {
      leaseMs: 30_000,
      pollMs: 10,
      retryBaseMs: 1,
    });
    // Parcels are updated first in the transaction; the shipments' update then fails.
    const restore = await refuseShipmentStatuses(t.database.db, ["manifested"]);
    expect(await worker.runOne()).toBe(true);
    expect(await batchStatus(batchId)).toBe("pending");
    expect(await statuses(shipmentIds)).toEqual(new Set(["shipped"]));
    await restore();
    t.clock.advance(1000);
    expect(await worker.runOne()).toBe(true);
    expect(await batchStatus(batchId)).toBe("generated");
    expect(await statuses(shipmentIds)).toEqual(new Set(["manifested"]));
  });

  it("leaves nothing manifested when the worker process is killed mid-job; another worker finishes it", {
    timeout: PROCESS_TEST_TIMEOUT_MS,
  }, async () => {
    t.clock.set(new Date());
    const { batchId, shipmentIds } = await batchOf(5);
    const started = startProcess(["test/fixtures/stalling-manifest-worker.ts"], {
      ...t.processEnv,
      DATA_DIR: dataDir,
      STALL_LEASE_MS: String(CHILD_LEASE_MS),
      LOG_LEVEL: "silent",
    });
    child = started;
    await waitForProcess(started, "the child to write the manifest", () =>
      started.output().includes("wrote ") ? true : undefined,
    );
    const running = started.child;
    running.kill("SIGKILL");
    await exited(running);

    expect(await batchStatus(batchId)).toBe("pending");
    expect(await statuses(shipmentIds)).toEqual(new Set(["shipped"]));

    const job = await t.services.db
      .selectFrom("jobs")
      .selectAll()
      .where("state", "=", "running")
      .executeTakeFirstOrThrow();
    t.clock.set(new Date(new Date(job.locked_until as string).getTime() + 1));
    const rescuer = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    expect(await rescuer.runOne()).toBe(true);
    expect(await batchStatus(batchId)).toBe("generated");
    expect(await statuses(shipmentIds)).toEqual(new Set(["manifested"]));
  });
});
