import { type Command, Option } from "commander";
import { maskApiKey } from "../domain/accounts/api-keys.js";
import { parseRoles, ROLES, type Role } from "../domain/accounts/roles.js";
import { type Output, positiveInteger, print, withServices } from "./output.js";

export function addUsersCommands(program: Command, out: () => Output): void {
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
        const { createUser } = await import("../domain/accounts/create-user.js");
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
        const { listUsersWithKeys } = await import("../domain/accounts/list-users.js");
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
}
