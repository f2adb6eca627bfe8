import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { BANK, VISA } from "../helpers/payment-methods.js";
import {
  PROCESS_TEST_TIMEOUT_MS,
  type RunningServer,
  startServerProcess,
  stopProcess,
  waitFor,
  waitForProcess,
} from "../helpers/processes.js";
import { everyStoredRow, everythingStored } from "../helpers/stored-bytes.js";

const AMEX = { ...VISA, account_number: "371449635398431", verification_code: "8163" };
/** Numbers that reach the server and must rest nowhere: accepted, refused and declined ones. */
const FULL_NUMBERS = ["4242424242424242", "371449635398431", "000123456789", "4242424242424241", "5105105105105106"];
const CVVS = ["8163", "5297"];
/** A CVV as a value of its own (a field, a column), not four digits inside a longer hex string. */
const asValue = (cvv: string) => new RegExp(`(^|[^0-9A-Za-z])${cvv}([^0-9A-Za-z]|$)`);

describe("card and bank numbers, as a real server process logging at trace level", () => {
  let testDb: TestDatabase;
  let dataDir: string;
  let server: RunningServer | undefined;
  let testKey: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-payment-secrets-"));
    server = await startServerProcess(["src/cli/index.ts", "serve"], {
      ...testDb.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "trace",
    });
    const running = server;
    testKey = await waitForProcess(
      running,
      "the demo test key",
      () => /^ {2}test: +(pk_test_\S+)$/m.exec(running.output())?.[1],
    );
  }, PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopProcess(server);
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (url: string, body: unknown) => {
    const response = await fetch(`${server?.baseUrl}/api/v2${url}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${testKey}`,
        "content-type": "application/json",
        "idempotency-key": url + Math.random(),
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };

  it("are never stored, logged or returned", { timeout: 60_000 }, async () => {
    const answers = [
      await post("/payment_methods", { payment_method: { ...VISA, default_payment_method: true } }),
      await post("/payment_methods", { payment_method: AMEX }),
      await post("/payment_methods", { payment_method: BANK }),
      await post("/payment_methods", { payment_method: { ...VISA, account_number: "4242424242424241" } }),
      await post("/payment_methods", {
        payment_method: { ...VISA, account_number: "5105105105105106", verification_code: "5297", expiry: "0120" },
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 422, 422]);
    const listed = await fetch(`${server?.baseUrl}/api/v2/payment_methods`, {
      headers: { authorization: `Bearer ${testKey}` },
    });
    const everything = [...answers.map((a) => a.text), await listed.text()].join("\n");
    expect(everything).toContain('"account_number":"4242"');

    // What the process wrote: the server flushes its log buffer within a second.
    const output = await waitFor(
      () => "the requests' log lines",
      () => {
        const text = server?.output() ?? "";
        return (text.match(/"url":"\/api\/v2\/payment_methods"/g)?.length ?? 0) >= 6 ? text : undefined;
      },
    );
    const stored = await everythingStored(testDb);
    const rows = (await everyStoredRow(testDb)).join("\n");
    expect(rows).toContain("visa");
    for (const number of FULL_NUMBERS) {
      expect(everything).not.toContain(number);
      expect(output).not.toContain(number);
      expect(stored).not.toContain(number);
    }
    for (const cvv of CVVS) {
      expect(everything).not.toMatch(asValue(cvv));
      expect(output).not.toMatch(asValue(cvv));
      expect(rows).not.toMatch(asValue(cvv));
    }
  });
});
