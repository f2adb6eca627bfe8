import type { Command } from "commander";
import { type Output, positiveInteger, print, withServices } from "./output.js";

export function addKeysCommands(program: Command, out: () => Output): void {
  const keys = program.command("keys").description("manage API keys");
  keys
    .command("rotate")
    .description("replace a user's keys; the old ones stop working")
    .requiredOption("--user <id>", "user id", positiveInteger("--user"))
    .action((options: { user: number }) =>
      withServices(async (services) => {
        const { rotateKeys } = await import("../domain/accounts/manage-keys.js");
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
        const { revokeKeys } = await import("../domain/accounts/manage-keys.js");
        const revoked = await revokeKeys(services, options.user);
        print(out(), { user_id: options.user, revoked: revoked.length }, () => `Revoked ${revoked.length} key(s).`);
      }),
    );
}
