import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { createWebhookDispatcher, ensureDemoAccount, openServices, startWorker } from "./app.js";
import type { AppServices } from "./app-services.js";
import { CARRIER_APIS } from "./carriers/carrier.js";
import { CARRIER_CODES } from "./carriers/catalogue.js";
import { ConfigError, loadConfig } from "./config.js";
import { listAccounts } from "./domain/accounts/accounts.repository.js";
import { maskApiKey } from "./domain/accounts/api-keys.js";
import { createAccount } from "./domain/accounts/create-account.js";
import { createUser } from "./domain/accounts/create-user.js";
import { listUsersWithKeys } from "./domain/accounts/list-users.js";
import { revokeKeys, rotateKeys } from "./domain/accounts/manage-keys.js";
import { parseRoles, ROLES, type Role } from "./domain/accounts/roles.js";
import { listConnectedCarrierAccounts } from "./domain/carriers/carrier-accounts.repository.js";
import { connectCarrier, disconnectCarrier } from "./domain/carriers/connect-carrier.js";
import { SERVICE_STATES, type ServiceState, setCarrierApiStatus } from "./domain/carriers/service-status.js";
import { DomainError } from "./domain/errors.js";
import { buildServer } from "./http/server.js";
import { openDatabase } from "./storage/db.js";
import { migrateToLatest } from "./storage/migrate.js";

function serviceIdList(value: string): number[] {
  if (!/^\d+(,\d+)*$/.test(value))
    throw new InvalidArgumentError(`expected comma-separated service ids, got "${value}"`);
  return value.split(",").map(Number);
}

function jsonObject(value: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new InvalidArgumentError("expected a JSON object");
}

function positiveInteger(name: string) {
  return (value: string): number => {
    if (!/^[1-9]\d*$/.test(value))
      throw new InvalidArgumentError(`${name} must be a positive whole number, got "${value}"`);
    return Number(value);
  };
}

interface Output {
  json: boolean;
}

function print(out: Output, value: unknown, text: () => string): void {
  process.stdout.write(out.json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);
}

/** Opens the services for one command and closes them afterwards. */
async function withServices<T>(run: (services: AppServices) => Promise<T>): Promise<T> {
  const services = await openServices(loadConfig());
  try {
    return await run(services);
  } finally {
    await services.database.close();
  }
}

async function serve(options: { worker: boolean }): Promise<void> {
  const services = await openServices(loadConfig());
  const app = await buildServer(services);
  const demo = await ensureDemoAccount(services);
  if (demo) {
    process.stdout.write(
      [
        "",
        `Created the demo account ${demo.accountId} (user ${demo.email}). Its API keys are shown only now:`,
        `  test:       ${demo.keys.test}`,
        `  production: ${demo.keys.production}`,
        "",
      ].join("\n"),
    );
  }
  const worker = options.worker ? await startWorker(services, app.log) : undefined;
  const webhooks = options.worker ? createWebhookDispatcher(services, app.log) : undefined;
  webhooks?.start();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    await app.close();
    await Promise.all([worker?.stop(), webhooks?.stop()]);
    await services.database.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  const address = await app.listen({ port: services.config.port, host: services.config.host });
  app.log.info({ address, database: services.database.dialect, worker: Boolean(worker) }, "Porter is listening");
}

async function runWorker(): Promise<void> {
  const services = await openServices(loadConfig());
  const worker = await startWorker(services);
  const webhooks = createWebhookDispatcher(services);
  webhooks.start();
  const shutdown = async () => {
    await Promise.all([worker.stop(), webhooks.stop()]);
    await services.database.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown());
  process.once("SIGINT", () => void shutdown());
  process.stdout.write(`Worker ${worker.id} is running against ${services.database.dialect}\n`);
}

export function buildCli(): Command {
  const program = new Command("porter")
    .description("Porter: a self-hostable shipping and order fulfillment API")
    .addOption(new Option("--json", "print machine-readable JSON"))
    .showHelpAfterError()
    .exitOverride();
  const out = (): Output => ({ json: Boolean(program.opts().json) });

  program
    .command("serve")
    .description("start the HTTP API (and, unless --no-worker, the job worker in the same process)")
    .option("--no-worker", "do not run jobs in this process")
    .action((options: { worker: boolean }) => serve(options));

  program
    .command("worker")
    .description("run the job worker only")
    .action(() => runWorker());

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

  const accounts = program.command("accounts").description("manage accounts");
  accounts
    .command("create")
    .description("create an account (a child account with --parent)")
    .requiredOption("--name <name>", "account name")
    .option("--parent <id>", "parent account id", positiveInteger("--parent"))
    .option("--email <email>", "contact email")
    .action((options: { name: string; parent?: number; email?: string }) =>
      withServices(async (services) => {
        const account = await createAccount(services, {
          name: options.name,
          parentId: options.parent,
          email: options.email,
        });
        print(out(), account, () => `Created account ${account.id} (${account.name})`);
      }),
    );
  accounts
    .command("list")
    .description("list every account")
    .action(() =>
      withServices(async (services) => {
        const rows = await listAccounts(services.db);
        print(
          out(),
          rows,
          () =>
            rows.map((a) => `${a.id}\t${a.name}${a.parent_id ? `\t(child of ${a.parent_id})` : ""}`).join("\n") ||
            "No accounts.",
        );
      }),
    );

  const users = program.command("users").description("manage users");
  users
    .command("create")
    .description("create a user; a user with the API role gets a test and a production key, printed once")
    .requiredOption("--account <id>", "account id", positiveInteger("--account"))
    .requiredOption("--email <email>", "email address")
    .option("--first-name <name>", "first name")
    .option("--last-name <name>", "last name")
    .addOption(new Option("--role <role...>", "roles (repeat or list)").choices([...ROLES]).makeOptionMandatory())
    .action((options: { account: number; email: string; firstName?: string; lastName?: string; role: Role[] }) =>
      withServices(async (services) => {
        const { user, keys } = await createUser(services, {
          accountId: options.account,
          email: options.email,
          firstName: options.firstName,
          lastName: options.lastName,
          roles: options.role,
        });
        print(out(), { user: { ...user, roles: parseRoles(user.roles) }, api_keys: keys ?? null }, () =>
          [
            `Created user ${user.id} (${user.email}) with roles ${user.roles}`,
            ...(keys ? [`  test:       ${keys.test}`, `  production: ${keys.production}`] : []),
          ].join("\n"),
        );
      }),
    );
  users
    .command("list")
    .description("list an account's users with their keys masked")
    .requiredOption("--account <id>", "account id", positiveInteger("--account"))
    .action((options: { account: number }) =>
      withServices(async (services) => {
        const rows = await listUsersWithKeys(services, [options.account]);
        const shaped = rows.map(({ user, keys }) => ({
          id: user.id,
          email: user.email,
          roles: parseRoles(user.roles),
          api_keys: keys.map((k) => ({ mode: k.mode, api_key: maskApiKey(k.prefix, k.last4) })),
        }));
        print(
          out(),
          shaped,
          () =>
            shaped
              .map((u) => `${u.id}\t${u.email}\t${u.roles.join(",")}\t${u.api_keys.map((k) => k.api_key).join(" ")}`)
              .join("\n") || "No users.",
        );
      }),
    );

  const keys = program.command("keys").description("manage API keys");
  keys
    .command("rotate")
    .description("replace a user's keys; the old ones stop working")
    .requiredOption("--user <id>", "user id", positiveInteger("--user"))
    .action((options: { user: number }) =>
      withServices(async (services) => {
        const rotated = await rotateKeys(services, options.user);
        print(out(), { user_id: rotated.user.id, api_keys: rotated.keys }, () =>
          [
            `New keys for user ${rotated.user.id}:`,
            `  test:       ${rotated.keys.test}`,
            `  production: ${rotated.keys.production}`,
          ].join("\n"),
        );
      }),
    );
  keys
    .command("revoke")
    .description("revoke every key of a user")
    .requiredOption("--user <id>", "user id", positiveInteger("--user"))
    .action((options: { user: number }) =>
      withServices(async (services) => {
        const revoked = await revokeKeys(services, options.user);
        print(out(), { user_id: options.user, revoked: revoked.length }, () => `Revoked ${revoked.length} key(s).`);
      }),
    );

  const carriers = program.command("carriers").description("connect carriers and set their service status");
  carriers
    .command("connect")
    .description("connect a carrier account to an account")
    .requiredOption("--account <id>", "account id", positiveInteger("--account"))
    .addOption(new Option("--carrier <code>", "carrier code").choices([...CARRIER_CODES]).makeOptionMandatory())
    .addOption(new Option("--mode <mode>", "key mode it serves").choices(["test", "production"]).default("test"))
    .option("--services <ids>", "comma-separated service ids to enable (default: all)", serviceIdList)
    .option("--credentials <json>", "carrier credentials as a JSON object (stored encrypted)", jsonObject)
    .option("--description <text>", "a note for people")
    .action(
      (options: {
        account: number;
        carrier: string;
        mode: "test" | "production";
        services?: number[];
        credentials?: Record<string, unknown>;
        description?: string;
      }) =>
        withServices(async (services) => {
          const row = await connectCarrier(
            services,
            { accountId: options.account, mode: options.mode },
            {
              carrierCode: options.carrier,
              enabledServiceIds: options.services,
              credentials: options.credentials,
              description: options.description,
            },
          );
          const { credentials_ciphertext: _sealed, ...shown } = row;
          print(
            out(),
            shown,
            () =>
              `Connected ${row.carrier_code} (${row.mode}) to account ${row.account_id} as carrier account ${row.id}`,
          );
        }),
    );
  carriers
    .command("list")
    .description("list an account's connected carrier accounts")
    .requiredOption("--account <id>", "account id", positiveInteger("--account"))
    .action((options: { account: number }) =>
      withServices(async (services) => {
        const rows = (
          await Promise.all(
            (["test", "production"] as const).map((mode) =>
              listConnectedCarrierAccounts(services.db, { accountId: options.account, mode }),
            ),
          )
        ).flat();
        const shown = rows.map(({ credentials_ciphertext: _sealed, ...row }) => row);
        print(
          out(),
          shown,
          () => shown.map((r) => `${r.id}\t${r.carrier_code}\t${r.mode}`).join("\n") || "No carriers.",
        );
      }),
    );
  carriers
    .command("disconnect")
    .description("disconnect a carrier account")
    .requiredOption("--account <id>", "account id", positiveInteger("--account"))
    .requiredOption("--id <id>", "carrier account id", positiveInteger("--id"))
    .addOption(new Option("--mode <mode>", "mode of the connection").choices(["test", "production"]).default("test"))
    .action((options: { account: number; id: number; mode: "test" | "production" }) =>
      withServices(async (services) => {
        await disconnectCarrier(services, { accountId: options.account, mode: options.mode }, options.id);
        print(out(), { disconnected: options.id }, () => `Disconnected carrier account ${options.id}`);
      }),
    );
  carriers
    .command("status")
    .description("mark a carrier API online, degraded or offline for every account")
    .addOption(new Option("--carrier <code>", "carrier code").choices([...CARRIER_CODES]).makeOptionMandatory())
    .addOption(new Option("--api <api>", "carrier API").choices([...CARRIER_APIS]).makeOptionMandatory())
    .addOption(new Option("--status <status>", "new status").choices([...SERVICE_STATES]).makeOptionMandatory())
    .option("--message <text>", "what users are told in rate warnings and GET /status")
    .action((options: { carrier: string; api: string; status: ServiceState; message?: string }) =>
      withServices(async (services) => {
        await setCarrierApiStatus(services, options.carrier, options.api, options.status, options.message ?? null);
        print(out(), options, () => `${options.carrier} ${options.api} is now ${options.status}`);
      }),
    );

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
