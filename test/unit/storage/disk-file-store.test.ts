import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DiskFileStore } from "../../../src/storage/files/disk-file-store.js";
import { fileStoreContract } from "../../helpers/file-store-contract.js";

describe("DiskFileStore", () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "porter-store-"));
  const store = new DiskFileStore(path.join(directory, "files"));
  afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

  fileStoreContract(() => store);

  it("keeps each file as one file of its name in the directory, and nothing else", async () => {
    const before = fs.readdirSync(path.join(directory, "files"));
    await store.put("Ab3_-xyzAb3_-xyzAb3_-x.zpl", Buffer.from("^XA^XZ"));
    expect(fs.readdirSync(path.join(directory, "files")).filter((name) => !before.includes(name))).toEqual([
      "Ab3_-xyzAb3_-xyzAb3_-x.zpl",
    ]);
    expect(fs.readdirSync(path.join(directory, "files")).every((name) => /^[\w-]+\.[a-z]+$/.test(name))).toBe(true);
  });

  it("never replaces a stored file", async () => {
    await expect(store.put("Ab3_-xyzAb3_-xyzAb3_-x.zpl", Buffer.from("other"))).rejects.toThrow(/EEXIST/);
    expect((await store.get("Ab3_-xyzAb3_-xyzAb3_-x.zpl"))?.toString()).toBe("^XA^XZ");
  });

  it("lists its files with their sizes, in name order, and an absent directory as empty", async () => {
    const listed: { name: string; size: number }[] = [];
    for await (const file of store.list()) listed.push(file);
    expect(listed.map((f) => f.name)).toEqual([...listed.map((f) => f.name)].sort());
    expect(listed).toContainEqual({ name: "Ab3_-xyzAb3_-xyzAb3_-x.zpl", size: 6 });
    for await (const _ of new DiskFileStore(path.join(directory, "none")).list()) throw new Error("listed a file");
  });
});
