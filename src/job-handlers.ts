import type { DomainServices } from "./domain/services.js";
import { SETTLE_REFUND_JOB, settleRefund } from "./domain/shipments/cancel-shipment.js";
import { RECOVER_PURCHASE_JOB } from "./domain/shipments/purchase-shipment.js";
import { recoverPurchase } from "./domain/shipments/recover-purchase.js";
import type { JobHandlers } from "./jobs/worker.js";

/** Every job kind the worker knows, by name, wired to its use case. */
export function jobHandlers(services: DomainServices): JobHandlers {
  return {
    [RECOVER_PURCHASE_JOB]: async (payload) =>
      recoverPurchase(services, (payload as { shipmentId: number }).shipmentId),
    [SETTLE_REFUND_JOB]: async (payload) => settleRefund(services, (payload as { meterEntryId: number }).meterEntryId),
  };
}
