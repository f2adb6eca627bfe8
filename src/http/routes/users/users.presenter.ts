import { maskApiKey } from "../../../domain/accounts/api-keys.js";
import type { UserWithKeys } from "../../../domain/accounts/list-users.js";
import { parseRoles } from "../../../domain/accounts/roles.js";

/** A user as listed: roles, and live keys masked to prefix and last four characters. */
export function presentUser({ user, keys }: UserWithKeys) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    roles: parseRoles(user.roles),
    api_keys: keys.map((k) => ({ mode: k.mode, api_key: maskApiKey(k.prefix, k.last4), created_at: k.created_at })),
  };
}
