import type { AccountScope, DomainServices } from "../services.js";
import { type MeterTotals, meterTotals } from "./meter.repository.js";

export function getMeter(services: DomainServices, scope: AccountScope): Promise<MeterTotals> {
  return meterTotals(services.db, scope);
}
