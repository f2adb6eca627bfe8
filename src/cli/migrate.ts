import type { Command } from "commander";
import { type Output, print } from "./output.js";

export function addMigrateCommand(program: Command, out: () => Output): void {
  program
    .command("migrate")
    .description("bring the database schema up to date")
    .action(async () => {
      const [{ loadConfig }, { openDatabase }, { migrateToLatest }] = await Promise.all([
        import("../config.js"),
        import("../storage/db.js"),
        import("../storage/migrate.js"),
      ]);
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
