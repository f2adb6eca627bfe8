import { DomainError, notFound } from "../errors.js";
import type { DomainServices } from "../services.js";
import { findUser, revokeKeysOfUser, type UserRow } from "./accounts.repository.js";
import { issueKeysFor, type PlaintextKeys } from "./create-user.js";
import { parseRoles } from "./roles.js";

export interface RotatedKeys {
  user: UserRow;
  keys: PlaintextKeys;
  /** Hashes of the keys that stopped working, so caches can forget them. */
  revokedHashes: string[];
}

/**
 * Replaces a user's keys; the old ones stop working at once. `accountIds` limits which users the
 * caller may touch (undefined for the operator's CLI, which may touch any).
 */
export async function rotateKeys(
  services: DomainServices,
  userId: number,
  accountIds?: readonly number[],
): Promise<RotatedKeys> {
  return services.db.transaction().execute(async (trx) => {
    const user = await findUser(trx, userId);
    if (!user || (accountIds && !accountIds.includes(user.account_id))) throw notFound("user", userId);
    if (!parseRoles(user.roles).includes("API")) {
      throw new DomainError("user.not_api_user", `User ${userId} does not have the API role, so holds no keys.`);
    }
    const now = services.clock.now().toISOString();
    const revokedHashes = await revokeKeysOfUser(trx, user.id, now);
    const keys = await issueKeysFor(trx, user, now);
    return { user, keys, revokedHashes };
  });
}

export async function revokeKeys(services: DomainServices, userId: number): Promise<string[]> {
  const user = await findUser(services.db, userId);
  if (!user) throw notFound("user", userId);
  return revokeKeysOfUser(services.db, userId, services.clock.now().toISOString());
}
