import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskFileStore } from "../../src/storage/files/disk-file-store.js";
import { cli, json } from "../helpers/cli.js";
import { fileName } from "../helpers/file-store-contract.js";
import { PROCESS_TEST_TIMEOUT_MS } from "../helpers/processes.js";
import { startS3Server, type TestS3Server } from "../helpers/s3-server.js";

interface MigrateOutput {
  from: string;
  to: string;
  copied: number;
  already_there: number;
  bytes_copied: number;
}

/** The settings the command reads, set in this process's environment while it runs. */
async function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe("porter files migrate", () => {
  let server: TestS3Server;
  let dataDir: string;
  let local: DiskFileStore;
  const names = [fileName("pdf"), fileName("zpl"), fileName("png")];

  beforeAll(async () => {
    server = await startS3Server();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-migrate-"));
    local = new DiskFileStore(path.join(dataDir, "files"));
    for (const name of names) await local.put(name, Buffer.from(`bytes of ${name}`));
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const migrate = (...args: string[]) =>
    withEnv({ ...server.env("production"), DATA_DIR: dataDir }, () => cli("--json", "files", "migrate", ...args));

  it("copies $DATA_DIR/files into the bucket under the prefix, then finds nothing new to copy", async () => {
    const first = json<MigrateOutput>(await migrate());
    expect(first).toEqual({
      from: path.join(dataDir, "files"),
      to: `s3://${server.bucket}/production/`,
      copied: 3,
      already_there: 0,
      bytes_copied: names.reduce((sum, name) => sum + `bytes of ${name}`.length, 0),
    });
    const bucket = server.store("production/");
    for (const name of names) expect((await bucket.get(name))?.toString()).toBe(`bytes of ${name}`);

    expect(json<MigrateOutput>(await migrate())).toMatchObject({ copied: 0, already_there: 3, bytes_copied: 0 });
    const added = fileName("pdf");
    await local.put(added, Buffer.from("a label bought meanwhile"));
    expect(json<MigrateOutput>(await migrate())).toMatchObject({ copied: 1, already_there: 3 });
    expect((await bucket.get(added))?.toString()).toBe("a label bought meanwhile");
  });

  it("takes another local directory with --from, and prints counts for people without --json", async () => {
    const other = new DiskFileStore(path.join(dataDir, "elsewhere"));
    await other.put(fileName("pdf"), Buffer.from("x"));
    const result = await withEnv({ ...server.env("production"), DATA_DIR: dataDir }, () =>
      cli("files", "migrate", "--from", path.join(dataDir, "elsewhere")),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Copied 1 files \(1 bytes\) from .*elsewhere to s3:\/\/porter-files\/production\/; 0 were/,
    );
  });

  it(
    "exits 2 without an S3 FILE_STORE_URL, and 1 with the counts so far when the store is down",
    async () => {
      const unset = await withEnv({ DATA_DIR: dataDir, FILE_STORE_URL: "" }, () => cli("files", "migrate"));
      expect(unset.code).toBe(2);
      expect(unset.stderr).toMatch(/FILE_STORE_URL must name the S3 store/);

      await server.stop();
      try {
        const down = await withEnv({ ...server.env("other"), DATA_DIR: dataDir, FILE_STORE_TIMEOUT_MS: "2000" }, () =>
          cli("--json", "files", "migrate"),
        );
        expect(down.code).toBe(1);
        expect(JSON.parse(down.stdout)).toMatchObject({ copied: 0, failure: expect.stringMatching(/ECONNREFUSED/) });
        expect(down.stderr).toMatch(/run it again to carry on/);
      } finally {
        await server.start();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
