import type { CarrierCode } from "../../carriers/catalogue.js";
import { renderCustomsForm } from "../../labels/customs-form/render-customs-form.js";
import {
  customsFormKind,
  declaredValueCents,
  itemDescription,
  parcelContentType,
  parcelDeclaredValueCents,
  parcelNonDelivery,
} from "../customs/customs-rules.js";
import { DomainError, notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { customsParcelsOf, customsRequirementOf } from "./customs-declaration.js";
import type { NewParcel, NewShipment, ShipmentAddress } from "./new-shipment.js";
import { boughtShipmentRecord, type ParcelRow, type ShipmentRow } from "./shipments.repository.js";

function party(address: ShipmentAddress) {
  return {
    name: [address.first_name, address.last_name].filter(Boolean).join(" ") || null,
    company: address.company ?? null,
    lines: [
      [address.address1, address.address2].filter(Boolean).join(", "),
      `${address.city} ${address.state} ${address.postal_code}`,
      address.country,
    ],
  };
}

/** The stored shipment in the shape the customs rules read. */
function declaredShipment(shipment: ShipmentRow, parcels: ParcelRow[]): NewShipment {
  return {
    to: JSON.parse(shipment.to_location) as ShipmentAddress,
    from: JSON.parse(shipment.from_location) as ShipmentAddress,
    parcels: parcels.map(
      (p): NewParcel => ({
        length: p.length,
        width: p.width,
        height: p.height,
        weight: p.weight,
        packageType: p.package_type,
        items: JSON.parse(p.parcel_items) as NewParcel["items"],
        customsData: p.customs_data ? (JSON.parse(p.customs_data) as NewParcel["customsData"]) : null,
        serviceOptions: {},
      }),
    ),
    serviceId: shipment.service_id,
    label: { format: "pdf", size: "4x6" },
  };
}

/**
 * The customs document of a shipment that crosses a customs border, as a PDF: the one its carrier
 * made (DHL Express's commercial invoice, one for the whole shipment), else the parcel's CN 22 or
 * CN 23 drawn by Porter; domestic shipments have none (404).
 */
export async function customsFormPdf(
  services: DomainServices,
  scope: AccountScope,
  shipmentId: number,
  parcelId?: number,
): Promise<Buffer> {
  const { shipment, parcels } = await boughtShipmentRecord(services.db, scope, shipmentId);
  const index = parcelId === undefined ? 0 : parcels.findIndex((p) => p.id === parcelId);
  const parcel = parcels[index];
  if (!parcel) throw notFound("parcel", parcelId ?? 0);
  if (shipment.customs_document_file) {
    const document = await services.files.get(shipment.customs_document_file);
    if (document) return document;
  }
  const declared = declaredShipment(shipment, parcels);
  const requirement = customsRequirementOf(declared);
  const items = customsParcelsOf(declared)[index]?.items ?? [];
  const value = parcelDeclaredValueCents(items);
  const kind = customsFormKind(
    requirement,
    value,
    shipment.carrier_code as CarrierCode,
    shipment.service_code,
    parcel.weight,
  );
  if (!kind || items.length === 0) {
    throw new DomainError(
      "customs_form.not_found",
      `Shipment ${shipmentId} crosses no customs border, so it has no customs form.`,
    );
  }
  return renderCustomsForm({
    kind,
    carrierCode: shipment.carrier_code as CarrierCode,
    reference: parcel.tracking_number ?? String(parcel.id),
    sender: party(declared.from),
    addressee: party(declared.to),
    items: items.map((item) => ({
      description: itemDescription(item) ?? "",
      quantity: item.quantity,
      weightOz: (item.weightOz ?? 0) * item.quantity,
      valueCents: declaredValueCents(item),
      hsTariffCode: item.customsData?.hsTariffCode ?? null,
      countryOfOrigin: item.countryOfOrigin,
    })),
    totalWeightOz: parcel.weight,
    totalValueCents: value,
    contentType: parcelContentType(items),
    nonDelivery: parcelNonDelivery(items),
    eelPfc: items.find((item) => item.customsData?.eelPfc)?.customsData?.eelPfc ?? null,
    date: shipment.ship_date,
  });
}
