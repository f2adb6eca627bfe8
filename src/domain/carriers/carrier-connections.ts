import type { CarrierAdapter, CarrierApi } from "../../carriers/carrier.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  type CarrierAccountRow,
  type CarrierServiceStatusRow,
  listCarrierServiceStatuses,
  listConnectedCarrierAccounts,
} from "./carrier-accounts.repository.js";

const scopeKey = (scope: AccountScope) => `${scope.accountId}:${scope.mode}`;

/** The scope's live carrier connections, through the short-lived cache. */
export function connectedCarrierAccounts(services: DomainServices, scope: AccountScope): Promise<CarrierAccountRow[]> {
  return services.caches.carrierConnections.getOrLoad(scopeKey(scope), services.clock.now().getTime(), () =>
    listConnectedCarrierAccounts(services.db, scope),
  );
}

export function forgetCarrierConnections(services: DomainServices, scope: AccountScope): void {
  services.caches.carrierConnections.forget(scopeKey(scope));
}

/** The carrier a connection talks through: its real API when it holds API credentials, else the sandbox. */
export function carrierOf(services: DomainServices, connection: CarrierAccountRow): CarrierAdapter | undefined {
  return services.carrierApis.adapterFor(
    connection,
    () => JSON.parse(services.secrets.open(connection.credentials_ciphertext)) as Record<string, unknown>,
  );
}

const API_WORDS: Record<CarrierApi, string> = {
  rate: "Rating",
  label: "Buying labels",
  manifest: "SCAN forms and manifests",
  tracking: "Tracking",
  pickup: "Pickups",
};

/**
 * Refuses work the scope's connection to a carrier cannot do through the carrier's real API yet,
 * rather than letting the sandbox carrier answer for a real account.
 */
export async function requireCarrierApi(
  services: DomainServices,
  scope: AccountScope,
  carrierCode: string,
  api: CarrierApi,
): Promise<void> {
  const connection = (await connectedCarrierAccounts(services, scope)).find((c) => c.carrier_code === carrierCode);
  const carrier = connection && carrierOf(services, connection);
  if (carrier && !carrier.apis.includes(api)) {
    throw new DomainError(
      "carrier.not_supported",
      `${API_WORDS[api]} through a real ${carrier.displayName} connection is not supported by Porter yet; only rating is. Disconnect the real account and connect one without credentials to use the sandbox carrier.`,
    );
  }
}

/** The operator's carrier statuses, through the short-lived cache. */
export function carrierServiceStatuses(services: DomainServices): Promise<CarrierServiceStatusRow[]> {
  return services.caches.carrierStatuses.getOrLoad("all", services.clock.now().getTime(), () =>
    listCarrierServiceStatuses(services.db),
  );
}

/** The operator's word when a carrier API is marked offline (`porter carriers status`), else undefined. */
export async function offlineApi(
  services: DomainServices,
  carrierCode: string,
  api: CarrierServiceStatusRow["api_service"],
): Promise<CarrierServiceStatusRow | undefined> {
  return (await carrierServiceStatuses(services)).find(
    (s) => s.carrier_code === carrierCode && s.api_service === api && s.status === "offline",
  );
}
