import { StoreConnectorError } from "../../stores/store-connector.js";
import { DomainError, notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  findOrderStore,
  insertOrderStore,
  listOrderStores,
  type OrderStoreRow,
  updateOrderStore,
} from "./order-stores.repository.js";

export type StoreType = OrderStoreRow["service_type"];

/**
 * What each platform's connector will need to reach the store, as the sets of credentials any one
 * of which will do; a custom store needs nothing. A Shopify store is reached by a Dev Dashboard
 * app's client id and secret, or by a legacy custom app's static token.
 */
const REQUIRED_CREDENTIALS: Record<StoreType, readonly (readonly string[])[]> = {
  custom: [[]],
  shopify: [
    ["shop_domain", "client_id", "client_secret"],
    ["shop_domain", "access_token"],
  ],
  woocommerce: [["site_url", "consumer_key", "consumer_secret"]],
};

export interface StoreFields {
  name?: string;
  externalId?: string | null;
  credentials?: Record<string, string>;
}

/**
 * Credentials a store's platform connector can be opened with: their shape, and the addresses in
 * them through the outbound guard (nothing is sent anywhere).
 */
async function checkCredentials(
  services: DomainServices,
  type: StoreType,
  credentials: Record<string, string>,
): Promise<void> {
  const sets = REQUIRED_CREDENTIALS[type];
  if (!sets.some((keys) => keys.every((key) => credentials[key]?.trim()))) {
    throw new DomainError(
      "order_store.credentials_missing",
      `A ${type} store needs credentials ${sets.map((keys) => keys.join(", ")).join("; or ")}.`,
    );
  }
  const platform = services.storeConnectors.platform(type);
  if (!platform) return;
  try {
    services.storeConnectors.open(platform, credentials);
    await services.storeConnectors.checkAddresses(platform, credentials);
  } catch (error) {
    if (!(error instanceof StoreConnectorError)) throw error;
    throw new DomainError(
      "order_store.credentials_invalid",
      `The ${type} credentials cannot be used: ${error.message}.`,
    );
  }
}

export async function getOrderStore(services: DomainServices, scope: AccountScope, id: number): Promise<OrderStoreRow> {
  const row = await findOrderStore(services.db, scope, id);
  if (!row) throw notFound("order_store", id);
  return row;
}

export function findOrderStores(services: DomainServices, scope: AccountScope): Promise<OrderStoreRow[]> {
  return listOrderStores(services.db, scope);
}

/** Credentials are sealed before they reach the database; they never leave it again in clear. */
export async function createOrderStore(
  services: DomainServices,
  scope: AccountScope,
  type: StoreType,
  fields: StoreFields & { name: string },
): Promise<OrderStoreRow> {
  const credentials = fields.credentials ?? {};
  await checkCredentials(services, type, credentials);
  const now = services.clock.now().toISOString();
  return insertOrderStore(services.db, {
    account_id: scope.accountId,
    mode: scope.mode,
    name: fields.name,
    service_type: type,
    external_id: fields.externalId ?? null,
    credentials_sealed: services.secrets.seal(JSON.stringify(credentials)),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
}

/** Credentials sent replace the stored ones whole. */
export async function changeOrderStore(
  services: DomainServices,
  scope: AccountScope,
  id: number,
  fields: StoreFields,
): Promise<OrderStoreRow> {
  const row = await getOrderStore(services, scope, id);
  if (fields.credentials) await checkCredentials(services, row.service_type, fields.credentials);
  return updateOrderStore(services.db, row.id, {
    ...(fields.name !== undefined && { name: fields.name }),
    ...(fields.externalId !== undefined && { external_id: fields.externalId }),
    ...(fields.credentials && { credentials_sealed: services.secrets.seal(JSON.stringify(fields.credentials)) }),
    updated_at: services.clock.now().toISOString(),
  });
}

/** The store disappears from every call; its orders stay in the database. */
export async function deleteOrderStore(
  services: DomainServices,
  scope: AccountScope,
  id: number,
): Promise<OrderStoreRow> {
  const row = await getOrderStore(services, scope, id);
  const now = services.clock.now().toISOString();
  return updateOrderStore(services.db, row.id, { deleted_at: now, updated_at: now });
}
