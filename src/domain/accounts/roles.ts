export const ROLES = ["Owner", "Primary", "API", "Member"] as const;
export type Role = (typeof ROLES)[number];

export function parseRoles(stored: string): Role[] {
  return stored.split(",").filter((r): r is Role => (ROLES as readonly string[]).includes(r));
}

export function serializeRoles(roles: readonly Role[]): string {
  return [...new Set(roles)].join(",");
}

/** Owner and Primary users administer the account's users and their keys. */
export function canAdministerUsers(roles: readonly Role[]): boolean {
  return roles.includes("Owner") || roles.includes("Primary");
}
