import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../storage/schema.js";
import { DomainError } from "../errors.js";
import { findDefaultPaymentMethod } from "../payments/payment-methods.repository.js";
import type { AccountScope, DomainServices } from "../services.js";
import { waitForTurn } from "../shared/wait-for-turn.js";
import { chargeRefill, meterChargeTopic, type RefillCharge } from "./charge-refill.js";
import { appendMeterEntry, type MeterEntryRow, meterTotals, takeFromMeter } from "./meter.repository.js";
import { getRefillSettings } from "./refill-settings.js";

/** How long a purchase waits for another purchase's refill to settle. */
const REFILL_WAIT_LIMIT_MS = 10_000;
/** How many times a purchase refused for funds looks again while an automatic refill could pay. */
const FUNDING_ATTEMPTS = 5;

/** How a label's debit is to be taken: after this refill (if any), and whether it must leave a refill undue. */
export interface LabelFunding {
  refill: RefillCharge | undefined;
  /** Taken only if the balance stays at or above the refill trigger; else `RefillDue` is thrown. */
  aboveRefillTrigger: boolean;
}

/** The first debit found the balance would fall below the refill trigger (or below zero). */
class RefillDue extends Error {}

/**
 * Refills the meter when the label needs it, then runs `debit`, the transaction that takes the
 * price. Most purchases leave the balance above the refill trigger: the first debit is taken only
 * on that condition, so they need no look at the meter before it; one that would cross the trigger
 * is rolled back and funded the long way. Purchases in parallel can spend the balance between this
 * one's look and its debit: while automatic refill is on (and this purchase's refill was not
 * declined), a debit refused for funds looks again, so parallel purchases are funded as they would
 * be one after another.
 */
export async function fundLabel<T>(
  services: DomainServices,
  scope: AccountScope,
  priceCents: number,
  debit: (funding: LabelFunding) => Promise<T>,
): Promise<T> {
  try {
    return await debit({ refill: undefined, aboveRefillTrigger: true });
  } catch (error) {
    if (!(error instanceof RefillDue)) throw error;
  }
  for (let attempt = 1; ; attempt += 1) {
    const refill = await refillBeforeLabel(services, scope, priceCents);
    try {
      return await debit({ refill, aboveRefillTrigger: false });
    } catch (error) {
      const spentMeanwhile =
        error instanceof DomainError &&
        error.code === "meter.insufficient_funds" &&
        refill?.transaction.status !== "rejected" &&
        attempt < FUNDING_ATTEMPTS;
      if (!spentMeanwhile || !(await canRefill(services, scope))) throw error;
    }
  }
}

async function canRefill(services: DomainServices, scope: AccountScope): Promise<boolean> {
  const settings = await getRefillSettings(services, scope.accountId);
  return settings.triggerCents !== null && (await findDefaultPaymentMethod(services.db, scope)) !== undefined;
}

/**
 * Before a label is bought: when its price would take the balance below the account's refill
 * trigger, the default method is charged the refill amount first. Nothing happens when automatic
 * refill is off or there is no default method. While another charge for the meter is in flight
 * (labels bought in parallel) this one waits for it to settle (woken when it does) and looks again,
 * so parallel purchases make one refill, not one each; a charge still in flight after ten seconds
 * (its process died, the recovery job settles it) leaves the purchase to the balance as it is.
 */
async function refillBeforeLabel(
  services: DomainServices,
  scope: AccountScope,
  priceCents: number,
): Promise<RefillCharge | undefined> {
  const turn = await waitForTurn(services, meterChargeTopic(scope), REFILL_WAIT_LIMIT_MS, async () => {
    const { triggerCents, amountCents } = await getRefillSettings(services, scope.accountId);
    if (triggerCents === null || amountCents === null) return { charge: undefined };
    const belowTrigger = async (db: Kysely<Database>) =>
      (await meterTotals(db, scope)).balanceCents - priceCents < triggerCents;
    if (!(await belowTrigger(services.db))) return { charge: undefined };
    const method = await findDefaultPaymentMethod(services.db, scope);
    if (!method) return { charge: undefined };
    let stillNeeded = true;
    const charge = await chargeRefill(services, scope, method, amountCents, "auto_refill", async (trx) => {
      stillNeeded = await belowTrigger(trx);
      return stillNeeded;
    });
    if (charge || !stillNeeded) return { charge };
    // Another charge for the meter is in flight: wait for it to settle.
    return undefined;
  });
  return turn?.charge;
}

/**
 * The label's price taken from the meter, in the transaction that records the purchase intent, by
 * one conditional update of the meter's balance row (see `takeFromMeter`): purchases in parallel
 * take turns on that row and each sees the debits before it; a price the balance does not cover
 * is refused before the carrier is asked.
 */
export async function debitLabel(
  trx: Transaction<Database>,
  scope: AccountScope,
  debit: {
    priceCents: number;
    shipmentId: number;
    description: string;
    stamp: string;
  } & LabelFunding,
): Promise<MeterEntryRow> {
  const refill = debit.refill?.transaction.status === "accepted" ? debit.refill.transaction : undefined;
  const entry = await takeFromMeter(
    trx,
    {
      account_id: scope.accountId,
      mode: scope.mode,
      kind: "label_purchase",
      amount_cents: -debit.priceCents,
      shipment_id: debit.shipmentId,
      description: debit.description,
      status: "posted",
      available_at: debit.stamp,
      created_at: debit.stamp,
      payment_method_id: refill?.payment_method_id ?? null,
      payment_transaction_id: refill?.id ?? null,
    },
    { aboveRefillTrigger: debit.aboveRefillTrigger },
  );
  if (entry) return entry;
  if (debit.aboveRefillTrigger) throw new RefillDue();
  const { balanceCents } = await meterTotals(trx, scope);
  const why = await whyNoRefill(trx, scope, debit.refill);
  throw new DomainError(
    "meter.insufficient_funds",
    `The label costs ${(debit.priceCents / 100).toFixed(2)} and the meter's balance is ${(balanceCents / 100).toFixed(2)}; no label was bought.${why} Refill the meter (POST /api/v2/meter/refill) or set up automatic refills.`,
  );
}

/** Why automatic refill did not cover the label, as a sentence for the 402; empty when it is off. */
async function whyNoRefill(
  trx: Transaction<Database>,
  scope: AccountScope,
  charge: RefillCharge | undefined,
): Promise<string> {
  const refill = charge?.transaction;
  if (refill?.status === "rejected") {
    return ` The automatic refill of ${(refill.amount_cents / 100).toFixed(2)} was declined (${refill.reason ?? "no reason given"}).`;
  }
  const settings = await trx
    .selectFrom("accounts")
    .select(["refill_trigger_cents", "refill_amount_cents"])
    .where("id", "=", scope.accountId)
    .executeTakeFirst();
  if (settings?.refill_trigger_cents == null || settings.refill_amount_cents == null) return "";
  if (!(await findDefaultPaymentMethod(trx, scope))) {
    return " The automatic refill could not be made: the account has no default payment method (make one the default with PUT /api/v2/payment_methods/{id} and default_payment_method true).";
  }
  if (!refill) {
    return " The automatic refill could not be made: another charge for this meter was still unsettled.";
  }
  return "";
}

/** A purchase that failed after its debit: the price goes back on the meter, once. */
export async function releaseLabelDebit(
  trx: Transaction<Database>,
  shipmentId: number,
  reason: string,
  stamp: string,
): Promise<void> {
  const debit = await trx
    .selectFrom("meter_entries")
    .selectAll()
    .where("shipment_id", "=", shipmentId)
    .where("kind", "=", "label_purchase")
    .executeTakeFirst();
  if (!debit || debit.amount_cents === 0) return;
  await appendMeterEntry(trx, {
    account_id: debit.account_id,
    mode: debit.mode,
    kind: "refund",
    amount_cents: -debit.amount_cents,
    shipment_id: shipmentId,
    description: `Charge released: the purchase of shipment ${shipmentId} failed (${reason.slice(0, 200)})`,
    status: "posted",
    available_at: stamp,
    created_at: stamp,
  });
}
