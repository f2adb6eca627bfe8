import { DomainError } from "../../../domain/errors.js";
import type { NewShipment } from "../../../domain/shipments/new-shipment.js";
import type { LabelFormat, LabelSize } from "../../../labels/label.js";
import { parseCalendarDate } from "../dates.js";
import { insuredCentsOf } from "../shipment.schemas.js";
import { normalizeLocation } from "../shipment-input.js";
import type { ShipmentIn } from "./shipments.schemas.js";

/** The wire's shipment (eHub field names) → the domain's, with the edge's own checks. */
export function toNewShipment(input: ShipmentIn, path: string): NewShipment {
  if (!input.parcels || input.parcels.length === 0) {
    throw new DomainError("parcel.missing_parcels", "Missing parcels for request. At least one parcel is required.");
  }
  return {
    to: normalizeLocation(input.to_location, `${path}.to_location`),
    from: normalizeLocation(input.from_location, `${path}.from_location`),
    returnTo: input.return_location ? normalizeLocation(input.return_location, `${path}.return_location`) : undefined,
    parcels: input.parcels.map((parcel, index) => ({
      length: parcel.length,
      width: parcel.width,
      height: parcel.height,
      weight: parcel.weight,
      packageType: parcel.package_type,
      name: parcel.name,
      items: parcel.parcel_items ?? [],
      customsData: parcel.customs_data,
      serviceOptions: parcel.service_options ?? {},
      insuredCents: insuredCentsOf(
        parcel.service_options?.insurance,
        `${path}.parcels[${index}].service_options.insurance`,
      ),
    })),
    serviceId: Number(input.service_id),
    shipDate: input.ship_date ? parseCalendarDate(`${path}.ship_date`, input.ship_date) : undefined,
    label: {
      format: (input.label_format ?? "pdf") as LabelFormat,
      size: (input.label_size ?? "4x6") as LabelSize,
      text1: input.label_text1,
      text2: input.label_text2,
      scale: input.label_scale == null ? null : Number(input.label_scale),
      contents: input.label_contents?.map(({ label_content: c }) => ({
        type: c.type as "text" | "image",
        text: c.text ?? undefined,
        base64Image: c.base64_image ?? undefined,
        x: c.location[0] as number,
        y: c.location[1] as number,
        width: c.width ?? undefined,
        height: c.height ?? undefined,
      })),
    },
    orderId: input.order_id,
    accountReference: input.account_reference,
  };
}
