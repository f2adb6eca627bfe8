import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { checkFileName, type FileStore, isStoredFileName, type OpenedFile } from "./file-store.js";

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
    } catch (error) {
      // Half a file under a name nobody recorded would only be found by a copy of the store.
      closeSync(descriptor);
      await fs.rm(file, { force: true });
      throw error;
    }
    closeSync(descriptor);
  }

  async get(name: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.#pathOf(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  async open(name: string): Promise<OpenedFile | undefined> {
    const file = this.#pathOf(name);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const { size } = await handle.stat().catch(async (error) => {
      await handle.close();
      throw error;
    });
    return { body: handle.createReadStream(), size };
  }

  /** Every stored file's name with its size, for copying the store elsewhere. */
  async *list(): AsyncIterable<{ name: string; size: number }> {
    let entries: string[];
    try {
      entries = await fs.readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const name of entries.sort()) {
      if (!isStoredFileName(name)) continue;
      const stat = await fs.stat(path.join(this.directory, name));
      if (stat.isFile()) yield { name, size: stat.size };
    }
  }

  #pathOf(name: string): string {
    return path.join(this.directory, checkFileName(name));
  }
}
