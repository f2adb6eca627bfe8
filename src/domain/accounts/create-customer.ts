import type { DomainServices } from "../services.js";
import type { AccountRow } from "./accounts.repository.js";
import { insertAccountUnderParent, type NewAccount } from "./create-account.js";
import { type CreatedUser, insertUserWithKeys, refusingTakenEmail } from "./create-user.js";

export interface NewCustomer extends Omit<NewAccount, "parentId"> {
  user: { email: string; firstName?: string | null; lastName?: string | null; phone?: string | null };
}

export interface CreatedCustomer {
  account: AccountRow;
  created: CreatedUser;
}

/** A child account of the caller together with its first user, who owns it and holds API keys. */
export async function createCustomer(
  services: DomainServices,
  parentAccountId: number,
  input: NewCustomer,
): Promise<CreatedCustomer> {
  return refusingTakenEmail(services, input.user.email, () =>
    services.db.transaction().execute(async (trx) => {
      const now = services.clock.now().toISOString();
      const { user, ...account } = input;
      const child = await insertAccountUnderParent(trx, { ...account, parentId: parentAccountId }, now);
      const created = await insertUserWithKeys(trx, { accountId: child.id, ...user, roles: ["Owner", "API"] }, now);
      return { account: child, created };
    }),
  );
}
