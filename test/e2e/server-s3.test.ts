import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import {
  PROCESS_TEST_TIMEOUT_MS,
  type RunningServer,
  startServerProcess,
  stopProcess,
  waitForProcess,
} from "../helpers/processes.js";
import { startS3Server, type TestS3Server } from "../helpers/s3-server.js";
import { shipmentToBuy } from "../helpers/shipments.js";

describe("a server process configured with FILE_STORE_URL=s3://…", () => {
  let testDb: TestDatabase;
  let dataDir: string;
  let s3: TestS3Server;
  let server: RunningServer | undefined;
  let testKey: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-e2e-s3-"));
    // Only the environment names the store: endpoint, region and keys as every AWS tool reads them.
    const running = await startServerProcess(["src/cli/index.ts", "serve"], {
      ...testDb.env,
      ...s3.env("e2e"),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    });
    server = running;
    testKey = await waitForProcess(
      running,
      "the demo key on stdout",
      () => /^ {2}test: +(pk_test_\S+)$/m.exec(running.stdout())?.[1],
    );
  }, PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopProcess(server);
    await testDb?.drop();
    await s3?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps a bought label in the bucket, none on its disk, and serves it at its public URL", async () => {
    const base = (server as RunningServer).baseUrl;
    const response = await fetch(`${base}/api/v2/shipments/ship`, {
      method: "POST",
      headers: { authorization: `Bearer ${testKey}`, "content-type": "application/json" },
      body: JSON.stringify({ shipment: shipmentToBuy({ label_format: "zpl", label_size: "4x6" }) }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const label = ((await response.json()) as { shipment: { parcels: { postage_label: { image_url: string } }[] } })
      .shipment.parcels[0]?.postage_label;
    const name = new URL(label?.image_url as string).pathname.split("/").pop() as string;

    const stored = await s3.store("e2e").get(name);
    expect(stored?.subarray(0, 3).toString()).toBe("^XA");
    expect(fs.existsSync(path.join(dataDir, "files"))).toBe(false);

    const file = await fetch(`${base}/files/${name}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zpl");
    expect(Buffer.from(await file.arrayBuffer()).equals(stored as Buffer)).toBe(true);
  });
});
