import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DiskFileStore } from "../../../src/storage/files/disk-file-store.js";

describe("DiskFileStore", () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "porter-store-"));
  const store = new DiskFileStore(path.join(directory, "files"));
  afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

  it("keeps what it is given under its name, and nothing else in the directory", async () => {
    await store.put("Ab3_-xyzAb3_-xyzAb3_-x.zpl", Buffer.from("^XA^XZ"));
    expect((await store.get("Ab3_-xyzAb3_-xyzAb3_-x.zpl"))?.toString()).toBe("^XA^XZ");
    expect(fs.readdirSync(path.join(directory, "files"))).toEqual(["Ab3_-xyzAb3_-xyzAb3_-x.zpl"]);
  });

  it("never replaces a stored file", async () => {
    await expect(store.put("Ab3_-xyzAb3_-xyzAb3_-x.zpl", Buffer.from("other"))).rejects.toThrow(/EEXIST/);
    expect((await store.get("Ab3_-xyzAb3_-xyzAb3_-x.zpl"))?.toString()).toBe("^XA^XZ");
  });

  it("answers undefined for an unknown name and refuses names that could leave the directory", async () => {
    expect(await store.get("nothing-here-at-all-xx.pdf")).toBeUndefined();
    await expect(store.get("../secret.key")).rejects.toThrow(RangeError);
    await expect(store.put("../x.pdf", Buffer.from("x"))).rejects.toThrow(RangeError);
  });
});
