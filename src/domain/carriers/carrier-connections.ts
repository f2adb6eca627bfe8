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
