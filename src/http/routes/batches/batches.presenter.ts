import type { BatchRecord } from "../../../domain/batches/batches.repository.js";

export const fileUrl = (baseUrl: string, name: string | null): string | null =>
  name ? `${baseUrl}/files/${name}` : null;

/** eHub's Batch, with its status and carrier; the merged PDF appears once generated. */
export function presentBatch({ batch, shipmentIds }: BatchRecord, baseUrl: string) {
  const generated = batch.status === "generated";
  return {
    id: String(batch.id),
    bol_url: fileUrl(baseUrl, batch.document_file),
    created_at: batch.created_at,
    shipments_ids: shipmentIds,
    tracking_number: batch.tracking_number,
    errors: batch.errors,
    status: batch.status,
    carrier_code: batch.carrier_code,
    merged_docs: generated ? fileUrl(baseUrl, batch.merged_file) : null,
  };
}
