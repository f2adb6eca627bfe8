import { CARRIER_APIS, type CarrierApi, SERVICE_STATES } from "../../carriers/carrier.js";
import { findCarrier } from "../../carriers/registry.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { upsertCarrierServiceStatus } from "./carrier-accounts.repository.js";
import { carrierHealthOf, carrierOf, carrierServiceStatuses, connectedCarrierAccounts } from "./carrier-connections.js";

export { SERVICE_STATES };
export type ServiceState = (typeof SERVICE_STATES)[number];

export interface CarrierApiStatus {
  carrierCode: string;
  carrierName: string;
  api: CarrierApi;
  status: ServiceState;
  message: string | null;
  /** Calls this process made to a real carrier's API in the last hour, and the hourly budget; null for the sandbox. */
  callsLastHour: number | null;
  callsPerHour: number | null;
}

/**
 * One row per API of each carrier the account has connected: as the operator last set it, and
 * `degraded` while a real connection's breaker for that API is open (the carrier kept failing).
 */
export async function carrierApiStatuses(services: DomainServices, scope: AccountScope): Promise<CarrierApiStatus[]> {
  const [accounts, statuses] = await Promise.all([
    connectedCarrierAccounts(services, scope),
    carrierServiceStatuses(services),
  ]);
  return accounts.flatMap((connection) => {
    const carrier = carrierOf(services, connection);
    if (!carrier) return [];
    const health = carrierHealthOf(services, connection);
    return carrier.apis.map((api) => {
      const set = statuses.find((s) => s.carrier_code === carrier.code && s.api_service === api);
      const calls = health.find((h) => h.purpose === api);
      const real = carrier !== findCarrier(carrier.code);
      if (set?.status !== "offline" && calls?.breaker === "open") {
        return {
          carrierCode: carrier.code,
          carrierName: carrier.displayName,
          api,
          status: "degraded" as const,
          message: `${carrier.displayName} failed repeatedly (${calls.lastFailure}); Porter tries again at ${calls.openUntil?.toISOString()}.`,
          callsLastHour: calls.callsLastHour,
          callsPerHour: calls.callsPerHour,
        };
      }
      return {
        carrierCode: carrier.code,
        carrierName: carrier.displayName,
        api,
        status: set?.status ?? "online",
        message: set?.message ?? null,
        callsLastHour: real ? (calls?.callsLastHour ?? 0) : null,
        callsPerHour: calls?.callsPerHour ?? null,
      };
    });
  });
}

/** The operator marks a carrier API degraded or offline (or online again), for every account. */
export async function setCarrierApiStatus(
  services: DomainServices,
  carrierCode: string,
  api: string,
  status: ServiceState,
  message: string | null,
): Promise<void> {
  const carrier = findCarrier(carrierCode);
  if (!carrier) throw new DomainError("carrier_account.unknown_carrier", `There is no carrier ${carrierCode}.`);
  if (!(CARRIER_APIS as readonly string[]).includes(api) || !carrier.apis.includes(api as CarrierApi)) {
    throw new DomainError(
      "request.invalid",
      `${carrier.displayName} has no ${api} API; it has ${carrier.apis.join(", ")}.`,
    );
  }
  await upsertCarrierServiceStatus(services.db, {
    carrier_code: carrier.code,
    api_service: api,
    status,
    message,
    updated_at: services.clock.now().toISOString(),
  });
  services.caches.carrierStatuses.forget("all");
}
