import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { ensureDemoAccount, openServices } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createTestDatabase, type TestDatabase, testDialect } from "../helpers/database.js";
import {
  exited,
  PROCESS_TEST_TIMEOUT_MS,
  type RunningProcess,
  type RunningServer,
  startApiProcess,
  startProcess,
  startServerProcess,
  stopProcess,
} from "../helpers/processes.js";

/**
 * Several processes started together on one empty PostgreSQL database (an upgrade restarting every
 * API process and worker at once): one migrates, the others wait for it and find nothing to do,
 * and one demo account comes of it. SQLite is one process per database file, so not tried there.
 */
describe.skipIf(testDialect() === "sqlite")("processes starting together on one PostgreSQL database", () => {
  let testDb: TestDatabase | undefined;
  let dataDir: string | undefined;
  const started: RunningProcess[] = [];

  afterEach(async () => {
    for (const running of started.splice(0)) await stopProcess(running);
    await testDb?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "runs the migrations once when four migrators start at once",
    async () => {
      testDb = await createTestDatabase(null);
      const migrators = Array.from({ length: 4 }, () =>
        startProcess(["src/cli/index.ts", "migrate"], { ...(testDb as TestDatabase).env }),
      );
      started.push(...migrators);
      const exits = await Promise.all(migrators.map((m) => exited(m.child, PROCESS_TEST_TIMEOUT_MS)));
      await Promise.all(migrators.map((m) => m.closed));
      for (const [index, exit] of exits.entries()) {
        expect(exit, migrators[index]?.output()).toEqual({ code: 0, signal: null });
      }
      const outputs = migrators.map((m) => m.stdout());
      expect(outputs.filter((out) => out.startsWith("Applied: 0001-foundation")).length).toBe(1);
      expect(outputs.filter((out) => out.trim() === "Already up to date.").length).toBe(3);

      const { rows } = await sql<{ name: string; count: number }>`
        select name, count(*)::int as count from kysely_migration group by name having count(*) > 1
      `.execute(testDb.db.kysely);
      expect(rows).toEqual([]);
      // The schema is whole: a table of the last migration is there and empty.
      expect(await testDb.db.kysely.selectFrom("accounts").select("id").execute()).toEqual([]);
    },
    2 * PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "makes one demo account when an API process and a worker-less one start together on an empty database",
    async () => {
      testDb = await createTestDatabase(null);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-start-together-"));
      const env = { ...testDb.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
      const servers = await Promise.all([startServerProcess(["src/cli/index.ts", "serve"], env), startApiProcess(env)]);
      started.push(...servers);
      const accounts = await testDb.db.kysely.selectFrom("accounts").select("id").execute();
      expect(accounts).toHaveLength(1);
      const banners = servers.filter((server: RunningServer) => /Created the demo account/.test(server.stdout()));
      expect(banners).toHaveLength(1);
      for (const server of servers) expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    },
    2 * PROCESS_TEST_TIMEOUT_MS,
  );

  // Processes rarely reach the demo account's check in the same instant (their start-ups take
  // different times), so the race is made certain here: three start-ups in one process at once.
  it("makes one demo account when three start-ups race in one instant on an empty database", async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-start-race-"));
    const config = { ...loadConfig({ DATA_DIR: dataDir }), databaseUrl: (testDb as TestDatabase).url };
    const starts = await Promise.all([1, 2, 3].map(() => openServices(config)));
    try {
      const demos = await Promise.all(starts.map((services) => ensureDemoAccount(services)));
      expect(demos.filter((demo) => demo !== undefined)).toHaveLength(1);
      expect(await testDb.db.kysely.selectFrom("accounts").select("id").execute()).toHaveLength(1);
    } finally {
      for (const services of starts) await services.database.close();
    }
  });
});
