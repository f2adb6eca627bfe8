import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LogDestination } from "../../../src/http/log-destination.js";

describe("log destination", () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "porter-log-"));
  const file = path.join(directory, "out.log");
  let fd: number;
  const written = () => fs.readFileSync(file, "utf8");
  afterEach(() => fs.closeSync(fd));

  it("holds lines until a batch is full or it is flushed, then writes them in order", () => {
    fd = fs.openSync(file, "w");
    const log = new LogDestination(fd, 100);
    log.write('{"n":1}\n');
    log.write('{"n":2}\n');
    expect(written()).toBe("");
    log.flush();
    expect(written()).toBe('{"n":1}\n{"n":2}\n');
    const line = `${"x".repeat(39)}\n`;
    log.write(line);
    log.write(line);
    expect(written()).toBe('{"n":1}\n{"n":2}\n');
    log.write(line);
    expect(written()).toBe(`{"n":1}\n{"n":2}\n${line}${line}${line}`);
  });

  it("keeps multi-byte characters and lines longer than its buffer whole", () => {
    fd = fs.openSync(file, "w");
    const log = new LogDestination(fd, 16);
    const accented = "Zoë → 東京 🚚\n";
    const long = `${"é".repeat(200)}\n`;
    log.write(accented);
    log.write(long);
    log.write(accented);
    log.flushSync();
    expect(written()).toBe(`${accented}${long}${accented}`);
  });
});
