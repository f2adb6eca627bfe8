import type { Logger } from "pino";
import type { AppServices } from "./app-services.js";
import { type CloseOutPayload, closeOutPostalDay, POSTAL_CLOSE_OUT_JOB } from "./domain/batches/close-out.js";
import { GENERATE_MANIFESTS_JOB, type ManifestPayload } from "./domain/batches/create-batches.js";
import { generateManifests } from "./domain/batches/generate-manifests.js";
import { VOID_UNVOIDED_LABELS_JOB, voidUnvoidedLabels } from "./domain/incidents/repair-labels.js";
import {
  CHECK_PAYMENT_RETURN_JOB,
  checkPaymentReturn,
  SETTLE_PAYMENT_JOB,
  settlePendingPayment,
} from "./domain/meter/charge-refill.js";
import {
  LINK_LABEL_JOB,
  type LinkLabelPayload,
  linkLabelToOrder,
  UNLINK_LABEL_JOB,
  unlinkLabelFromOrder,
} from "./domain/orders/link-label.js";
import {
  RECONCILE_STORES_JOB,
  RECONCILE_WEBHOOK_STORES_JOB,
  reconcileAllStores,
  reconcileWebhookStores,
  type StoreSyncSchedule,
  SYNC_ALL_STORES_JOB,
  syncAllStores,
} from "./domain/orders/store-sync-schedule.js";
import { SYNC_ORDER_STORE_JOB, type SyncOrderStorePayload, syncOrderStore } from "./domain/orders/sync-order-store.js";
import { PRUNE_JOB, runPruning } from "./domain/retention/prune.js";
import {
  RECORD_REFUND_JOB,
  recordMissingRefund,
  SETTLE_REFUND_JOB,
  settleRefund,
} from "./domain/shipments/cancel-shipment.js";
import { RECOVER_PURCHASE_JOB } from "./domain/shipments/purchase-shipment.js";
import { recoverPurchase } from "./domain/shipments/recover-purchase.js";
import { RESEND_DELIVERY_JOB } from "./domain/subscriptions/webhook-deliveries.js";
import {
  REFRESH_TRACKING_JOB,
  type RefreshTrackingPayload,
  refreshTracking,
} from "./domain/tracking/refresh-tracking.js";
import { WebhookPoster } from "./events/webhook-poster.js";
import { sendPendingDelivery } from "./events/webhook-resend.js";
import type { JobHandlers } from "./jobs/worker.js";
import { OutboundPolicy } from "./net/outbound-guard.js";

/** Every job kind the worker knows, by name, wired to its use case; `logger` hears what a job skipped. */
export function jobHandlers(services: AppServices, logger?: Pick<Logger, "warn">): JobHandlers {
  const storeSchedule = storeSyncSchedule(services);
  return {
    [RESEND_DELIVERY_JOB]: async (payload) => {
      const poster = new WebhookPoster(
        services.secrets,
        new OutboundPolicy(services.config.outboundAllowPrivateTargets),
        services.config.webhookTimeoutMs,
      );
      try {
        await sendPendingDelivery(services.db, services.clock, poster, (payload as { deliveryId: number }).deliveryId);
      } finally {
        poster.close();
      }
    },
    [RECOVER_PURCHASE_JOB]: async (payload) =>
      recoverPurchase(services, (payload as { shipmentId: number }).shipmentId),
    [REFRESH_TRACKING_JOB]: async (payload) =>
      refreshTracking(services, payload as RefreshTrackingPayload, {
        timeScale: services.config.sandboxTimeScale,
        auditPercent: services.config.sandboxAuditPercent,
      }),
    [SETTLE_REFUND_JOB]: async (payload) => settleRefund(services, (payload as { meterEntryId: number }).meterEntryId),
    [RECORD_REFUND_JOB]: async (payload) =>
      recordMissingRefund(services, (payload as { incidentId: number }).incidentId),
    [VOID_UNVOIDED_LABELS_JOB]: async (payload) =>
      voidUnvoidedLabels(services, (payload as { incidentId: number }).incidentId),
    [SETTLE_PAYMENT_JOB]: async (payload) =>
      settlePendingPayment(services, (payload as { paymentTransactionId: number }).paymentTransactionId),
    [CHECK_PAYMENT_RETURN_JOB]: async (payload) =>
      checkPaymentReturn(services, (payload as { paymentTransactionId: number }).paymentTransactionId),
    [GENERATE_MANIFESTS_JOB]: async (payload) => generateManifests(services, payload as ManifestPayload, logger),
    [POSTAL_CLOSE_OUT_JOB]: async (payload) => void (await closeOutPostalDay(services, payload as CloseOutPayload)),
    [SYNC_ORDER_STORE_JOB]: async (payload) => void (await syncOrderStore(services, payload as SyncOrderStorePayload)),
    [SYNC_ALL_STORES_JOB]: async () => void (await syncAllStores(services, storeSchedule)),
    [RECONCILE_STORES_JOB]: async () => void (await reconcileAllStores(services, storeSchedule)),
    [RECONCILE_WEBHOOK_STORES_JOB]: async () => void (await reconcileWebhookStores(services, storeSchedule)),
    [LINK_LABEL_JOB]: async (payload) => void (await linkLabelToOrder(services, payload as LinkLabelPayload)),
    [PRUNE_JOB]: async () => void (await runPruning(services, services.config)),
    [UNLINK_LABEL_JOB]: async (payload) => void (await unlinkLabelFromOrder(services, payload as LinkLabelPayload)),
  };
}

export function storeSyncSchedule(services: AppServices): StoreSyncSchedule {
  return {
    syncIntervalMs: services.config.storeSyncIntervalMs,
    reconcileWindowMs: services.config.storeReconcileWindowMs,
    webhookReconcileIntervalMs: services.config.storeWebhookReconcileIntervalMs,
  };
}
