import { DomainError, notFound } from "../errors.js";
import type { DomainServices } from "../services.js";
import {
  findUser,
  listLiveKeysOfUsers,
  listUsersOfAccounts,
  lockAccount,
  revokeKeysOfUser,
  updateUserRoles,
} from "./accounts.repository.js";
import { KEY_MODES } from "./api-keys.js";
import { createUser, issueKeysFor, type NewUser, type PlaintextKeys } from "./create-user.js";
import { listUsersWithKeys, type UserWithKeys } from "./list-users.js";
import { GRANTED_BY, isGranted, parseRoles, type Role, serializeRoles } from "./roles.js";

export interface ManagedUser {
  /** The user as listed, keys masked by the caller. */
  listed: UserWithKeys;
  /** New keys, shown once: present when the user gained the API role. */
  keys?: PlaintextKeys;
  /** Hashes of keys whose holder changed (revoked, or holding other roles now), so caches can forget them. */
  changedKeyHashes: string[];
}

async function listed(services: DomainServices, accountId: number, userId: number): Promise<UserWithKeys> {
  const users = await listUsersWithKeys(services, [accountId]);
  const found = users.find((u) => u.user.id === userId);
  if (!found) throw notFound("user", userId);
  return found;
}

/** A new user of the account; with the API role it gets one key of each mode, shown once. */
export async function addUser(services: DomainServices, input: NewUser): Promise<ManagedUser> {
  const created = await createUser(services, input);
  return { listed: await listed(services, input.accountId, created.user.id), keys: created.keys, changedKeyHashes: [] };
}

/**
 * Gives a user of the account a new set of roles. An account keeps at least one user who may
 * administer it (Primary or Owner), or nobody could add users or rotate keys any more but the
 * operator's CLI. Losing `API` revokes the user's keys; gaining it issues new ones, shown once.
 */
export async function changeRoles(
  services: DomainServices,
  accountId: number,
  userId: number,
  roles: readonly Role[],
): Promise<ManagedUser> {
  const outcome = await services.db.transaction().execute(async (trx) => {
    const user = await findUser(trx, userId);
    if (!user || user.account_id !== accountId) throw notFound("user", userId);
    // Two demotions of the account's last two administrators take turns, so one of them is refused.
    await lockAccount(trx, accountId);
    const others = (await listUsersOfAccounts(trx, [accountId])).filter((u) => u.id !== userId);
    if (!isGranted(roles, "administration") && !others.some((u) => isGranted(parseRoles(u.roles), "administration"))) {
      throw new DomainError(
        "user.last_administrator",
        `User ${userId} is the account's last user with the ${GRANTED_BY.administration.join(" or ")} role.`,
      );
    }
    const had = parseRoles(user.roles).includes("API");
    const has = roles.includes("API");
    await updateUserRoles(trx, userId, serializeRoles(roles));
    const now = services.clock.now().toISOString();
    if (had === has) {
      const live = await listLiveKeysOfUsers(trx, [userId]);
      return { changedKeyHashes: live.map((k) => k.key_hash) };
    }
    const changedKeyHashes = await revokeKeysOfUser(trx, userId, KEY_MODES, now);
    if (!has) return { changedKeyHashes };
    return { changedKeyHashes, keys: (await issueKeysFor(trx, user, KEY_MODES, now)) as PlaintextKeys };
  });
  return { listed: await listed(services, accountId, userId), ...outcome };
}
