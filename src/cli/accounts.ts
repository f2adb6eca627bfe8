import type { Command } from "commander";
import { type Output, positiveInteger, print, withServices } from "./output.js";

export function addAccountsCommands(program: Command, out: () => Output): void {
  const accounts = program.command("accounts").description("manage accounts");
  accounts
    .command("create")
    .description("create an account (a child account with --parent)")
    .requiredOption("--name <name>", "account name")
    .option("--parent <id>", "parent account id", positiveInteger("--parent"))
    .option("--email <email>", "contact email")
    .action((options: { name: string; parent?: number; email?: string }) =>
      withServices(async (services) => {
        const { createAccount } = await import("../domain/accounts/create-account.js");
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
        const { listAccounts } = await import("../domain/accounts/accounts.repository.js");
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
}
