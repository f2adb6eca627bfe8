import type { Command } from "commander";
import { loadConfig } from "../config.js";
import { openDatabase } from "../storage/db.js";
import { migrateToLatest } from "../storage/migrate.js";
import { type Output, print } from "./output.js";

export function addMigrateCommand(program: Command, out: () => Output): void {
  program
    .command("migrate")
    .description("bring the database schema up to date")
    .action(async () => {
      const database = openDatabase(loadConfig().databaseUrl);
      try {
        const result = await migrateToLatest(database);
        const applied = (result.results ?? []).map((r) => r.migrationName);
        print(out(), { applied }, () => (applied.length ? `Applied: ${applied.join(", ")}` : "Already up to date."));
      } finally {
        await database.close();
      }
    });
}
