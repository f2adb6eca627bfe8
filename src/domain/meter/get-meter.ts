import type { AccountScope, DomainServices } from "../services.js";
import { type MeterTotals, meterTotals } from "./meter.repository.js";
import { getRefillSettings, type RefillSettings } from "./refill-settings.js";

export interface MeterView {
  totals: MeterTotals;
  settings: RefillSettings;
}

export async function getMeter(services: DomainServices, scope: AccountScope): Promise<MeterView> {
  const [totals, settings] = await Promise.all([
    meterTotals(services.db, scope),
    getRefillSettings(services, scope.accountId),
  ]);
  return { totals, settings };
}
