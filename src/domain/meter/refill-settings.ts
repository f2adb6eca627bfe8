import type { Transaction } from "kysely";
import type { Database } from "../../storage/schema.js";
import { findAccount } from "../accounts/accounts.repository.js";
import { DomainError } from "../errors.js";
import { findDefaultPaymentMethod } from "../payments/payment-methods.repository.js";
import type { AccountScope, DomainServices } from "../services.js";
import { isRefillAmount } from "./refill-meter.js";

/**
 * Automatic refill (eHub's `template_data.payment`): when a label would leave the balance below
 * `triggerCents`, the default method is charged `amountCents` first. Both null: off.
 */
export interface RefillSettings {
  triggerCents: number | null;
  amountCents: number | null;
}

export const NO_AUTOMATIC_REFILL: RefillSettings = { triggerCents: null, amountCents: null };

export function checkRefillSettings(settings: RefillSettings): RefillSettings {
  const { triggerCents, amountCents } = settings;
  if (triggerCents === null && amountCents === null) return NO_AUTOMATIC_REFILL;
  if (
    triggerCents === null ||
    amountCents === null ||
    !Number.isSafeInteger(triggerCents) ||
    triggerCents < 0 ||
    triggerCents > 100 * 1_000_000 ||
    !isRefillAmount(amountCents)
  ) {
    throw invalidRefillSettings();
  }
  return settings;
}

/** The settings come as a pair; the answer to anything else says so. */
export const invalidRefillSettings = () =>
  new DomainError(
    "meter.invalid_settings",
    "Automatic refill needs both refill_trigger_balance (0 or more) and refill_amount (1.00 to 10,000.00), in whole cents; send both null to turn it off.",
  );

/** Settings apply to the account's meters in both modes, as eHub keeps them on the customer. */
export async function getRefillSettings(services: DomainServices, accountId: number): Promise<RefillSettings> {
  const account = await findAccount(services.db, accountId);
  return { triggerCents: account?.refill_trigger_cents ?? null, amountCents: account?.refill_amount_cents ?? null };
}

export async function writeRefillSettings(
  trx: Transaction<Database>,
  accountId: number,
  settings: RefillSettings,
): Promise<void> {
  const checked = checkRefillSettings(settings);
  await trx
    .updateTable("accounts")
    .set({ refill_trigger_cents: checked.triggerCents, refill_amount_cents: checked.amountCents })
    .where("id", "=", accountId)
    .execute();
}

/**
 * Sets the account's automatic refill from a key of `scope`. Turning it on needs a default payment
 * method in the key's mode: refills charge the default, and without one they would never happen.
 */
export async function setRefillSettings(
  services: DomainServices,
  scope: AccountScope,
  settings: RefillSettings,
): Promise<RefillSettings> {
  const checked = checkRefillSettings(settings);
  if (checked.triggerCents !== null && !(await findDefaultPaymentMethod(services.db, scope))) {
    throw new DomainError(
      "meter.no_default_payment_method",
      "Automatic refill charges the default payment method, and this account has none: add a payment method (POST /api/v2/payment_methods; the first one becomes the default) or make one the default (PUT /api/v2/payment_methods/{id} with default_payment_method true), then turn automatic refill on.",
    );
  }
  await services.db.transaction().execute((trx) => writeRefillSettings(trx, scope.accountId, checked));
  return checked;
}
