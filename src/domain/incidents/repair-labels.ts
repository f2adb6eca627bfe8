import { unvoidedLabelsOf } from "../../carriers/unvoided-labels.js";
import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import type { DomainServices } from "../services.js";
import type { ShipmentRow } from "../shipments/shipments.repository.js";
import { findMoneyIncident, markRepaired, recordBesideFailure, shipmentIds } from "./money-incidents.js";

export const VOID_UNVOIDED_LABELS_JOB = "money.void_labels";

/**
 * A purchase failed after the carrier sold labels its adapter could not void: records them with
 * the job that voids them. Nothing to do for any other failure.
 */
export async function reportUnvoidedLabels(
  services: DomainServices,
  shipment: ShipmentRow,
  failure: unknown,
): Promise<void> {
  const unvoided = unvoidedLabelsOf(failure);
  if (!unvoided) return;
  await recordBesideFailure(
    services,
    {
      kind: "labels_not_voided",
      ...shipmentIds(shipment),
      tracking_numbers: unvoided.trackingNumbers,
      amount_cents: null,
      job_kind: VOID_UNVOIDED_LABELS_JOB,
      failure: `the purchase failed after the carrier sold these labels, and voiding them failed: ${unvoided.voidFailure}`,
    },
    VOID_UNVOIDED_LABELS_JOB,
  );
}

/** The repair: voids the incident's labels at the carrier that sold them, then marks it repaired. */
export async function voidUnvoidedLabels(services: DomainServices, incidentId: number): Promise<void> {
  const incident = await findMoneyIncident(services.db, incidentId);
  if (!incident || incident.repaired_at !== null || incident.shipment_id === null) return;
  const shipment = await services.db
    .selectFrom("shipments")
    .select(["id", "carrier_code", "carrier_account_id"])
    .where("id", "=", incident.shipment_id)
    .executeTakeFirstOrThrow();
  const carrier = await sellingCarrierOf(services, shipment);
  await carrier.voidLabels(JSON.parse(incident.tracking_numbers) as string[]);
  await markRepaired(services, { id: incidentId }, "voided at the carrier by the repair job");
}
