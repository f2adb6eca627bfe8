import type { CostLine } from "../../../carriers/catalogue.js";
import { findListedService } from "../../../carriers/registry.js";
import type { LabelRow, ParcelRow, ShipmentRecord } from "../../../domain/shipments/shipments.repository.js";
import { dollars } from "../rates/rates.presenter.js";

/** eHub's cost line shape inside shipments: `{cost_type, description, rate}`. */
function costDetails(stored: string) {
  return (JSON.parse(stored) as CostLine[]).map((line) => ({
    cost_type: line.kind,
    description: line.description,
    rate: dollars(line.amountCents),
  }));
}

/** eHub's tracking_info (§5.13), events newest first, each with the carrier's own code beside its status. */
function trackingInfo(status: string, updatedAt: string, parcel: ParcelRow | undefined, record: ShipmentRecord) {
  const events = record.trackingEvents.filter((e) => e.parcel_id === parcel?.id);
  const latest = events.at(-1);
  return {
    status: status === "shipped" ? "pre_transit" : status,
    updated_at: latest && latest.event_timestamp > updatedAt ? latest.event_timestamp : updatedAt,
    estimated_delivery_date: parcel?.estimated_delivery_date ?? record.shipment.delivery_date,
    delivery_date: parcel?.delivered_at ?? null,
    tracking_events: events.toReversed().map((event) => ({
      event_date: event.event_timestamp,
      status: event.status,
      description: event.description,
      city: event.city,
      state: event.state,
      postal_code: event.postal_code,
      country: event.country,
      tracking_event_id: event.id,
      code: event.code,
      secondary_code: event.secondary_code,
    })),
    stale_since: parcel?.tracking_stale_since ?? null,
  };
}

export interface PresentOptions {
  /** Where public files are served from, e.g. `https://porter.example.com`. */
  baseUrl: string;
  /** base64 label images by label id, when the caller asked for `inline_image`. */
  inlineImages?: ReadonlyMap<number, string>;
  /** Retrieve and list carry the nested payment; create does not (eHub's shapes). */
  withPayment?: boolean;
}

function presentLabel(label: LabelRow | undefined, options: PresentOptions) {
  if (!label) return null;
  const inline = options.inlineImages?.get(label.id);
  return {
    id: label.id,
    dims: label.size,
    resolution: label.dpi,
    status: label.status,
    image_url: `${options.baseUrl}/files/${label.file_name}`,
    file_format: label.format,
    created_at: label.created_at,
    updated_at: label.created_at,
    ...(inline === undefined ? {} : { base64_image: inline }),
  };
}

function presentParcel(parcel: ParcelRow, record: ShipmentRecord, options: PresentOptions) {
  const { shipment } = record;
  const details = costDetails(parcel.cost_details);
  return {
    id: parcel.id,
    name: parcel.name,
    length: parcel.length,
    width: parcel.width,
    height: parcel.height,
    weight: parcel.weight,
    package_type: parcel.package_type,
    status: parcel.status,
    tracking_number: parcel.tracking_number,
    shipping_cost: dollars(parcel.cost_cents),
    shipping_cost_details: details,
    meter_cost: dollars(parcel.cost_cents),
    meter_cost_details: details,
    parcel_items: JSON.parse(parcel.parcel_items) as Record<string, unknown>[],
    customs_data: parcel.customs_data ? (JSON.parse(parcel.customs_data) as Record<string, unknown>) : null,
    service_options: JSON.parse(parcel.service_options) as Record<string, unknown>,
    postage_label: presentLabel(
      record.labels.find((l) => l.parcel_id === parcel.id),
      options,
    ),
    ship_date: shipment.ship_date,
    shipped_at: shipment.shipped_at,
    tracking_info: trackingInfo(parcel.status, parcel.updated_at, parcel, record),
    rate_calc_type: "rate_table",
    created_at: parcel.created_at,
    updated_at: parcel.updated_at,
  };
}

/** eHub's Shipment-out (reference §5.8), labels and tracking per parcel. */
export function presentShipment(record: ShipmentRecord, options: PresentOptions) {
  const { shipment, parcels, charge } = record;
  const rate = dollars(shipment.rate_cents);
  return {
    id: shipment.id,
    external_id: null,
    order_id: shipment.order_id,
    account_reference: shipment.account_reference,
    batch_id: shipment.batch_id,
    pickup_id: null,
    status: shipment.status,
    to_location: JSON.parse(shipment.to_location) as Record<string, unknown>,
    from_location: JSON.parse(shipment.from_location) as Record<string, unknown>,
    return_location: shipment.return_location
      ? (JSON.parse(shipment.return_location) as Record<string, unknown>)
      : null,
    parcels: parcels.map((parcel) => presentParcel(parcel, record, options)),
    shipping_service: {
      service: findListedService(shipment.service_id)?.listing.listedName ?? shipment.service_code,
      service_id: shipment.service_id,
      service_code: shipment.service_code,
      carrier_code: shipment.carrier_code,
      rate,
      meter_rate: rate,
      delivery_days: shipment.delivery_days,
      delivery_date: shipment.delivery_date,
      delivery_guaranteed: shipment.delivery_guaranteed === 1,
    },
    shipping_cost_details: costDetails(shipment.cost_details),
    tracking_number: parcels[0]?.tracking_number ?? null,
    tracking_info: trackingInfo(shipment.status, shipment.updated_at, parcels[0], record),
    ship_date: shipment.ship_date,
    shipped_at: shipment.shipped_at,
    label_text1: shipment.label_text1,
    label_text2: shipment.label_text2,
    price_group: shipment.zone,
    created_at: shipment.created_at,
    updated_at: shipment.updated_at,
    ...(options.withPayment
      ? { payment: { amount: dollars(-(charge?.amount_cents ?? 0)), currency: "USD", payment_method_id: null } }
      : {}),
  };
}

/** eHub's top-level payment (reference §5.14) for the meter entries of one call. */
export function presentPayment(amountCents: number, transactionId: number | null) {
  return {
    currency: "USD",
    amount: dollars(amountCents),
    amount_includes_shipping: true,
    payment_method_id: null,
    payment_transaction_id: transactionId,
  };
}
