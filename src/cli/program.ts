import { Command, CommanderError, Option } from "commander";
import { ConfigError } from "../config.js";
import { DomainError } from "../domain/errors.js";
import { addAccountsCommands } from "./accounts.js";
import { addBackupCommand } from "./backup.js";
import { addCarriersCommands } from "./carriers.js";
import { addDoctorCommand } from "./doctor.js";
import { addFilesCommands } from "./files.js";
import { addKeysCommands } from "./keys.js";
import { addMigrateCommand } from "./migrate.js";
import type { Output } from "./output.js";
import { addServeCommand } from "./serve.js";
import { addStoresCommands } from "./stores.js";
import { addUsersCommands } from "./users.js";
import { addWorkerCommand } from "./worker.js";

export function buildCli(): Command {
  const program = new Command("porter")
    .description("Porter: a self-hostable shipping and order fulfillment API")
    .addOption(new Option("--json", "print machine-readable JSON"))
    .showHelpAfterError()
    .exitOverride();
  const out = (): Output => ({ json: Boolean(program.opts().json) });

  addServeCommand(program);
  addWorkerCommand(program);
  addMigrateCommand(program, out);
  addAccountsCommands(program, out);
  addUsersCommands(program, out);
  addKeysCommands(program, out);
  addCarriersCommands(program, out);
  addStoresCommands(program, out);
  addDoctorCommand(program, out);
  addBackupCommand(program, out);
  addFilesCommands(program, out);
  return program;
}

/** Exit codes: 0 done, 1 the operation failed, 2 the command line or configuration was wrong. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildCli().parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`porter: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DomainError) {
      process.stderr.write(`porter: ${error.message} (${error.code})\n`);
      return 1;
    }
    process.stderr.write(`porter: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
