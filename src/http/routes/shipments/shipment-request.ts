import type { ReturnLabelRequest } from "../../../carriers/carrier.js";
import { DomainError } from "../../../domain/errors.js";
import type { NewShipment } from "../../../domain/shipments/new-shipment.js";
import { asReturnLabel } from "../../../domain/shipments/return-label.js";
import type { LabelFormat, LabelSize } from "../../../labels/label.js";
import { parseCalendarDate } from "../dates.js";
import { insuredCentsOf } from "../shipment.schemas.js";
import { invalid, normalizeLocation } from "../shipment-input.js";
import type { ShipmentIn } from "./shipments.schemas.js";

/**
 * The wire's shipment (eHub field names) → the domain's, with the edge's own checks. With
 * `is_return` it is the outbound's return label, its addresses swapped.
 */
export function toNewShipment(input: ShipmentIn, path: string): NewShipment {
  if (input.return_type !== undefined && !input.is_return && !input.with_return) {
    throw invalid(`${path}.return_type applies only with is_return or with_return true.`);
  }
  if (input.is_return && input.with_return) {
    throw invalid(
      `${path}: is_return and with_return exclude each other; with_return buys the outbound and its return.`,
    );
  }
  if (input.order_items?.length && !input.order_id) {
    throw invalid(`${path}.order_items name items of an order: send the order's number as ${path}.order_id.`);
  }
  if (input.order_items?.length && input.is_return) {
    throw invalid(`${path}.order_items apply to an outbound label, not a return (is_return).`);
  }
  const shipment = toOutbound(input, path);
  return input.is_return ? asReturnLabel(shipment, returnLabelOf(input)) : shipment;
}

/** The return label asked for: `return_type`, `print` when absent. */
export function returnLabelOf(input: ShipmentIn): ReturnLabelRequest {
  return { type: (input.return_type ?? "print") as ReturnLabelRequest["type"] };
}

function toOutbound(input: ShipmentIn, path: string): NewShipment {
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
    orderItems: input.order_items?.length ? input.order_items : undefined,
    accountReference: input.account_reference,
  };
}
