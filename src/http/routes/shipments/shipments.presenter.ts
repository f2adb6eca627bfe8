import type { CostLine } from "../../../carriers/catalogue.js";
import { findListedService, findService } from "../../../carriers/registry.js";
import { rateCalcType } from "../../../carriers/sandbox/eligibility.js";
import type { MeterEntryRow } from "../../../domain/meter/meter.repository.js";
import type { LabelRow, ParcelRow, ShipmentRecord } from "../../../domain/shipments/shipments.repository.js";
import type { TrackingEventRow } from "../../../domain/tracking/tracking.repository.js";
import { dollars } from "../rates/rates.presenter.js";
import { presentAddress } from "../wire/address.js";
import { presentCustomsData } from "../wire/customs-data.js";
import { documented } from "../wire/documented.js";
import { presentParcelItem } from "../wire/parcel-item.js";
import { PARCEL_KEYS, POSTAGE_LABEL_KEYS, SHIPMENT_KEYS, SHIPMENT_PAYMENT_KEYS } from "../wire/shipment-keys.js";

/** eHub's cost line shape inside shipments: `{cost_type, description, rate}`. */
function costDetails(stored: string) {
  return (JSON.parse(stored) as CostLine[]).map((line) => ({
    cost_type: line.kind,
    description: line.description,
    rate: dollars(line.amountCents),
  }));
}

/** An event's date, status, words and place: what anyone may see of it (the public tracking page too). */
export function presentEventPlaceAndTime(event: TrackingEventRow) {
  return {
    event_date: event.event_timestamp,
    status: event.status,
    description: event.description,
    city: event.city,
    state: event.state,
    postal_code: event.postal_code,
    country: event.country,
  };
}

/** eHub's tracking_info, events newest first, each with the carrier's own code beside its status. */
function trackingInfo(status: string, updatedAt: string, parcel: ParcelRow | undefined, record: ShipmentRecord) {
  const events = record.trackingEvents.filter((e) => e.parcel_id === parcel?.id);
  const latest = events.at(-1);
  return {
    status: status === "shipped" ? "pre_transit" : status,
    updated_at: latest && latest.event_timestamp > updatedAt ? latest.event_timestamp : updatedAt,
    estimated_delivery_date: parcel?.estimated_delivery_date ?? record.shipment.delivery_date,
    delivery_date: parcel?.delivered_at ?? null,
    tracking_events: events.toReversed().map((event) => ({
      ...presentEventPlaceAndTime(event),
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
}

function presentLabel(label: LabelRow | undefined, options: PresentOptions) {
  if (!label) return null;
  return {
    ...documented(POSTAGE_LABEL_KEYS, {
      id: label.id,
      dims: label.size,
      resolution: label.dpi,
      status: label.status,
      image_url: `${options.baseUrl}/files/${label.file_name}`,
      created_at: label.created_at,
      updated_at: label.created_at,
      base64_image: options.inlineImages?.get(label.id),
    }),
    file_format: label.format,
  };
}

/** How the parcel was priced, in eHub's words (the rate entries' `rate_calc_type`, one parcel's). */
function rateCalcTypeOf(serviceId: number, packageType: string): string | null {
  const service = findService(serviceId);
  return service ? rateCalcType(service, packageType) : null;
}

function presentParcel(parcel: ParcelRow, record: ShipmentRecord, options: PresentOptions) {
  const { shipment } = record;
  const details = costDetails(parcel.cost_details);
  return {
    ...documented(PARCEL_KEYS, {
      id: parcel.id,
      length: parcel.length,
      width: parcel.width,
      height: parcel.height,
      weight: parcel.weight,
      package_type: parcel.package_type,
      created_at: parcel.created_at,
      updated_at: parcel.updated_at,
      tracking_number: parcel.tracking_number,
      shipping_cost: dollars(parcel.cost_cents),
      shipping_cost_details: details,
      meter_cost: dollars(parcel.cost_cents),
      meter_cost_details: details,
      status: parcel.status,
      parcel_items: (JSON.parse(parcel.parcel_items) as Record<string, unknown>[]).map(presentParcelItem),
      customs_data: presentCustomsData(
        parcel.customs_data ? (JSON.parse(parcel.customs_data) as Record<string, unknown>) : null,
      ),
      postage_label: presentLabel(
        record.labels.find((l) => l.parcel_id === parcel.id),
        options,
      ),
      ship_date: shipment.ship_date,
      shipped_at: shipment.shipped_at,
      service_options: JSON.parse(parcel.service_options) as Record<string, unknown>,
      tracking_info: trackingInfo(parcel.status, parcel.updated_at, parcel, record),
      rate_calc_type: rateCalcTypeOf(shipment.service_id, parcel.package_type),
    }),
    name: parcel.name,
  };
}

/**
 * The purchase charge; a scan-based return not scanned yet owes nothing so far (0, until the
 * carrier's first scan charges it), and a shipment without a charge has none.
 */
function presentShipmentPayment(shipment: ShipmentRecord["shipment"], charge: MeterEntryRow | undefined) {
  if (!charge && shipment.return_type !== "scan_based") return null;
  return documented(SHIPMENT_PAYMENT_KEYS, {
    amount: charge ? dollars(-charge.amount_cents) : 0,
    currency: "USD",
    payment_method_id: charge?.payment_method_id == null ? null : String(charge.payment_method_id),
  });
}

/**
 * eHub's Shipment-out, labels and tracking per parcel. Without a return address
 * of its own, a shipment returns to its sender (as eHub answers). `payment` is the purchase
 * charge, null while there is none; its `payment_method_id` names the method charged in real time
 * (an automatic refill the purchase made), null when the balance paid.
 */
export function presentShipment(record: ShipmentRecord, options: PresentOptions) {
  const { shipment, parcels, charge } = record;
  const rate = dollars(shipment.rate_cents);
  return {
    ...documented(SHIPMENT_KEYS, {
      id: shipment.id,
      order_id: shipment.order_id,
      account_reference: shipment.account_reference,
      batch_id: shipment.batch_id,
      to_location: presentAddress(JSON.parse(shipment.to_location) as Record<string, unknown>),
      from_location: presentAddress(JSON.parse(shipment.from_location) as Record<string, unknown>),
      return_location: presentAddress(
        JSON.parse(shipment.return_location ?? shipment.from_location) as Record<string, unknown>,
      ),
      parcels: parcels.map((parcel) => presentParcel(parcel, record, options)),
      status: shipment.status,
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
      tracking_number: parcels[0]?.tracking_number,
      shipped_at: shipment.shipped_at,
      created_at: shipment.created_at,
      updated_at: shipment.updated_at,
      label_text1: shipment.label_text1,
      label_text2: shipment.label_text2,
      price_group: shipment.zone,
      payment: presentShipmentPayment(shipment, charge),
    }),
    shipping_cost_details: costDetails(shipment.cost_details),
    tracking_info: trackingInfo(shipment.status, shipment.updated_at, parcels[0], record),
    ship_date: shipment.ship_date,
    public_tracking_url: shipment.public_tracking_token
      ? `${options.baseUrl}/track/${shipment.public_tracking_token}`
      : null,
    is_return: shipment.return_type !== null,
    return_type: shipment.return_type,
    outbound_shipment_id: shipment.outbound_shipment_id,
  };
}

/**
 * eHub's top-level payment: the amount one call moved on the meter, and the
 * payment transaction that paid for the label (an automatic refill its purchase made), null when
 * the balance already covered it.
 */
export function presentPayment(amountCents: number, paidBy: MeterEntryRow | undefined) {
  return {
    currency: "USD",
    amount: dollars(amountCents),
    amount_includes_shipping: true,
    payment_method_id: paidBy?.payment_method_id ?? null,
    payment_transaction_id: paidBy?.payment_transaction_id ?? null,
  };
}
