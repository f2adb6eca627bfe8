import { createHash } from "node:crypto";

/**
 * label_contents images, decoded once per output: shipping platforms stamp the same logo on every
 * label, so the last few dozen are kept (least recently used first out). A caller's undecodable
 * image is their mistake, so the error says which input failed.
 */
export class ImageMemo<T> {
  readonly #entries = new Map<string, Promise<T>>();

  constructor(private readonly limit = 32) {}

  get(base64: string, variant: string, decode: (bytes: Buffer) => Promise<T>): Promise<T> {
    const key = `${createHash("sha1").update(base64).digest("base64")}:${variant}`;
    const known = this.#entries.get(key);
    if (known) {
      // Re-inserting keeps the map in least-recently-used order.
      this.#entries.delete(key);
      this.#entries.set(key, known);
      return known;
    }
    const decoded = decode(Buffer.from(base64, "base64")).catch((error: unknown) => {
      this.#entries.delete(key);
      throw new RangeError(`label_contents image could not be decoded: ${(error as Error).message}`);
    });
    this.#entries.set(key, decoded);
    if (this.#entries.size > this.limit) this.#entries.delete(this.#entries.keys().next().value as string);
    return decoded;
  }
}
