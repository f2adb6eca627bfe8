import type { DomainServices } from "../services.js";
import { type ApiKeyRow, listLiveKeysOfUsers, listUsersOfAccounts, type UserRow } from "./accounts.repository.js";

export interface UserWithKeys {
  user: UserRow;
  keys: ApiKeyRow[];
}

/** The users of the given accounts, each with its live keys (hashes stay inside; callers mask). */
export async function listUsersWithKeys(
  services: DomainServices,
  accountIds: readonly number[],
): Promise<UserWithKeys[]> {
  const users = await listUsersOfAccounts(services.db, accountIds);
  const keys = await listLiveKeysOfUsers(
    services.db,
    users.map((u) => u.id),
  );
  return users.map((user) => ({ user, keys: keys.filter((k) => k.user_id === user.id) }));
}
