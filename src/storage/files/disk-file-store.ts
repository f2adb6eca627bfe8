import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { FileStore } from "./file-store.js";

const SAFE_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;

/** Files under one directory (the default, `$DATA_DIR/files`). */
export class DiskFileStore implements FileStore {
  #directoryMade: Promise<unknown> | undefined;

  constructor(private readonly directory: string) {}

  async put(name: string, bytes: Buffer): Promise<void> {
    const file = this.#pathOf(name);
    this.#directoryMade ??= fs.mkdir(this.directory, { recursive: true });
    await this.#directoryMade;
    // Written in place, never replacing a file ("wx"): a name is published only after put()
    // returns, so no reader can meet half a file, and skipping a write-then-rename halves the
    // directory operations, the dearest part of storing a label. Synchronously: labels are a few
    // kilobytes, and trips through libuv's thread pool cost more than the writes themselves.
    writeFileSync(file, bytes, { flag: "wx" });
  }

  async putChunks(name: string, chunks: AsyncIterable<Buffer>): Promise<void> {
    const file = this.#pathOf(name);
    this.#directoryMade ??= fs.mkdir(this.directory, { recursive: true });
    await this.#directoryMade;
    const descriptor = openSync(file, "wx");
    try {
      for await (const chunk of chunks) writeSync(descriptor, chunk);
    } finally {
      closeSync(descriptor);
    }
  }

  async get(name: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.#pathOf(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  #pathOf(name: string): string {
    if (!SAFE_NAME.test(name)) throw new RangeError(`not a stored file name: ${name}`);
    return path.join(this.directory, name);
  }
}
