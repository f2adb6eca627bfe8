import { CredentialsInvalid, type RealCarrier } from "../../carriers/carrier-apis.js";
import type { CarrierCode } from "../../carriers/catalogue.js";
import { findCarrier, findService } from "../../carriers/registry.js";
import { DomainError, notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  type CarrierAccountRow,
  disconnectCarrierAccount,
  insertCarrierAccount,
  listConnectedCarrierAccounts,
} from "./carrier-accounts.repository.js";
import { forgetCarrierConnections } from "./carrier-connections.js";
import { callingCarrier } from "./carrier-failure.js";

export interface CarrierConnection {
  carrierCode: string;
  credentials?: Record<string, unknown>;
  /** Undefined or null: every service of the carrier. */
  enabledServiceIds?: readonly number[] | null;
  description?: string | null;
}

/** One live connection per carrier and mode: two would answer every rate twice. */
export async function connectCarrier(
  services: DomainServices,
  scope: AccountScope,
  connection: CarrierConnection,
): Promise<CarrierAccountRow> {
  const carrier = findCarrier(connection.carrierCode);
  if (!carrier) {
    throw new DomainError("carrier_account.unknown_carrier", `There is no carrier ${connection.carrierCode}.`);
  }
  const foreign = connection.enabledServiceIds?.filter((id) => findService(id)?.carrierCode !== carrier.code) ?? [];
  if (foreign.length > 0) {
    throw new DomainError(
      "carrier_account.unknown_service",
      `Service ${foreign.join(", ")} is not a ${carrier.displayName} service.`,
    );
  }
  const existing = await listConnectedCarrierAccounts(services.db, scope);
  forgetCarrierConnections(services, scope);
  if (existing.some((row) => row.carrier_code === carrier.code)) {
    throw new DomainError(
      "carrier_account.already_connected",
      `${carrier.displayName} is already connected in ${scope.mode} mode; disconnect it first.`,
    );
  }
  const real = await verifiedRealCarrier(services, scope, carrier.code, connection.credentials ?? {});
  const row = await insertCarrierAccount(services.db, {
    account_id: scope.accountId,
    carrier_code: carrier.code,
    mode: scope.mode,
    description: connection.description ?? null,
    credentials_ciphertext: services.secrets.seal(JSON.stringify(connection.credentials ?? {})),
    // Stored under the ids rates answer with, whichever of a service's listings the client sent.
    enabled_service_ids: connection.enabledServiceIds
      ? JSON.stringify([...new Set(connection.enabledServiceIds.map((id) => findService(id)!.serviceId))])
      : null,
    created_at: services.clock.now().toISOString(),
    disconnected_at: null,
  });
  if (real) services.carrierApis.remember(row.id, real);
  return row;
}

/** The carrier's real API these credentials open, proven with the carrier; undefined for the sandbox. */
async function verifiedRealCarrier(
  services: DomainServices,
  scope: AccountScope,
  carrierCode: string,
  credentials: Record<string, unknown>,
): Promise<RealCarrier | undefined> {
  let real: RealCarrier | undefined;
  try {
    real = services.carrierApis.open(carrierCode, scope.mode, credentials);
  } catch (error) {
    if (error instanceof CredentialsInvalid)
      throw new DomainError("carrier_account.credentials_invalid", error.message);
    throw error;
  }
  await callingCarrier(services.clock, async () => real?.verify());
  return real;
}

export async function disconnectCarrier(services: DomainServices, scope: AccountScope, id: number): Promise<void> {
  const done = await disconnectCarrierAccount(services.db, scope, id, services.clock.now().toISOString());
  forgetCarrierConnections(services, scope);
  if (!done) throw notFound("carrier_account", id);
}

/** Connects every sandbox carrier in both modes (the demo account, a fresh evaluation). */
export async function connectAllSandboxCarriers(
  services: DomainServices,
  accountId: number,
  carrierCodes: readonly CarrierCode[],
): Promise<void> {
  for (const mode of ["test", "production"] as const) {
    for (const carrierCode of carrierCodes) {
      await connectCarrier(services, { accountId, mode }, { carrierCode, description: "Sandbox" });
    }
  }
}

/** The ids of the services an account may use through one connection. */
export function enabledServiceIdsOf(row: CarrierAccountRow): ReadonlySet<number> | undefined {
  return row.enabled_service_ids ? new Set(JSON.parse(row.enabled_service_ids) as number[]) : undefined;
}
