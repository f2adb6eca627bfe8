import { type Command, Option } from "commander";
import { CARRIER_APIS, SERVICE_STATES } from "../carriers/carrier.js";
import { CARRIER_CODES } from "../carriers/catalogue.js";
import type { ServiceState } from "../domain/carriers/service-status.js";
import {
  jsonObject,
  type KeyMode,
  modeOption,
  type Output,
  positiveInteger,
  print,
  serviceIdList,
  withServices,
} from "./output.js";

export function addCarriersCommands(program: Command, out: () => Output): void {
  const carriers = program.command("carriers").description("connect carriers and set their service status");
  carriers
    .command("connect")
    .description("connect a carrier account to an account")
    .requiredOption("--account <id>", "account id", positiveInteger("--account"))
    .addOption(new Option("--carrier <code>", "carrier code").choices([...CARRIER_CODES]).makeOptionMandatory())
    .addOption(modeOption("key mode it serves"))
    .option("--services <ids>", "comma-separated service ids to enable (default: all)", serviceIdList)
    .option("--credentials <json>", "carrier credentials as a JSON object (stored encrypted)", jsonObject)
    .option("--description <text>", "a note for people")
    .action(
      (options: {
        account: number;
        carrier: string;
        mode: KeyMode;
        services?: number[];
        credentials?: Record<string, unknown>;
        description?: string;
      }) =>
        withServices(async (services) => {
          const { connectCarrier } = await import("../domain/carriers/connect-carrier.js");
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
        const { listConnectedCarrierAccounts } = await import("../domain/carriers/carrier-accounts.repository.js");
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
    .addOption(modeOption("mode of the connection"))
    .action((options: { account: number; id: number; mode: KeyMode }) =>
      withServices(async (services) => {
        const { disconnectCarrier } = await import("../domain/carriers/connect-carrier.js");
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
        const { setCarrierApiStatus } = await import("../domain/carriers/service-status.js");
        await setCarrierApiStatus(services, options.carrier, options.api, options.status, options.message ?? null);
        print(out(), options, () => `${options.carrier} ${options.api} is now ${options.status}`);
      }),
    );
}
