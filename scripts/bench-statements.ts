/**
 * SQL statements per label purchase: `POST /shipments/ship` (a UPS Ground ZPL label, automatic
 * refill on) answered in the benchmark process on a fresh database, every statement counted by a
 * Kysely plugin, and each transaction's begin and commit counted as two more.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { ensureDemoAccount, openServices } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { buildServer } from "../src/http/server.js";
import { JobQueue } from "../src/jobs/queue.js";
import type { Database } from "../src/storage/schema.js";
import { StatementCounter } from "../test/helpers/statement-counter.js";
import { AUTOMATIC_REFILL, median, SANDBOX_CARD, shipBody } from "./bench-processes.js";

/** Binds a proxied object's methods to it: Kysely's classes keep private fields. */
function bound<T extends object>(target: T, property: string | symbol): unknown {
  const value = Reflect.get(target, property);
  return typeof value === "function" ? value.bind(target) : value;
}

/** `db` with every statement counted, and two more (begin, commit) for each transaction it runs. */
function counted(db: Kysely<Database>, counter: StatementCounter): Kysely<Database> {
  const plugged = db.withPlugin(counter);
  return new Proxy(plugged, {
    get: (target, property) =>
      property !== "transaction"
        ? bound(target, property)
        : () => {
            const builder = target.transaction();
            return new Proxy(builder, {
              get: (inner, name) =>
                name !== "execute"
                  ? bound(inner, name)
                  : (work: Parameters<typeof builder.execute>[0]) => {
                      counter.count += 2;
                      return inner.execute(work);
                    },
            });
          },
  });
}

export interface PurchaseStatements {
  /** The first purchase of the process (caches empty). */
  cold: number;
  /** The median of the purchases after it. */
  warm: number;
  purchases: number;
}

/** `env` names the database (DATABASE_URL, fresh), or leaves it to a new data directory's SQLite file. */
export async function countPurchaseStatements(env: NodeJS.ProcessEnv): Promise<PurchaseStatements> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-statements-"));
  const services = await openServices(
    loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: "silent", SANDBOX_AUDIT_PERCENT: "0" }),
  );
  const counter = new StatementCounter();
  const db = counted(services.db, counter);
  const countedServices = { ...services, db, jobs: new JobQueue(db, services.database.dialect, services.clock) };
  const demo = await ensureDemoAccount(services);
  if (!demo) throw new Error("the statement count needs a fresh database");
  const app = await buildServer(countedServices, { logger: false });
  const headers = { authorization: `Bearer ${demo.keys.test}`, "content-type": "application/json" };
  const send = async (method: "POST" | "PUT", url: string, payload: string) => {
    const response = await app.inject({ method, url: `/api/v2${url}`, headers, payload });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  };
  try {
    await send("POST", "/payment_methods", JSON.stringify(SANDBOX_CARD));
    await send("PUT", "/meter", JSON.stringify(AUTOMATIC_REFILL));
    const counts: number[] = [];
    for (let purchase = 0; purchase < 21; purchase++) {
      counter.count = 0;
      await send("POST", "/shipments/ship", shipBody("zpl"));
      counts.push(counter.count);
    }
    return { cold: counts[0]!, warm: median(counts.slice(1)), purchases: counts.length };
  } finally {
    await app.close();
    await services.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
