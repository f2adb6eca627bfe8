import type { ServiceScope } from "../../carriers/catalogue.js";

export interface PlannedShipment {
  shipmentId: number;
  scope: ServiceScope;
  /** Tracking numbers it adds to a document (one per parcel). */
  trackingNumbers: number;
}

export interface PlannedDocument {
  scope: ServiceScope;
  shipmentIds: number[];
}

/**
 * The documents a batch request becomes: domestic and international shipments
 * apart, and no document listing more tracking numbers than the carrier takes on one; a
 * shipment's parcels always stay on one document. Domestic first, each in the order asked.
 */
export function planDocuments(shipments: readonly PlannedShipment[], limit: number): PlannedDocument[] {
  const documents: PlannedDocument[] = [];
  for (const scope of ["domestic", "international"] as const) {
    let current: PlannedDocument | undefined;
    let listed = 0;
    for (const shipment of shipments.filter((s) => s.scope === scope)) {
      if (!current || listed + shipment.trackingNumbers > limit) {
        current = { scope, shipmentIds: [] };
        documents.push(current);
        listed = 0;
      }
      current.shipmentIds.push(shipment.shipmentId);
      listed += shipment.trackingNumbers;
    }
  }
  return documents;
}
