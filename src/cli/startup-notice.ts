import { DEMO_EMAIL, type DemoAccount } from "../app.js";
import type { AppServices } from "../app-services.js";
import { findUserByEmail, listAccounts } from "../domain/accounts/accounts.repository.js";

/** The first start made the demo account: its keys are printed this once and never stored in clear. */
export function demoAccountNotice(demo: DemoAccount): string {
  return [
    "",
    `Created the demo account ${demo.accountId} (user ${demo.email}). Its API keys are shown only now:`,
    `  test:       ${demo.keys.test}`,
    `  production: ${demo.keys.production}`,
    "",
  ].join("\n");
}

/**
 * Any later start prints no key (only their hashes are stored), which a newcomer who missed the
 * first start's output reads as "where are my keys?": say where they went and how to get new ones.
 */
export async function existingDatabaseNotice(services: AppServices): Promise<string> {
  const [first] = await listAccounts(services.db);
  const demo = await findUserByEmail(services.db, DEMO_EMAIL);
  const account = demo?.account_id ?? first?.id ?? "<id>";
  return [
    "",
    "This database already has accounts: API keys were shown when they were made (the demo account's on first start) and are not shown again.",
    "To get new keys (the old ones stop working), rotate them: porter keys rotate --user <id>",
    `  porter users list --account ${account} lists an account's users and their ids${demo ? `; the demo user is ${demo.id}` : ""}.`,
    "",
  ].join("\n");
}
