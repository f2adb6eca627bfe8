export const ROLES = ["Owner", "Primary", "API", "Billing", "Member"] as const;
export type Role = (typeof ROLES)[number];

export function parseRoles(stored: string): Role[] {
  return stored.split(",").filter((r): r is Role => (ROLES as readonly string[]).includes(r));
}

export function serializeRoles(roles: readonly Role[]): string {
  return [...new Set(roles)].join(",");
}

/**
 * What an operation needs of the caller's user. Every route of the API declares one:
 * - `shipping`: everyday work (rates, labels, cancels, tracking, batches, pickups, stores,
 *   webhooks, reading the meter and the account's child accounts);
 * - `billing`: money leaving the account (payment methods, meter refills, automatic refill);
 * - `administration`: users, their keys, and new child accounts (whose answer carries the child's
 *   keys).
 */
export const PERMISSIONS = ["shipping", "billing", "administration"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Which roles grant each permission (eHub's roles, with Billing for money): the one table the
 * routes, docs/security.md and the authorization test follow. Only API users hold keys, so a
 * Billing user without the API role cannot call at all; Member grants nothing.
 */
export const GRANTED_BY: Record<Permission, readonly Role[]> = {
  shipping: ["API", "Primary", "Owner"],
  billing: ["Billing", "Primary", "Owner"],
  administration: ["Primary", "Owner"],
};

export function isGranted(roles: readonly Role[], permission: Permission): boolean {
  return GRANTED_BY[permission].some((role) => roles.includes(role));
}
