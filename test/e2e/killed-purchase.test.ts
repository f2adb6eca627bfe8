import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import {
  exited,
  PROCESS_TEST_TIMEOUT_MS,
  type RunningServer,
  startServerProcess,
  waitForProcess,
} from "../helpers/processes.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";

const LEASE_MS = 2000;
/** How long a retry used to wait for a running twin before hearing 409 in_progress. */
const TWIN_WAIT_MS = 30_000;

describe("a server process killed mid-purchase", () => {
  let testDb: TestDatabase;
  let dataDir: string;
  const started: ChildProcess[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-killed-purchase-"));
  });
  afterAll(async () => {
    for (const child of started) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited(child).catch(() => {});
      }
    }
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts a process on the shared database and data directory and waits until it answers. */
  async function start(args: string[]): Promise<RunningServer> {
    const running = await startServerProcess(args, {
      ...testDb.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
    });
    started.push(running.child);
    return running;
  }

  // Two server processes start in this test.
  it("answers the retry within seconds, with the purchase recovered and no second label", {
    timeout: 2 * PROCESS_TEST_TIMEOUT_MS,
  }, async () => {
    const stuck = await start(["test/fixtures/stuck-purchase-server.ts"]);
    const testKey = await waitForProcess(
      stuck,
      "the demo test key",
      () => /^test key: (pk_test_\S+)$/m.exec(stuck.output())?.[1],
    );
    const request = {
      method: "POST",
      headers: {
        authorization: `Bearer ${testKey}`,
        "content-type": "application/json",
        "idempotency-key": "order-4711",
      },
      body: JSON.stringify({
        shipment: {
          service_id: 1172,
          label_format: "pdf",
          account_reference: "order-4711",
          from_location: LOS_ANGELES_WAREHOUSE,
          to_location: SALT_LAKE_RESIDENCE,
          parcels: [SMALL_BOX],
        },
      }),
    };
    const lost = fetch(`${stuck.baseUrl}/api/v2/shipments/ship`, request).catch((error: unknown) => error);
    await waitForProcess(stuck, "the purchase to get stuck", () =>
      stuck.output().includes("stuck writing a label") ? true : undefined,
    );
    stuck.child.kill("SIGKILL");
    expect(await exited(stuck.child)).toEqual({ code: null, signal: "SIGKILL" });
    expect(await lost).toBeInstanceOf(Error);

    const db = testDb.db.kysely;
    const [pending] = await db
      .selectFrom("shipments")
      .selectAll()
      .where("account_reference", "=", "order-4711")
      .execute();
    expect(pending?.status).toBe("purchasing");

    const server = await start(["src/cli/index.ts", "serve"]);
    const sent = Date.now();
    const retry = await fetch(`${server.baseUrl}/api/v2/shipments/ship`, request);
    const waitedMs = Date.now() - sent;

    expect(retry.status).toBe(409);
    expect(await retry.json()).toMatchObject({ status: "error", error_code: "shipment.purchase_interrupted" });
    expect(waitedMs).toBeLessThan(TWIN_WAIT_MS);

    const shipments = await db
      .selectFrom("shipments")
      .selectAll()
      .where("account_reference", "=", "order-4711")
      .execute();
    expect(shipments).toHaveLength(1);
    expect(shipments[0]?.status).toBe("failed");
    expect(shipments[0]?.status_reason).toMatch(/labels .+ voided/);
    const labels = await db
      .selectFrom("labels")
      .select("id")
      .where("shipment_id", "=", pending?.id ?? 0)
      .execute();
    expect(labels).toEqual([]);
  });
});
