import fs from "node:fs";
import { Command, CommanderError, Help, Option } from "commander";
import { errorBody } from "../http/errors.js";
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

/** Read at run time: the same file answers from `src/` (tsx) and from `dist/` (the build). */
function packageVersion(): string {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

/** Commander lists a required option like any other; the help says which ones a command needs. */
function optionDescription(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  if (!option.mandatory) return text;
  return text.endsWith(")") && option.argChoices ? text.replace(/\((?=[^(]*\)$)/, "(required; ") : `${text} (required)`;
}

/** `--json` anywhere before a `--` asks for machine-readable output, errors included. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

export function buildCli(options: { json?: boolean } = {}): Command {
  const program = new Command("porter")
    .description("Porter: a self-hostable shipping and order fulfillment API")
    .version(packageVersion(), "-V, --version", "print Porter's version")
    .addOption(new Option("--json", "print machine-readable JSON, errors included (on stderr)"))
    .configureHelp({ optionDescription })
    .exitOverride();
  // With --json the error is written once, as JSON, by runCli; a text line and help would break it.
  if (options.json) program.configureOutput({ outputError: () => {} });
  else program.showHelpAfterError();
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

interface Failure {
  exitCode: number;
  code: string;
  message: string;
}

/** The error classes are loaded only when a command failed: `porter --help` does without their modules. */
async function failureOf(error: unknown): Promise<Failure> {
  const [{ ConfigError }, { DomainError }] = await Promise.all([import("../config.js"), import("../domain/errors.js")]);
  if (error instanceof CommanderError) {
    return { exitCode: 2, code: "cli.usage", message: error.message.replace(/^error: /, "") };
  }
  if (error instanceof ConfigError) return { exitCode: 2, code: "config.invalid", message: error.message };
  if (error instanceof DomainError) return { exitCode: 1, code: error.code, message: error.message };
  return { exitCode: 1, code: "cli.failed", message: error instanceof Error ? error.message : String(error) };
}

/**
 * Exit codes: 0 done, 1 the operation failed, 2 the command line or configuration was wrong.
 * With `--json` a failure is the API's error body on stderr, with the exit code in it.
 */
export async function runCli(argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  try {
    await buildCli({ json }).parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // --help and --version end the parse this way too, having printed what was asked.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    const failure = await failureOf(error);
    if (json) {
      const body = { ...errorBody(failure.code, failure.message), exit_code: failure.exitCode };
      process.stderr.write(`${JSON.stringify(body)}\n`);
    } else if (!(error instanceof CommanderError)) {
      // Commander has written its own message (and the help) already.
      const code = failure.exitCode === 1 && failure.code !== "cli.failed" ? ` (${failure.code})` : "";
      process.stderr.write(`porter: ${failure.message}${code}\n`);
    }
    return failure.exitCode;
  }
}
