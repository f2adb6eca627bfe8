import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openServices } from "../../src/app.js";
import type { AppServices } from "../../src/app-services.js";
import { loadConfig } from "../../src/config.js";
import { createAccount } from "../../src/domain/accounts/create-account.js";
import { testDialect } from "../helpers/database.js";
import { exited, PROCESS_TEST_TIMEOUT_MS, startProcess } from "../helpers/processes.js";

/**
 * `porter backup` copies a SQLite database while Porter uses it; restoring is putting the copy
 * where DATA_DIR expects it. The test restores into a new DATA_DIR and reads it back, sealed
 * credentials included (the key file came along).
 */
describe.skipIf(testDialect() === "postgres")("porter backup on SQLite", () => {
  const dirs: string[] = [];
  const open: AppServices[] = [];
  const tempDir = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `porter-${name}-`));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const services of open.splice(0)) await services.database.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const backup = async (env: Record<string, string>, directory: string) => {
    const running = startProcess(["src/cli/index.ts", "backup", directory], env);
    const exit = await exited(running.child, PROCESS_TEST_TIMEOUT_MS);
    await running.closed;
    return { ...exit, stdout: running.stdout(), stderr: running.stderr() };
  };

  it(
    "copies the database in use and its key; the restored copy reads back",
    async () => {
      const dataDir = tempDir("data");
      // No DATABASE_URL: the default file in DATA_DIR, and the key file beside it.
      const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
      const live = await openServices(loadConfig(env));
      open.push(live);
      const account = await createAccount(live, { name: "Backed Up Merchant" });
      const sealed = live.secrets.seal("carrier password");

      // Taken while this process still has the database open and has written to it.
      const target = path.join(tempDir("backup"), "today");
      const result = await backup(env, target);
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(result.stdout).toContain("porter.sqlite, secret.key");
      // Written after the backup: not in it.
      await createAccount(live, { name: "Later Merchant" });

      const restoredDir = tempDir("restored");
      for (const file of fs.readdirSync(target)) fs.copyFileSync(path.join(target, file), path.join(restoredDir, file));
      const restored = await openServices(loadConfig({ DATA_DIR: restoredDir }));
      open.push(restored);
      const names = await restored.db.selectFrom("accounts").select(["id", "name"]).execute();
      expect(names).toEqual([{ id: account.id, name: "Backed Up Merchant" }]);
      expect(restored.secrets.open(sealed)).toBe("carrier password");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "refuses a directory that is not empty, writing nothing",
    async () => {
      const dataDir = tempDir("data");
      const target = tempDir("occupied");
      fs.writeFileSync(path.join(target, "keep.txt"), "mine");
      const result = await backup({ DATA_DIR: dataDir, DATABASE_URL: "" }, target);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("is not empty");
      expect(fs.readdirSync(target)).toEqual(["keep.txt"]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe.skipIf(testDialect() === "sqlite")("porter backup on PostgreSQL", () => {
  it(
    "says to use pg_dump and exits with 1",
    async () => {
      const target = fs.mkdtempSync(path.join(os.tmpdir(), "porter-pg-backup-"));
      try {
        const running = startProcess(["src/cli/index.ts", "backup", target], {
          DATABASE_URL: process.env.TEST_DATABASE_URL as string,
        });
        const exit = await exited(running.child, PROCESS_TEST_TIMEOUT_MS);
        await running.closed;
        expect(exit.code).toBe(1);
        expect(running.stderr()).toContain("pg_dump");
        expect(fs.readdirSync(target)).toEqual([]);
      } finally {
        fs.rmSync(target, { recursive: true, force: true });
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
