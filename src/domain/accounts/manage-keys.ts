import { DomainError, notFound } from "../errors.js";
import type { DomainServices } from "../services.js";
import { findUser, revokeKeysOfUser, type UserRow } from "./accounts.repository.js";
import { KEY_MODES, type KeyMode } from "./api-keys.js";
import { issueKeysFor, type PlaintextKeys } from "./create-user.js";
import { parseRoles } from "./roles.js";

export interface RotatedKeys {
  user: UserRow;
  /** The new keys, one for each rotated mode. */
  keys: Partial<PlaintextKeys>;
  /** Hashes of the keys that stopped working, so caches can forget them. */
  revokedHashes: string[];
}

/** Whose keys a caller may rotate: users of these accounts, keys of these modes. */
export interface RotationReach {
  /** Undefined for the operator's CLI, which may touch any account. */
  accountIds?: readonly number[];
  /**
   * An API key acts in its own mode only, so a test key (the kind that ends up in CI settings)
   * never yields a production key. The operator's CLI rotates both.
   */
  modes: readonly KeyMode[];
}

/** Replaces a user's keys of the reached modes; the old ones stop working at once. */
export async function rotateKeys(
  services: DomainServices,
  userId: number,
  reach: RotationReach = { modes: KEY_MODES },
): Promise<RotatedKeys> {
  return services.db.transaction().execute(async (trx) => {
    const user = await findUser(trx, userId);
    if (!user || (reach.accountIds && !reach.accountIds.includes(user.account_id))) throw notFound("user", userId);
    if (!parseRoles(user.roles).includes("API")) {
      throw new DomainError("user.not_api_user", `User ${userId} does not have the API role, so holds no keys.`);
    }
    const now = services.clock.now().toISOString();
    const revokedHashes = await revokeKeysOfUser(trx, user.id, reach.modes, now);
    const keys = await issueKeysFor(trx, user, reach.modes, now);
    return { user, keys, revokedHashes };
  });
}

export async function revokeKeys(services: DomainServices, userId: number): Promise<string[]> {
  const user = await findUser(services.db, userId);
  if (!user) throw notFound("user", userId);
  return revokeKeysOfUser(services.db, userId, KEY_MODES, services.clock.now().toISOString());
}
