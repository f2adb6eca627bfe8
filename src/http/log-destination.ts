import fs from "node:fs";

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Where log lines go: a buffer written out with one `write` per 64 KiB (and on `flush`; the server
 * flushes every second, so a quiet server's lines still show at once). Each write to a log file
 * costs something beyond its bytes; at 64 KiB a ping with its log line measured about the CPU of one
 * without, and less than at 16 KiB. Lines are encoded straight into the buffer. pino's
 * own destination keeps lines as growing strings and measures the whole pending string again for
 * every line it adds, which made logging the dearest part of a small request.
 */
export class LogDestination {
  readonly #buffer: Buffer;
  #length = 0;

  constructor(
    private readonly fd: number,
    private readonly flushAtBytes = 64 * 1024,
  ) {
    this.#buffer = Buffer.allocUnsafe(flushAtBytes * 2);
  }

  write(line: string): boolean {
    // A UTF-8 character takes at most three bytes per UTF-16 unit.
    const buffer = this.reserve(line.length * 3);
    if (buffer) this.commit(this.#length + buffer.write(line, this.#length));
    else this.#writeOut(Buffer.from(line));
    return true;
  }

  /**
   * For a writer that encodes straight into the buffer: room for `bytes` more, or undefined when
   * that is more than the buffer holds (then `write` a string). Encode from `length`, then
   * `commit` the end.
   */
  reserve(bytes: number): Buffer | undefined {
    if (this.#length + bytes > this.#buffer.length) this.flush();
    return bytes > this.#buffer.length ? undefined : this.#buffer;
  }

  get length(): number {
    return this.#length;
  }

  commit(end: number): void {
    this.#length = end;
    if (this.#length >= this.flushAtBytes) this.flush();
  }

  flush(): void {
    if (this.#length === 0) return;
    const pending = this.#buffer.subarray(0, this.#length);
    this.#length = 0;
    this.#writeOut(pending);
  }

  flushSync(): void {
    this.flush();
  }

  /** Writes all of it; a pipe that is full (EAGAIN) is waited for, as a blocking write would. */
  #writeOut(bytes: Buffer): void {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += fs.writeSync(this.fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
        Atomics.wait(PAUSE, 0, 0, 10);
      }
    }
  }
}
