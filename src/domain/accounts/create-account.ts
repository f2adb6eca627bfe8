import type { Transaction } from "kysely";
import type { Database } from "../../storage/schema.js";
import { DomainError, notFound } from "../errors.js";
import { checkRefillSettings, NO_AUTOMATIC_REFILL, type RefillSettings } from "../meter/refill-settings.js";
import type { DomainServices } from "../services.js";
import { type AccountRow, findAccount, insertAccount } from "./accounts.repository.js";

export interface NewAccount {
  name: string;
  parentId?: number | null;
  email?: string | null;
  phone?: string | null;
  externalId?: string | null;
  /** The customer template's fields that are no secret, kept as sent. */
  templateData?: Record<string, unknown> | null;
  refill?: RefillSettings;
}

/** Accounts are one level deep: a parent and its children, never grandchildren. */
export async function insertAccountUnderParent(
  trx: Transaction<Database>,
  input: NewAccount,
  now: string,
): Promise<AccountRow> {
  if (input.parentId != null) {
    const parent = await findAccount(trx, input.parentId);
    if (!parent) throw notFound("account", input.parentId);
    if (parent.parent_id != null) {
      throw new DomainError("customer.nesting_not_allowed", "A child account cannot have child accounts.");
    }
  }
  const refill = checkRefillSettings(input.refill ?? NO_AUTOMATIC_REFILL);
  return insertAccount(trx, {
    parent_id: input.parentId ?? null,
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    external_id: input.externalId ?? null,
    created_at: now,
    template_data: input.templateData ? JSON.stringify(input.templateData) : null,
    refill_trigger_cents: refill.triggerCents,
    refill_amount_cents: refill.amountCents,
  });
}

export async function createAccount(services: DomainServices, input: NewAccount): Promise<AccountRow> {
  return services.db
    .transaction()
    .execute((trx) => insertAccountUnderParent(trx, input, services.clock.now().toISOString()));
}
