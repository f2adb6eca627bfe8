import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { KeyMode } from "../domain/accounts/api-keys.js";
import type { DialectName } from "../storage/db.js";
import { ownedBy } from "../storage/owned-by.js";
import type { Database, WebhookDeliveryTable, WebhookSubscriptionTable } from "../storage/schema.js";

export type SubscriptionRow = Selectable<WebhookSubscriptionTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
export type NewDelivery = Insertable<WebhookDeliveryTable>;

interface Scope {
  accountId: number;
  mode: KeyMode;
}

export async function insertSubscription(
  db: Kysely<Database>,
  values: Insertable<WebhookSubscriptionTable>,
): Promise<SubscriptionRow> {
  return db.insertInto("webhook_subscriptions").values(values).returningAll().executeTakeFirstOrThrow();
}

/** A live (not deleted) subscription of the scope. */
export async function findSubscription(
  db: Kysely<Database>,
  scope: Scope,
  id: number,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom("webhook_subscriptions")
    .selectAll()
    .where("id", "=", id)
    .where(ownedBy(scope))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export async function listSubscriptions(
  db: Kysely<Database>,
  scope: Scope,
  filter: {
    subscriptionType?: WebhookSubscriptionTable["subscription_type"];
    status?: WebhookSubscriptionTable["status"];
  },
  page: { limit: number; offset: number },
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  let query = db.selectFrom("webhook_subscriptions").where(ownedBy(scope)).where("deleted_at", "is", null);
  if (filter.subscriptionType) query = query.where("subscription_type", "=", filter.subscriptionType);
  if (filter.status) query = query.where("status", "=", filter.status);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("id").limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function updateSubscription(
  db: Kysely<Database>,
  id: number,
  changes: Updateable<WebhookSubscriptionTable>,
): Promise<SubscriptionRow> {
  return db
    .updateTable("webhook_subscriptions")
    .set(changes)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Leases the active subscription that has waited longest and has events past its cursor, in one
 * statement, so two workers never deliver one subscription's batch at once: PostgreSQL skips rows
 * another worker is claiming, SQLite serialises writers. A lease that ran out (its worker died)
 * counts as free.
 */
export async function claimDueSubscription(
  db: Kysely<Database>,
  dialect: DialectName,
  workerId: string,
  now: string,
  leaseUntil: string,
): Promise<SubscriptionRow | undefined> {
  let due = db
    .selectFrom("webhook_subscriptions as s")
    .select("s.id")
    .where("s.status", "=", "active")
    .where("s.deleted_at", "is", null)
    .where("s.next_attempt_at", "<=", now)
    .where((eb) => eb.or([eb("s.locked_until", "is", null), eb("s.locked_until", "<", now)]))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("event_streams as h")
          .select(sql.lit(1).as("one"))
          .whereRef("h.account_id", "=", "s.account_id")
          .whereRef("h.mode", "=", "s.mode")
          .whereRef("h.stream", "=", "s.subscription_type")
          .whereRef("h.last_event_id", ">", "s.cursor_event_id"),
      ),
    )
    .orderBy("s.next_attempt_at")
    .orderBy("s.id")
    .limit(1);
  if (dialect === "postgres") due = due.forUpdate("s").skipLocked();
  return db
    .updateTable("webhook_subscriptions")
    .set({ locked_by: workerId, locked_until: leaseUntil })
    .where("id", "=", (eb) => eb.selectFrom(due.as("due")).select("due.id"))
    .returningAll()
    .executeTakeFirst();
}

/** Changes a leased subscription only while the lease is still this worker's. */
export async function updateLeased(
  db: Kysely<Database>,
  id: number,
  workerId: string,
  changes: Updateable<WebhookSubscriptionTable>,
  batchMessageId?: string,
): Promise<boolean> {
  let query = db
    .updateTable("webhook_subscriptions")
    .set(changes)
    .where("id", "=", id)
    .where("locked_by", "=", workerId);
  if (batchMessageId !== undefined) query = query.where("batch_message_id", "=", batchMessageId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertDelivery(db: Kysely<Database>, values: NewDelivery): Promise<DeliveryRow> {
  return db.insertInto("webhook_deliveries").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findDelivery(
  db: Kysely<Database>,
  subscriptionId: number,
  id: number,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("id", "=", id)
    .where("subscription_id", "=", subscriptionId)
    .executeTakeFirst();
}

export async function findDeliveryById(db: Kysely<Database>, id: number): Promise<DeliveryRow | undefined> {
  return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A subscription's attempts, newest first. */
export async function listDeliveries(
  db: Kysely<Database>,
  subscriptionId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const query = db.selectFrom("webhook_deliveries").where("subscription_id", "=", subscriptionId);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("id", "desc").limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function completeDelivery(
  db: Kysely<Database>,
  id: number,
  changes: Updateable<WebhookDeliveryTable>,
): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set(changes)
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

export async function findSubscriptionById(db: Kysely<Database>, id: number): Promise<SubscriptionRow | undefined> {
  return db.selectFrom("webhook_subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
}
