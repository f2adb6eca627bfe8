import { InvalidArgumentError, Option } from "commander";
import type { AppServices } from "../app-services.js";
import type { AccountScope } from "../domain/services.js";

export interface Output {
  json: boolean;
}

/** `--json` prints the value for machines; otherwise the text is for people. */
export function print(out: Output, value: unknown, text: () => string): void {
  process.stdout.write(out.json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);
}

/** Opens the services for one command and closes them afterwards. */
export async function withServices<T>(run: (services: AppServices) => Promise<T>): Promise<T> {
  // Loaded when a command runs: `porter --help` and commands that need no services do without them.
  const [{ openServices }, { loadConfig }] = await Promise.all([import("../app.js"), import("../config.js")]);
  const services = await openServices(loadConfig());
  try {
    return await run(services);
  } finally {
    await services.database.close();
  }
}

export function positiveInteger(name: string) {
  return (value: string): number => {
    if (!/^[1-9]\d*$/.test(value))
      throw new InvalidArgumentError(`${name} must be a positive whole number, got "${value}"`);
    return Number(value);
  };
}

export function jsonObject(value: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new InvalidArgumentError("expected a JSON object");
}

export function serviceIdList(value: string): number[] {
  if (!/^\d+(,\d+)*$/.test(value))
    throw new InvalidArgumentError(`expected comma-separated service ids, got "${value}"`);
  return value.split(",").map(Number);
}

export type KeyMode = AccountScope["mode"];

/** Which key mode's records a command works on; test unless told. */
export function modeOption(description: string): Option {
  return new Option("--mode <mode>", description).choices(["test", "production"]).default("test");
}
