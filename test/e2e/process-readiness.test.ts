import { describe, expect, it } from "vitest";
import { startProcess, waitForProcess } from "../helpers/processes.js";

describe("waiting for a process a test started", () => {
  it("fails as soon as the child exits, showing what the child wrote", async () => {
    const child = startProcess(
      [
        "--eval",
        "console.log('loading the configuration'); console.error('DATABASE_URL is malformed'); process.exit(3)",
      ],
      {},
    );
    // Far sooner than the readiness limit: the test's own timeout would end a wait for it.
    await expect(waitForProcess(child, "GET /healthz to answer", () => undefined)).rejects.toThrow(
      /the child exited \(3\) before GET \/healthz to answer[\s\S]*loading the configuration[\s\S]*DATABASE_URL is malformed/,
    );
  });
});
