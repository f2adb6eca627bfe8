import type { WebhookHeaders } from "../../stores/store-connector.js";
import { DomainError } from "../errors.js";
import type { DomainServices } from "../services.js";
import { importOrders } from "./import-orders.js";
import { openConnector, platformOf } from "./store-connection.js";

export interface WebhookReceipt {
  topic: string;
  /** A delivery already taken: acknowledged, nothing changed. */
  duplicate: boolean;
}

/**
 * One answer for every refusal, so a caller without the secret learns nothing: not whether the
 * store exists, nor its platform, nor whether it has a secret.
 */
const unverified = () =>
  new DomainError(
    "store_webhook.unverified",
    "The webhook delivery was refused: it is not signed with the webhook secret of a store at this address.",
  );

async function taken(services: DomainServices, storeId: number, deliveryId: string): Promise<boolean> {
  const row = await services.db
    .selectFrom("store_webhook_deliveries")
    .select("id")
    .where("order_store_id", "=", storeId)
    .where("delivery_id", "=", deliveryId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A platform's webhook delivery for a store: verified by the platform's signature over the exact
 * bytes received, taken once per delivery id (platforms deliver some twice), and its order
 * imported like a sync page, so a delivery arriving after a newer one changes nothing. The
 * delivery and its order are written in one transaction: a failure leaves the delivery untaken
 * and the platform's retry brings it again. An unsigned ping is acknowledged for any address
 * without reading the store, so it writes nothing and tells nothing.
 */
export async function receiveStoreWebhook(
  services: DomainServices,
  storeId: number,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<WebhookReceipt> {
  if (services.storeConnectors.isUnsignedPing(rawBody)) return { topic: "ping", duplicate: false };
  const store = await services.db
    .selectFrom("order_stores")
    .selectAll()
    .where("id", "=", storeId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  const platform = store && platformOf(services, store);
  if (!store || !platform) throw unverified();
  let verdict: ReturnType<ReturnType<typeof openConnector>["verifyWebhook"]>;
  try {
    verdict = openConnector(services, store, platform).verifyWebhook(rawBody, headers);
  } catch {
    verdict = { ok: false, reason: "the store's credentials cannot be read" };
  }
  if (!verdict.ok) throw unverified();
  const { topic, deliveryId, order } = verdict;
  if (await taken(services, store.id, deliveryId)) return { topic, duplicate: true };
  const now = services.clock.now().toISOString();
  try {
    await services.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("store_webhook_deliveries")
        .values({ order_store_id: store.id, delivery_id: deliveryId, topic, received_at: now })
        .execute();
      if (order) await importOrders(trx, store, [order], now);
    });
  } catch (error) {
    // The same delivery taken meanwhile by a concurrent request: the unique index refused this one.
    if (!(error instanceof DomainError) && (await taken(services, store.id, deliveryId))) {
      return { topic, duplicate: true };
    }
    throw error;
  }
  return { topic, duplicate: false };
}
