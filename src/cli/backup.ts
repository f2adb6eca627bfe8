import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { type Output, print } from "./output.js";

/** The database file's name in a backup directory: the name DATA_DIR gives it by default. */
const DATABASE_FILE = "porter.sqlite";

/**
 * `porter backup <directory>`: a consistent copy of a SQLite database taken while Porter runs
 * (SQLite's online backup), with the secret key file that unseals the credentials stored in it
 * when the key lives in DATA_DIR. PostgreSQL is backed up with its own tools (pg_dump).
 */
export function addBackupCommand(program: Command, out: () => Output): void {
  program
    .command("backup")
    .description("copy the SQLite database (and DATA_DIR's secret key) into a new directory while Porter runs")
    .argument("<directory>", "where to write the backup; must not exist yet or be empty")
    .action(async (directory: string) => {
      const [{ loadConfig }, { openDatabase }, { SECRET_KEY_FILE }] = await Promise.all([
        import("../config.js"),
        import("../storage/db.js"),
        import("../storage/secret-box.js"),
      ]);
      const config = loadConfig();
      const target = path.resolve(directory);
      if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
        throw new Error(`${target} is not empty; a backup goes into a new or empty directory`);
      }
      const database = openDatabase(config.databaseUrl);
      try {
        if (!database.backup) {
          throw new Error("PostgreSQL is backed up with pg_dump (see docs/deploying.md), not with porter backup");
        }
        fs.mkdirSync(target, { recursive: true });
        const databaseFile = path.join(target, DATABASE_FILE);
        await database.backup(databaseFile);
        const written = [databaseFile];
        const keyFile = path.join(config.dataDir, SECRET_KEY_FILE);
        // Without its key the backup's carrier credentials and webhook secrets cannot be read.
        if (!config.secretKey && fs.existsSync(keyFile)) {
          const copy = path.join(target, SECRET_KEY_FILE);
          fs.copyFileSync(keyFile, copy);
          fs.chmodSync(copy, 0o600);
          written.push(copy);
        }
        print(
          out(),
          { files: written },
          () => `Backed up to ${target}: ${written.map((f) => path.basename(f)).join(", ")}`,
        );
      } finally {
        await database.close();
      }
    });
}
