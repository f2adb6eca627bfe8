import type { AppServices } from "../../src/app-services.js";
import { CARRIER_CODES_CONNECTED_BY_DEFAULT } from "../../src/carriers/registry.js";
import { connectAllSandboxCarriers } from "../../src/domain/carriers/connect-carrier.js";

/** Connects every sandbox carrier to the account in both modes, as the demo account has. */
export function connectSandboxCarriers(services: AppServices, accountId: number): Promise<void> {
  return connectAllSandboxCarriers(services, accountId, CARRIER_CODES_CONNECTED_BY_DEFAULT);
}
