import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.js";
import { copyFilesToS3 } from "../../../src/storage/files/copy-files.js";
import { DiskFileStore } from "../../../src/storage/files/disk-file-store.js";
import { FileStoreUnavailable } from "../../../src/storage/files/file-store.js";
import type { S3FileStore } from "../../../src/storage/files/s3-file-store.js";
import { chunksOf, fileName, fileStoreContract } from "../../helpers/file-store-contract.js";
import { PROCESS_TEST_TIMEOUT_MS } from "../../helpers/processes.js";
import { startS3Server, type TestS3Server } from "../../helpers/s3-server.js";

/** Every object in the server's bucket, by the key the store gave it (s3rver keeps one directory per key). */
function storedKeys(server: TestS3Server): string[] {
  const bucket = path.join(server.directory, server.bucket);
  return fs
    .readdirSync(bucket, { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith("._S3rver_object"))
    .map((entry) => entry.slice(0, -"._S3rver_object".length))
    .sort();
}

describe("S3FileStore against a real S3-compatible server (s3rver)", () => {
  let server: TestS3Server;
  let store: S3FileStore;

  beforeAll(async () => {
    server = await startS3Server();
    store = server.store("labels/");
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(() => server?.close());

  fileStoreContract(() => store);

  it("keeps each file as one object under the prefix, named as the file", async () => {
    const name = fileName("png");
    await store.put(name, Buffer.from("png bytes"));
    expect(storedKeys(server)).toContain(`labels/${name}`);
    expect(await server.store("other/").get(name)).toBeUndefined();
    expect(await store.sizeOf(name)).toBe(9);
    expect(await store.sizeOf(fileName())).toBeUndefined();
  });

  it("reads FILE_STORE_URL, the region and path style from the environment", () => {
    const config = loadConfig({ ...server.env("deploy/one"), DATA_DIR: os.tmpdir() });
    expect(config.fileStore).toEqual({
      kind: "s3",
      location: { bucket: server.bucket, prefix: "deploy/one/" },
      region: "us-east-1",
      forcePathStyle: true,
      timeoutMs: 10_000,
    });
    expect(loadConfig({ FILE_STORE_URL: "s3://bucket" }).fileStore).toMatchObject({
      location: { bucket: "bucket", prefix: "" },
      forcePathStyle: false,
    });
    expect(
      loadConfig({ FILE_STORE_URL: "s3://bucket", AWS_ENDPOINT_URL: "http://x", FILE_STORE_S3_PATH_STYLE: "false" })
        .fileStore,
    ).toMatchObject({ forcePathStyle: false });
    expect(() => loadConfig({ FILE_STORE_URL: "/var/lib/porter" })).toThrow(/FILE_STORE_URL must be s3:\/\//);
    expect(loadConfig({ DATA_DIR: "/srv/porter" }).fileStore).toEqual({
      kind: "disk",
      directory: "/srv/porter/files",
    });
  });

  it("copies a local store into the bucket, and a second run copies nothing again", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "porter-local-"));
    try {
      const local = new DiskFileStore(directory);
      const names = [fileName("pdf"), fileName("zpl"), fileName("png")];
      for (const [index, name] of names.entries()) await local.put(name, Buffer.alloc(100 * (index + 1), index));
      await local.putChunks(fileName("pdf"), chunksOf(24, 256 * 1024, "manifest"));
      fs.writeFileSync(path.join(directory, "not a label.txt"), "ignored");
      const target = server.store("migrated/");

      expect(await copyFilesToS3(local, target)).toEqual({ copied: 4, skipped: 0, bytesCopied: 600 + 6 * 1024 * 1024 });
      for (const [index, name] of names.entries()) {
        expect(await target.get(name)).toEqual(Buffer.alloc(100 * (index + 1), index));
      }
      expect(await copyFilesToS3(local, target)).toEqual({ copied: 0, skipped: 4, bytesCopied: 0 });
      await local.put(fileName("pdf"), Buffer.from("new since"));
      expect(await copyFilesToS3(local, target)).toEqual({ copied: 1, skipped: 4, bytesCopied: 9 });
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it(
    "reports an unreachable store as unavailable within its timeout, and works again once it is back",
    async () => {
      const name = fileName("pdf");
      await store.put(name, Buffer.from("before"));
      await server.stop();
      try {
        await expect(store.put(fileName("pdf"), Buffer.from("x"))).rejects.toThrow(FileStoreUnavailable);
        await expect(store.putChunks(fileName("pdf"), chunksOf(2, 1024, "x"))).rejects.toThrow(FileStoreUnavailable);
        await expect(store.get(name)).rejects.toThrow(FileStoreUnavailable);
        await expect(store.open(name)).rejects.toThrow(/ECONNREFUSED/);
      } finally {
        await server.start();
      }
      expect((await store.get(name))?.toString()).toBe("before");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "reports a store that accepts connections but never answers as unavailable, after its timeout, not a hang",
    async () => {
      const impatient = server.store("labels/", { timeoutMs: 300 });
      const name = fileName("pdf");
      await impatient.put(name, Buffer.from("before"));
      server.pause();
      try {
        await expect(impatient.get(name)).rejects.toThrow(FileStoreUnavailable);
        await expect(impatient.put(fileName("pdf"), Buffer.from("x"))).rejects.toThrow(FileStoreUnavailable);
      } finally {
        server.resume();
      }
      expect((await impatient.get(name))?.toString()).toBe("before");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("reports a bucket that does not exist as unavailable, not as a missing file", async () => {
    const wrong = server.store("", { bucket: "no-such-bucket" });
    await expect(wrong.get(fileName())).rejects.toThrow(/NoSuchBucket/);
    await expect(wrong.put(fileName(), Buffer.from("x"))).rejects.toThrow(FileStoreUnavailable);
  });
});
