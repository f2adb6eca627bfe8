import { type Command, Option } from "commander";
import { maskApiKey } from "../domain/accounts/api-keys.js";
import { issueSignInLink, SIGN_IN_LINK_MS, setPassword } from "../domain/accounts/dashboard-sessions.js";
import { parseRoles, ROLES, type Role } from "../domain/accounts/roles.js";
import { type Output, positiveInteger, print, withServices } from "./output.js";

/**
 * The whole of standard input, less one line ending: a password never goes on the command line,
 * where the shell's history and the process list would show it.
 */
async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

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
        // The password hash stays in the database, even when empty.
        const { password_hash: _hash, ...shown } = user;
        print(out(), { user: { ...shown, roles: parseRoles(user.roles) }, api_keys: keys ?? null }, () =>
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
  users
    .command("set-password")
    .description("set a user's dashboard password, read from standard input; ends the user's dashboard sessions")
    .requiredOption("--user <id>", "user id", positiveInteger("--user"))
    .action((options: { user: number }) =>
      withServices(async (services) => {
        if (process.stdin.isTTY) process.stderr.write("Type the password, then Enter and Ctrl-D:\n");
        await setPassword(services, options.user, await readStandardInput());
        print(out(), { user: { id: options.user }, password_set: true }, () => `Password set for user ${options.user}`);
      }),
    );
  users
    .command("sign-in-link")
    .description(
      `print a link that signs the user in to the dashboard once, within ${SIGN_IN_LINK_MS / 60_000} minutes`,
    )
    .requiredOption("--user <id>", "user id", positiveInteger("--user"))
    .action((options: { user: number }) =>
      withServices(async (services) => {
        const link = await issueSignInLink(services, options.user);
        // The token rides in the fragment, which browsers never send: it stays out of access logs.
        const url = `${services.config.publicBaseUrl}/dashboard/#/link/${link.token}`;
        print(out(), { url, expires_at: link.expiresAt }, () => `${url}\n(works once, until ${link.expiresAt})`);
      }),
    );
}
