import type { Transaction } from "kysely";
import { CarrierError } from "../../carriers/carrier.js";
import { findCarrier } from "../../carriers/registry.js";
import type { Database } from "../../storage/schema.js";
import { findAccount } from "../accounts/accounts.repository.js";
import { classifyAddress } from "../addresses/classify-address.js";
import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import { DomainError, notFound } from "../errors.js";
import { appendMeterEntry } from "../meter/meter.repository.js";
import type { ShipmentAdjustmentRow } from "../reports/shipment-adjustments.js";
import type { AccountScope, DomainServices } from "../services.js";
import type { ShipmentAddress } from "../shipments/new-shipment.js";
import type { ParcelRow, ShipmentRow } from "../shipments/shipments.repository.js";
import { withTrackingLock } from "../tracking/record-tracking.js";
import {
  auditFinding,
  differs,
  heavierThanDeclared,
  type Measurement,
  measuredPackage,
  type PackageFacts,
} from "./audit-rules.js";

const usps = () => {
  const carrier = findCarrier("usps");
  if (!carrier) throw new Error("the USPS sandbox carrier is not registered");
  return carrier;
};

const uspsService = (code: string) =>
  usps().services.find((s) => s.serviceCode === code || s.otherListings.some((l) => l.serviceCode === code));

function labelledPackage(shipment: ShipmentRow, parcel: ParcelRow): PackageFacts {
  const from = JSON.parse(shipment.from_location) as ShipmentAddress;
  return {
    weightOz: parcel.weight,
    lengthIn: parcel.length,
    widthIn: parcel.width,
    heightIn: parcel.height,
    fromPostalCode: from.postal_code,
    serviceCode: shipment.service_code,
    packageType: parcel.package_type,
  };
}

/** The postage of a package on the sandbox USPS tariffs, or USPS's reason it cannot carry it. */
async function postageOf(shipment: ShipmentRow, measured: PackageFacts): Promise<number | { refused: string }> {
  const service = uspsService(measured.serviceCode);
  if (!service) return { refused: `USPS has no service ${measured.serviceCode}.` };
  const from = JSON.parse(shipment.from_location) as ShipmentAddress;
  const to = JSON.parse(shipment.to_location) as ShipmentAddress;
  try {
    const [rate] = await usps().rate({
      from: { ...from, postal_code: measured.fromPostalCode },
      to,
      parcels: [
        {
          lengthIn: measured.lengthIn,
          widthIn: measured.widthIn,
          heightIn: measured.heightIn,
          weightOz: measured.weightOz,
          packageType: measured.packageType,
        },
      ],
      residential: classifyAddress(to) === "residential",
      services: [service],
    });
    return rate?.quote ? rate.quote.totalCents : { refused: rate?.refusal ?? "USPS gave no price." };
  } catch (error) {
    if (error instanceof CarrierError) return { refused: error.message };
    throw error;
  }
}

function changes(labelled: PackageFacts, measured: PackageFacts): string {
  const said: string[] = [];
  if (measured.weightOz !== labelled.weightOz) said.push(`weight ${labelled.weightOz} → ${measured.weightOz} oz`);
  const sides = (p: PackageFacts) => `${p.lengthIn}×${p.widthIn}×${p.heightIn}`;
  if (sides(measured) !== sides(labelled)) said.push(`size ${sides(labelled)} → ${sides(measured)} in`);
  if (measured.fromPostalCode !== labelled.fromPostalCode) {
    said.push(`entry ZIP ${labelled.fromPostalCode} → ${measured.fromPostalCode}`);
  }
  if (measured.serviceCode !== labelled.serviceCode)
    said.push(`service ${labelled.serviceCode} → ${measured.serviceCode}`);
  return said.join(", ");
}

/**
 * The adjustment and the ledger entry that charges (or refunds) it, in the caller's transaction. It
 * is not held to the balance: USPS takes what a package owes whatever the meter holds.
 */
async function recordAdjustment(
  services: DomainServices,
  trx: Transaction<Database>,
  found: { shipment: ShipmentRow; parcel: ParcelRow; labelled: PackageFacts; measured: PackageFacts },
  measuredCents: number,
  source: ShipmentAdjustmentRow["source"],
): Promise<ShipmentAdjustmentRow> {
  const { shipment, parcel, labelled, measured } = found;
  const stamp = services.clock.now().toISOString();
  const difference = measuredCents - parcel.cost_cents;
  const to = JSON.parse(shipment.to_location) as ShipmentAddress;
  const from = JSON.parse(shipment.from_location) as ShipmentAddress;
  const entry = await appendMeterEntry(trx, {
    account_id: shipment.account_id,
    mode: shipment.mode,
    kind: "adjustment",
    amount_cents: -difference,
    shipment_id: shipment.id,
    description: `USPS ${difference > 0 ? "charge" : "refund"} for ${parcel.tracking_number ?? `parcel ${parcel.id}`}: ${changes(labelled, measured)}`,
    status: "posted",
    available_at: stamp,
    created_at: stamp,
  });
  return trx
    .insertInto("shipment_adjustments")
    .values({
      account_id: shipment.account_id,
      mode: shipment.mode,
      shipment_id: shipment.id,
      parcel_id: parcel.id,
      meter_entry_id: entry.id,
      source,
      tracking_number: parcel.tracking_number,
      external_id: shipment.order_id,
      shipped_at: shipment.shipped_at,
      from_country: from.country,
      from_postal_code: labelled.fromPostalCode,
      adj_from_postal_code: measured.fromPostalCode,
      to_country: to.country,
      to_postal_code: to.postal_code,
      ship_service: labelled.serviceCode,
      adj_service: measured.serviceCode,
      ship_package: labelled.packageType,
      adj_package: measured.packageType,
      ship_weight: labelled.weightOz,
      adj_weight: measured.weightOz,
      ship_length: labelled.lengthIn,
      adj_length: measured.lengthIn,
      ship_width: labelled.widthIn,
      adj_width: measured.widthIn,
      ship_height: labelled.heightIn,
      adj_height: measured.heightIn,
      ship_meter_cost_cents: parcel.cost_cents,
      adj_meter_cost_cents: measuredCents,
      meter_adj_cents: difference,
      created_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function adjustedParcelIds(trx: Transaction<Database>, shipmentId: number): Promise<Set<number>> {
  const rows = await trx
    .selectFrom("shipment_adjustments")
    .select("parcel_id")
    .where("shipment_id", "=", shipmentId)
    .execute();
  return new Set(rows.map((r) => r.parcel_id));
}

/**
 * USPS's audit of parcels it has just accepted (the sandbox's, run where tracking records the
 * acceptance, in its transaction): `percent` % of USPS parcels, chosen by tracking number, are
 * found to differ from their labels, and those whose postage changes are adjusted.
 */
export async function auditAcceptedParcels(
  services: DomainServices,
  trx: Transaction<Database>,
  shipment: ShipmentRow,
  accepted: readonly ParcelRow[],
  percent: number,
): Promise<void> {
  if (shipment.carrier_code !== "usps" || percent <= 0 || accepted.length === 0) return;
  // The sandbox audits what the sandbox sold; a real USPS account's adjustments are USPS's own.
  if ((await sellingCarrierOf(services, shipment, trx)) !== usps()) return;
  const adjusted = await adjustedParcelIds(trx, shipment.id);
  for (const parcel of accepted) {
    if (!parcel.tracking_number || adjusted.has(parcel.id)) continue;
    const labelled = labelledPackage(shipment, parcel);
    const measured = auditFinding(parcel.tracking_number, labelled, percent);
    if (!measured) continue;
    const postage = await postageOf(shipment, measured);
    if (typeof postage !== "number" || postage === parcel.cost_cents) continue;
    await recordAdjustment(services, trx, { shipment, parcel, labelled, measured }, postage, "audit");
  }
}

/**
 * The sandbox adjust control (test keys only): USPS measures the shipment's next parcel not yet
 * adjusted as given (or, given nothing, finds it heavier than declared) and adjusts it at once.
 */
export async function requestAdjustment(
  services: DomainServices,
  scope: AccountScope,
  shipmentId: number,
  measurement: Measurement,
): Promise<{ adjustment: ShipmentAdjustmentRow; customerName: string }> {
  if (scope.mode !== "test") {
    throw new DomainError("sandbox.test_mode_only", "Sandbox controls work with test API keys only.");
  }
  if (measurement.serviceCode !== undefined && !uspsService(measurement.serviceCode)) {
    throw new DomainError("adjustment.unknown_service", `USPS has no service ${measurement.serviceCode}.`);
  }
  const adjustment = await withTrackingLock(services, shipmentId, async (trx, { shipment, parcels }) => {
    if (shipment.account_id !== scope.accountId || shipment.mode !== scope.mode) return undefined;
    if (shipment.status === "purchasing" || shipment.status === "failed") return undefined;
    if (shipment.carrier_code !== "usps") {
      throw new DomainError("adjustment.carrier_not_supported", "Only USPS parcels get postage adjustments.");
    }
    if (shipment.status === "cancel_pending" || shipment.status === "cancelled") {
      throw new DomainError("shipment.already_cancelled", `Shipment ${shipment.id} is ${shipment.status}.`);
    }
    const adjusted = await adjustedParcelIds(trx, shipment.id);
    const parcel = parcels.find((p) => !adjusted.has(p.id));
    if (!parcel) {
      throw new DomainError(
        "adjustment.already_adjusted",
        `Every parcel of shipment ${shipment.id} is adjusted already.`,
      );
    }
    const labelled = labelledPackage(shipment, parcel);
    const measured = Object.values(measurement).some((value) => value !== undefined)
      ? measuredPackage(labelled, measurement)
      : heavierThanDeclared(parcel.tracking_number ?? String(parcel.id), labelled);
    const postage = differs(labelled, measured) ? await postageOf(shipment, measured) : parcel.cost_cents;
    if (typeof postage !== "number") throw new DomainError("adjustment.not_priced", postage.refused);
    if (postage === parcel.cost_cents) {
      throw new DomainError(
        "adjustment.no_change",
        "The package as measured costs what its label paid: USPS makes no adjustment.",
      );
    }
    return recordAdjustment(services, trx, { shipment, parcel, labelled, measured }, postage, "requested");
  });
  if (!adjustment) throw notFound("shipment", shipmentId);
  const account = await findAccount(services.db, scope.accountId);
  return { adjustment, customerName: account?.name ?? "" };
}
