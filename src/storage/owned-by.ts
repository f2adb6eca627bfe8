import { type Expression, type SqlBool, sql } from "kysely";

/** Whose rows a query may touch: one account, in the mode of the key that asks. */
export interface RowOwner {
  accountId: number;
  mode: string;
}

/**
 * The wall between tenants, as one condition for every query that reads or changes an account's
 * rows (`.where(ownedBy(scope))`), so no query can name the account and forget the mode.
 */
export function ownedBy(owner: RowOwner): Expression<SqlBool> {
  return sql<SqlBool>`account_id = ${owner.accountId} and mode = ${owner.mode}`;
}
