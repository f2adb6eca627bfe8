import { createHash } from "node:crypto";
import { BoundedMap } from "../../bounded-map.js";

/**
 * label_contents images, decoded once per output: shipping platforms stamp the same logo on every
 * label, so the last few dozen are kept (least recently used first out). A caller's undecodable
 * image is their mistake, so the error says which input failed.
 */
export class ImageMemo<T> {
  readonly #entries: BoundedMap<string, Promise<T>>;

  constructor(limit = 32) {
    this.#entries = new BoundedMap(limit);
  }

  get(base64: string, variant: string, decode: (bytes: Buffer) => Promise<T>): Promise<T> {
    const key = `${createHash("sha1").update(base64).digest("base64")}:${variant}`;
    const known = this.#entries.get(key);
    if (known) return known;
    const decoded = decode(Buffer.from(base64, "base64")).catch((error: unknown) => {
      this.#entries.delete(key);
      throw new RangeError(`label_contents image could not be decoded: ${(error as Error).message}`);
    });
    this.#entries.set(key, decoded);
    return decoded;
  }
}
