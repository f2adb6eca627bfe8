import { createHash, randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { expect, it } from "vitest";
import type { FileStore } from "../../src/storage/files/file-store.js";

/** A fresh public file name, as the purchase flow makes them. */
export function fileName(extension = "pdf"): string {
  return `${randomBytes(16).toString("base64url")}.${extension}`;
}

export async function readAll(stream: Readable | AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** `count` chunks of `size` pseudo-random bytes, produced one at a time as a generator yields them. */
export async function* chunksOf(count: number, size: number, seed: string): AsyncIterable<Buffer> {
  for (let index = 0; index < count; index++) {
    yield Buffer.alloc(size, createHash("sha256").update(`${seed}:${index}`).digest());
  }
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * What every FileStore promises, run against each store (the disk, S3): each test file calls
 * this inside its own `describe` with the store it built.
 */
export function fileStoreContract(store: () => FileStore): void {
  it("keeps what it is given under its name, read whole or as a stream", async () => {
    const name = fileName("zpl");
    await store().put(name, Buffer.from("^XA^XZ"));
    expect((await store().get(name))?.toString()).toBe("^XA^XZ");
    const opened = await store().open(name);
    expect(opened?.size).toBe(6);
    expect((await readAll(opened?.body as Readable)).toString()).toBe("^XA^XZ");
  });

  it("answers undefined for a name it does not hold", async () => {
    expect(await store().get(fileName())).toBeUndefined();
    expect(await store().open(fileName())).toBeUndefined();
  });

  it("refuses names that are not public file tokens (paths, traversal)", async () => {
    await expect(store().get("../secret.key")).rejects.toThrow(RangeError);
    await expect(store().open("a/b.pdf")).rejects.toThrow(RangeError);
    await expect(store().put("../x.pdf", Buffer.from("x"))).rejects.toThrow(RangeError);
    await expect(store().putChunks("x", chunksOf(1, 1, "x"))).rejects.toThrow(RangeError);
  });

  it("writes a large file from chunks as they come and streams it back unchanged", async () => {
    // 12 MiB: more than two of the object store's 5 MiB multipart parts.
    const name = fileName("pdf");
    await store().putChunks(name, chunksOf(48, 256 * 1024, "large"));
    const expected = sha256(await readAll(chunksOf(48, 256 * 1024, "large")));
    const opened = await store().open(name);
    expect(opened?.size).toBe(12 * 1024 * 1024);
    expect(sha256(await readAll(opened?.body as Readable))).toBe(expected);
    expect(sha256((await store().get(name)) as Buffer)).toBe(expected);
  });

  it("leaves nothing under the name when the chunks fail part-way", async () => {
    const name = fileName("pdf");
    async function* failing(): AsyncIterable<Buffer> {
      yield* chunksOf(24, 256 * 1024, "failing");
      throw new Error("the document's renderer failed");
    }
    await expect(store().putChunks(name, failing())).rejects.toThrow(/renderer failed/);
    expect(await store().get(name)).toBeUndefined();
  });
}
