import { notFound } from "../errors.js";
import type { DomainServices } from "../services.js";
import { type AccountRow, listChildAccounts } from "./accounts.repository.js";
import { listUsersWithKeys, type UserWithKeys } from "./list-users.js";

export interface CustomerRecord {
  account: AccountRow;
  /** The account's first user, the one created with it. */
  primaryUser: UserWithKeys | undefined;
}

/** The caller's child accounts, optionally only those with the given ids. */
export async function listCustomers(
  services: DomainServices,
  parentAccountId: number,
  ids?: readonly number[],
): Promise<CustomerRecord[]> {
  const accounts = await listChildAccounts(services.db, parentAccountId, ids);
  const users = await listUsersWithKeys(
    services,
    accounts.map((a) => a.id),
  );
  return accounts.map((account) => ({
    account,
    primaryUser: users.find((u) => u.user.account_id === account.id),
  }));
}

export async function getCustomer(
  services: DomainServices,
  parentAccountId: number,
  customerId: number,
): Promise<CustomerRecord> {
  const [customer] = await listCustomers(services, parentAccountId, [customerId]);
  if (!customer) throw notFound("customer", customerId);
  return customer;
}
