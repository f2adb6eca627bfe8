import type { StoreConnector, StorePlatform } from "../../stores/store-connector.js";
import { StoreConnectorError } from "../../stores/store-connector.js";
import { DomainError } from "../errors.js";
import type { DomainServices } from "../services.js";
import type { OrderStoreRow } from "./order-stores.repository.js";

/** The platform behind a store, or undefined for a custom store or one whose platform Porter cannot reach yet. */
export function platformOf(services: DomainServices, store: OrderStoreRow): StorePlatform | undefined {
  return store.service_type === "custom" ? undefined : services.storeConnectors.platform(store.service_type);
}

/** A connector for the store, its credentials unsealed only here. Throws StoreConnectorError. */
export function openConnector(services: DomainServices, store: OrderStoreRow, platform: StorePlatform): StoreConnector {
  const credentials = JSON.parse(services.secrets.open(store.credentials_sealed)) as Record<string, string>;
  return services.storeConnectors.open(platform, credentials);
}

/** What the platform said, prefixed with what kind of failure it was, for the store's sync error and for callers. */
export function describePlatformFailure(error: StoreConnectorError): string {
  const prefix: Record<StoreConnectorError["kind"], string> = {
    auth: "The platform refused the store's credentials",
    scope: "The store's access lacks a permission Porter needs",
    throttled: "The platform kept throttling Porter",
    not_found: "The platform no longer has it",
    rejected: "The platform refused the change",
    unavailable: "The platform could not be reached",
    invalid_response: "The platform answered something Porter cannot read",
  };
  return `${prefix[error.kind]}: ${error.message}`;
}

/** A platform failure as the caller of a write-back hears it. */
export function platformFailed(error: unknown): unknown {
  if (!(error instanceof StoreConnectorError)) return error;
  return new DomainError("order_store.platform_failed", describePlatformFailure(error));
}
