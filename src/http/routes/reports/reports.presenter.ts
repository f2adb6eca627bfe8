import type { MeterTransaction } from "../../../domain/reports/meter-transactions.js";
import type { ShipmentAdjustmentRow } from "../../../domain/reports/shipment-adjustments.js";
import { dollars } from "../rates/rates.presenter.js";

/** Wire keys in eHub's order: the JSON rows and the CSV columns alike. */
export const METER_TRANSACTION_COLUMNS = [
  "customer_name",
  "customer_id",
  "transaction_date_time",
  "transaction_type",
  "amount",
  "tracking_numbers",
] as const;

export const SHIPMENT_ADJUSTMENT_COLUMNS = [
  "adjustment_id",
  "adjustment_created_at",
  "external_id",
  "customer_id",
  "customer",
  "shipment_id",
  "tracking_number",
  "shipped_at",
  "from_country",
  "from_postal_code",
  "adj_from_postal_code",
  "to_country",
  "to_postal_code",
  "ship_service",
  "adj_service",
  "ship_package",
  "adj_package",
  "ship_weight",
  "adj_weight",
  "ship_length",
  "adj_length",
  "ship_width",
  "adj_width",
  "ship_height",
  "adj_height",
  "ship_meter_cost",
  "adj_meter_cost",
  "meter_adj",
] as const;

export function presentMeterTransaction(customers: ReadonlyMap<number, string>, row: MeterTransaction) {
  return {
    customer_name: customers.get(row.account_id) ?? "",
    customer_id: row.account_id,
    transaction_date_time: row.created_at,
    // A label, or an adjustment charged, takes money off the meter; refunds and refills put it on.
    transaction_type: row.amount_cents <= 0 ? "debit" : "credit",
    amount: dollars(Math.abs(row.amount_cents)),
    tracking_numbers: row.trackingNumbers,
  };
}

/** eHub's `external_id` is a number: an order id that is one is shown, any other is null. */
function numericId(text: string | null): number | null {
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : null;
}

export function presentShipmentAdjustment(customers: ReadonlyMap<number, string>, row: ShipmentAdjustmentRow) {
  return {
    adjustment_id: row.id,
    adjustment_created_at: row.created_at,
    external_id: numericId(row.external_id),
    customer_id: row.account_id,
    customer: customers.get(row.account_id) ?? "",
    shipment_id: row.shipment_id,
    tracking_number: row.tracking_number,
    shipped_at: row.shipped_at,
    from_country: row.from_country,
    from_postal_code: row.from_postal_code,
    adj_from_postal_code: row.adj_from_postal_code,
    to_country: row.to_country,
    to_postal_code: row.to_postal_code,
    ship_service: row.ship_service,
    adj_service: row.adj_service,
    ship_package: row.ship_package,
    adj_package: row.adj_package,
    ship_weight: String(row.ship_weight),
    adj_weight: String(row.adj_weight),
    ship_length: String(row.ship_length),
    adj_length: String(row.adj_length),
    ship_width: String(row.ship_width),
    adj_width: String(row.adj_width),
    ship_height: String(row.ship_height),
    adj_height: String(row.adj_height),
    ship_meter_cost: dollars(row.ship_meter_cost_cents),
    adj_meter_cost: dollars(row.adj_meter_cost_cents),
    meter_adj: dollars(row.meter_adj_cents),
  };
}
