import { labelPreviewPng, PREVIEWABLE_FORMATS } from "../../labels/images/label-preview.js";
import type { LabelFormat } from "../../labels/label.js";
import { DomainError, notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { boughtShipmentRecord } from "./shipments.repository.js";

/**
 * A parcel's label (the first parcel's without `parcelId`) as a PNG for a browser to show: ZPL
 * and EPL2 drawn as a printer would, the carrier's bytes or Porter's; rasters re-encoded. PDF
 * shows as it is: it is refused with 422 `label_preview.unavailable`, as is ZPL or EPL2 the
 * renderer cannot read.
 */
export async function shipmentLabelPreview(
  services: DomainServices,
  scope: AccountScope,
  shipmentId: number,
  parcelId?: number,
): Promise<Buffer> {
  const { parcels, labels } = await boughtShipmentRecord(services.db, scope, shipmentId);
  const parcel = parcelId === undefined ? parcels[0] : parcels.find((p) => p.id === parcelId);
  if (!parcel) throw notFound("parcel", parcelId ?? 0);
  const label = labels.filter((l) => l.parcel_id === parcel.id).at(-1);
  const bytes = label && (await services.files.get(label.file_name));
  if (!label || !bytes) throw notFound("label", parcel.id);
  const format = label.format as LabelFormat;
  if (!PREVIEWABLE_FORMATS.includes(format)) {
    throw new DomainError(
      "label_preview.unavailable",
      `This label is ${format.toUpperCase()}: only ZPL, EPL2 and image labels have a preview (a PDF shows as it is).`,
    );
  }
  const stored = { bytes, format, widthIn: label.width_in, heightIn: label.height_in, dpi: label.dpi };
  // ZPL or EPL2 a renderer cannot read is refused like a format without a preview, not a server fault.
  return labelPreviewPng(stored).catch((error: Error) => {
    throw new DomainError("label_preview.unavailable", error.message);
  });
}
