import type { Kysely } from "kysely";
import type { CarrierApiHealth } from "../../carriers/api-client/call-guard.js";
import type { CarrierAdapter, CarrierApi } from "../../carriers/carrier.js";
import { findCarrier } from "../../carriers/registry.js";
import type { Database } from "../../storage/schema.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  type CarrierAccountRow,
  type CarrierServiceStatusRow,
  findCarrierAccount,
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

const credentialsOf = (services: DomainServices, connection: CarrierAccountRow) => () =>
  JSON.parse(services.secrets.open(connection.credentials_ciphertext)) as Record<string, unknown>;

/** The carrier a connection talks through: its real API when it holds API credentials, else the sandbox. */
export function carrierOf(services: DomainServices, connection: CarrierAccountRow): CarrierAdapter | undefined {
  return services.carrierApis.adapterFor(connection, credentialsOf(services, connection));
}

/**
 * The carrier that sold a shipment's labels: through the connection that bought them (a real
 * carrier's labels are voided and tracked where they were bought, even after a disconnect), or
 * the sandbox carrier for shipments bought before connections were recorded.
 */
export async function sellingCarrierOf(
  services: DomainServices,
  shipment: { id: number; carrier_code: string; carrier_account_id: number | null },
  /** The transaction to read in, when the caller holds one. */
  db: Kysely<Database> = services.db,
): Promise<CarrierAdapter> {
  const connection =
    shipment.carrier_account_id === null ? undefined : await findCarrierAccount(db, shipment.carrier_account_id);
  const carrier = connection ? carrierOf(services, connection) : findCarrier(shipment.carrier_code);
  if (!carrier) throw new Error(`shipment ${shipment.id} has the unknown carrier ${shipment.carrier_code}`);
  return carrier;
}

/** A real connection's call budgets and breakers in this process; empty for a sandbox connection. */
export function carrierHealthOf(services: DomainServices, connection: CarrierAccountRow): CarrierApiHealth[] {
  return services.carrierApis.healthOf(connection, credentialsOf(services, connection));
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
      `${API_WORDS[api]} through a real ${carrier.displayName} connection is not supported by Porter yet; it does ${carrier.apis.map((a) => API_WORDS[a].toLowerCase()).join(", ")}. Disconnect the real account and connect one without credentials to use the sandbox carrier.`,
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
