import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { CarrierAdapter, ParcelContents, Purchase, RateRequest } from "../../carriers/carrier.js";
import type { RatedParcel, RateQuote } from "../../carriers/catalogue.js";
import { returnServiceName } from "../../carriers/returns.js";
import { storedCarrierLabel } from "../../labels/images/carrier-raster.js";
import type { RenderedLabel } from "../../labels/label.js";
import { renderLabel } from "../../labels/render-label.js";
import type { Database } from "../../storage/schema.js";
import { classifyAddress } from "../addresses/classify-address.js";
import { asApiError, callingCarrier } from "../carriers/carrier-failure.js";
import { declaredValueCents } from "../customs/customs-rules.js";
import { DomainError, partUnavailable } from "../errors.js";
import { recordBesideFailure, shipmentIds } from "../incidents/money-incidents.js";
import { reportUnvoidedLabels } from "../incidents/repair-labels.js";
import { debitLabel, fundLabel, type LabelFunding } from "../meter/fund-label.js";
import { appendMeterEntry, type MeterEntryRow } from "../meter/meter.repository.js";
import { queueLabelLink } from "../orders/link-label.js";
import { deliveryDate } from "../rates/delivery-date.js";
import type { AccountScope, DomainServices } from "../services.js";
import { FIRST_TRACKING_READ_MS, firstTrackingRead, scheduleTrackingRefresh } from "../tracking/refresh-tracking.js";
import { type CheckedShipment, checkShipment } from "./check-shipment.js";
import { customsParcelsOf } from "./customs-declaration.js";
import { labelAddress } from "./label-address.js";
import type { NewShipment } from "./new-shipment.js";
import { markFailed, resumePurchase } from "./recover-purchase.js";
import {
  insertParcels,
  insertShipment,
  type LabelRow,
  moveShipment,
  type ParcelRow,
  type ShipmentRecord,
  type ShipmentRow,
} from "./shipments.repository.js";

/** A purchase not finished by then died with its process; the recovery job voids what was sold. */
export const PURCHASE_RECOVERY_DELAY_MS = 10 * 60 * 1000;
export const RECOVER_PURCHASE_JOB = "shipment.recover_purchase";

/**
 * Buys a shipment's labels: record the intent, let the carrier sell, write the files,
 * record labels and the charge in one transaction. No carrier call runs inside a transaction; a
 * failure after the carrier sold voids the labels, and a crash is repaired by a recovery job.
 *
 * `requestKey` names the client's request (its Idempotency-Key run): the shipment records it, and
 * a run of the same request after a crash answers what the first run bought (repairing a purchase
 * it left unfinished) instead of buying again.
 */
export async function purchaseShipment(
  services: DomainServices,
  scope: AccountScope,
  input: NewShipment,
  requestKey?: string,
): Promise<ShipmentRecord> {
  const resumed = requestKey === undefined ? undefined : await resumePurchase(services, scope, requestKey);
  if (resumed) return resumed;
  const checked = await checkShipment(services, scope, input);
  return buy(services, scope, input, checked, requestKey);
}

/** Buys a shipment already checked (ship_multiple checks every shipment first). */
export async function buyChecked(
  services: DomainServices,
  scope: AccountScope,
  input: NewShipment,
  checked: CheckedShipment,
  requestKey?: string,
): Promise<ShipmentRecord> {
  const resumed = requestKey === undefined ? undefined : await resumePurchase(services, scope, requestKey);
  return resumed ?? buy(services, scope, input, checked, requestKey);
}

async function buy(
  services: DomainServices,
  scope: AccountScope,
  input: NewShipment,
  checked: CheckedShipment,
  requestKey: string | undefined,
): Promise<ShipmentRecord> {
  const { carrier, service } = checked;
  const request = {
    from: input.from,
    to: input.to,
    parcels: input.parcels.map(ratedParcel),
    residential: classifyAddress(input.to) === "residential",
    services: [service],
  };
  // A scan-based return is paid at the carrier's first scan: nothing is taken from the meter now.
  const priceCents =
    input.returnLabel?.type === "scan_based"
      ? 0
      : await callingCarrier(services.clock, () => priceOf(carrier, request));
  const { shipment, parcels, charge, trackingDue } = await fundLabel(services, scope, priceCents, (funding) =>
    recordIntent(services, scope, input, checked, requestKey, { priceCents, ...funding }),
  );
  let purchase: Purchase;
  try {
    purchase = await carrier.purchase({
      ...request,
      service,
      purchaseKey: `shipment-${shipment.id}`,
      parcelSerials: parcels.map((p) => p.id),
      shipDate: checked.shipDate,
      label: { format: input.label.format, size: input.label.size },
      contents: parcelContentsOf(input),
      returnTo: input.returnTo,
      returnLabel: input.returnLabel,
    });
  } catch (error) {
    await reportUnvoidedLabels(services, shipment, error);
    await markFailed(services, shipment.id, error instanceof Error ? error.message : String(error));
    throw asApiError(error, services.clock);
  }
  const trackingNumbers = purchase.parcels.map((p) => p.trackingNumber);
  try {
    await recordTrackingNumbers(services, parcels, purchase);
    const files = await writeLabels(services, scope, input, checked, purchase);
    const customsFile = purchase.customsDocument && (await storeFile(services, purchase.customsDocument, "pdf"));
    return await recordPurchase(
      services,
      scope,
      shipment,
      parcels,
      purchase,
      files,
      checked,
      customsFile ?? null,
      charge,
      trackingDue,
      input.orderItems,
    );
  } catch (error) {
    await voidAfterFailure(services, carrier, shipment, trackingNumbers, (purchase.rate.quote as RateQuote).totalCents);
    if (error instanceof DomainError) throw error;
    throw partUnavailable(
      `The carrier sold shipment ${shipment.id}'s labels, but recording them failed; they are voided and nothing stays charged. Try again.`,
    );
  }
}

/** Each parcel's contents as carriers need them for customs and references. */
function parcelContentsOf(input: NewShipment): ParcelContents[] {
  return customsParcelsOf(input).map((customs, index) => ({
    reference: input.parcels[index]?.name ?? null,
    items: customs.items.map((item) => ({
      description: item.description ?? item.name,
      quantity: item.quantity,
      // eHub's item weight and value are one unit's; carriers are handed the whole line's.
      weightOz: item.weightOz === null ? null : item.weightOz * item.quantity,
      valueCents: declaredValueCents(item),
      countryOfOrigin: item.countryOfOrigin,
      hsTariffCode: item.customsData?.hsTariffCode ?? null,
      contentType: item.customsData?.contentType ?? null,
      eelPfc: item.customsData?.eelPfc ?? null,
    })),
  }));
}

/**
 * What the label will cost, asked before buying so the meter can be checked without calling the
 * carrier's label API. A service the carrier cannot price costs nothing here: its purchase is
 * refused by the carrier the same way.
 */
async function priceOf(carrier: CarrierAdapter, request: RateRequest): Promise<number> {
  const [rate] = await carrier.rate(request);
  return rate?.quote?.totalCents ?? 0;
}

function ratedParcel(parcel: NewShipment["parcels"][number]): RatedParcel {
  return {
    lengthIn: parcel.length,
    widthIn: parcel.width,
    heightIn: parcel.height,
    weightOz: parcel.weight,
    packageType: parcel.packageType,
    insuredCents: parcel.insuredCents,
  };
}

/**
 * Transaction 1: the shipment as `purchasing`, its parcels, the job that repairs a crash, and the
 * label's price taken from the meter (refused with 402 when the balance does not cover it).
 */
async function recordIntent(
  services: DomainServices,
  scope: AccountScope,
  input: NewShipment,
  checked: CheckedShipment,
  requestKey: string | undefined,
  funding: { priceCents: number } & LabelFunding,
) {
  const now = services.clock.now();
  const stamp = now.toISOString();
  return services.db.transaction().execute(async (trx) => {
    const shipment = await insertShipment(trx, {
      account_id: scope.accountId,
      mode: scope.mode,
      status: "purchasing",
      status_reason: null,
      carrier_code: checked.service.carrierCode,
      carrier_account_id: checked.carrierAccountId,
      service_id: checked.listing.serviceId,
      service_code: checked.listing.serviceCode,
      order_id: input.orderId ?? null,
      account_reference: input.accountReference ?? null,
      to_location: JSON.stringify(input.to),
      from_location: JSON.stringify(input.from),
      return_location: input.returnTo ? JSON.stringify(input.returnTo) : null,
      ship_date: checked.shipDate,
      label_format: input.label.format,
      label_size: input.label.size,
      label_text1: input.label.text1 ?? null,
      label_text2: input.label.text2 ?? null,
      rate_cents: 0,
      cost_details: "[]",
      zone: null,
      delivery_days: null,
      delivery_date: null,
      delivery_guaranteed: checked.service.deliveryGuaranteed ? 1 : 0,
      batch_id: null,
      shipped_at: null,
      manifested_at: null,
      cancel_requested_at: null,
      public_tracking_token: randomBytes(16).toString("base64url"),
      return_type: input.returnLabel?.type ?? null,
      outbound_shipment_id: input.outboundShipmentId ?? null,
      request_key: requestKey ?? null,
      created_at: stamp,
      updated_at: stamp,
    });
    const parcels = await insertParcels(
      trx,
      input.parcels.map((parcel, position) => ({
        shipment_id: shipment.id,
        position,
        length: parcel.length,
        width: parcel.width,
        height: parcel.height,
        weight: parcel.weight,
        package_type: parcel.packageType,
        name: parcel.name ?? null,
        status: "purchasing",
        tracking_number: null,
        barcode_data: null,
        cost_cents: 0,
        cost_details: "[]",
        parcel_items: JSON.stringify(parcel.items),
        customs_data: parcel.customsData ? JSON.stringify(parcel.customsData) : null,
        service_options: JSON.stringify(parcel.serviceOptions),
        created_at: stamp,
        updated_at: stamp,
      })),
    );
    // The first tracking read is queued now, with the recovery job, in one statement (recordPurchase).
    const tracking = firstTrackingRead(shipment.id, now);
    await services.jobs.enqueueAll(
      [
        {
          kind: RECOVER_PURCHASE_JOB,
          payload: { shipmentId: shipment.id },
          runAt: new Date(now.getTime() + PURCHASE_RECOVERY_DELAY_MS),
          maxAttempts: 10,
        },
        tracking.job,
      ],
      trx,
    );
    const charge =
      input.returnLabel?.type === "scan_based"
        ? undefined
        : await debitLabel(trx, scope, {
            ...funding,
            shipmentId: shipment.id,
            description: `${checked.service.name} label${input.parcels.length > 1 ? "s" : ""} for shipment ${shipment.id}`,
            stamp,
          });
    return {
      shipment,
      parcels: parcels.sort((a, b) => a.position - b.position),
      charge,
      trackingDue: tracking.due,
    };
  });
}

interface StoredLabel {
  fileName: string;
  rendered: RenderedLabel;
}

async function writeLabels(
  services: DomainServices,
  scope: AccountScope,
  input: NewShipment,
  checked: CheckedShipment,
  purchase: Purchase,
): Promise<StoredLabel[]> {
  const quote = purchase.rate.quote as RateQuote;
  return Promise.all(
    purchase.parcels.map(async (sold, index) => {
      const parcel = input.parcels[index] as NewShipment["parcels"][number];
      const rendered = sold.label
        ? await storedCarrierLabel(sold.label, input.label.format)
        : await renderLabel({
            carrierCode: checked.service.carrierCode,
            serviceName: input.returnLabel ? returnServiceName(checked.service) : checked.service.name,
            returnLabel: input.returnLabel !== undefined,
            serviceCode: checked.service.serviceCode,
            trackingNumber: sold.trackingNumber,
            barcodeData: sold.barcodeData,
            from: labelAddress(input.returnTo ?? input.from),
            to: labelAddress(input.to),
            weightOz: parcel.weight,
            dimensionsIn: { length: parcel.length, width: parcel.width, height: parcel.height },
            packageTypeName:
              checked.service.packageTypes.find((p) => p.type === parcel.packageType)?.name ?? parcel.packageType,
            shipDate: checked.shipDate,
            postageCents: purchase.rate.parcelQuotes?.[index]?.totalCents ?? quote.totalCents,
            zone: purchase.rate.zone,
            parcelIndex: index + 1,
            parcelCount: purchase.parcels.length,
            testMode: scope.mode === "test",
            endorsement: parcel.serviceOptions.endorsement ?? null,
            labelText1: input.label.text1,
            labelText2: input.label.text2,
            contents: input.label.contents,
            scale: input.label.scale ?? undefined,
            format: input.label.format,
            size: input.label.size,
          });
      return { fileName: await storeFile(services, rendered.bytes, rendered.extension), rendered };
    }),
  );
}

/** Stores a label or document under a new unguessable name (the public file name). */
async function storeFile(services: DomainServices, bytes: Buffer, extension: string): Promise<string> {
  const fileName = `${randomBytes(16).toString("base64url")}.${extension}`;
  await services.files.put(fileName, bytes);
  return fileName;
}

/** What the carrier sold, written at once: the recovery job voids it if the process dies now. */
async function recordTrackingNumbers(
  services: DomainServices,
  parcels: ParcelRow[],
  purchase: Purchase,
): Promise<void> {
  const write = async (db: Kysely<Database>) => {
    for (const [index, parcel] of parcels.entries()) {
      const sold = purchase.parcels[index];
      await db
        .updateTable("parcels")
        .set({ tracking_number: sold?.trackingNumber ?? null, barcode_data: sold?.barcodeData ?? null })
        .where("id", "=", parcel.id)
        .execute();
    }
  };
  // One parcel's is one statement, atomic on its own.
  await (parcels.length === 1 ? write(services.db) : services.db.transaction().execute(write));
}

/** Transaction 2: labels, costs, `shipped`, and what the carrier charged beyond the price debited. */
async function recordPurchase(
  services: DomainServices,
  scope: AccountScope,
  shipment: ShipmentRow,
  parcels: ParcelRow[],
  purchase: Purchase,
  files: StoredLabel[],
  checked: CheckedShipment,
  customsFile: string | null,
  charge: MeterEntryRow | undefined,
  trackingDue: string,
  orderItems: NewShipment["orderItems"],
): Promise<ShipmentRecord> {
  const stamp = services.clock.now().toISOString();
  const quote = purchase.rate.quote as RateQuote;
  const days = checked.service.transitDays.max;
  // The first tracking read queued with the intent may have run already (and done nothing) when
  // buying took this long: then one is queued anew.
  const trackingQueued = Date.parse(stamp) < Date.parse(trackingDue) - FIRST_TRACKING_READ_MS / 2;
  // The rows written come back from the writes themselves: the answer needs no second read.
  return services.db.transaction().execute(async (trx) => {
    const shippedParcels: ParcelRow[] = [];
    const labels: LabelRow[] = [];
    for (const [index, parcel] of parcels.entries()) {
      const parcelQuote = purchase.rate.parcelQuotes?.[index] ?? quote;
      const shippedParcel = await trx
        .updateTable("parcels")
        .set({
          status: "shipped",
          cost_cents: parcelQuote.totalCents,
          cost_details: JSON.stringify(parcelQuote.lines),
          updated_at: stamp,
        })
        .where("id", "=", parcel.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      shippedParcels.push(shippedParcel);
      const file = files[index] as StoredLabel;
      const label = await trx
        .insertInto("labels")
        .values({
          parcel_id: parcel.id,
          shipment_id: shipment.id,
          format: shipment.label_format,
          size: shipment.label_size,
          dpi: file.rendered.dpi,
          width_in: file.rendered.widthIn,
          height_in: file.rendered.heightIn,
          content_type: file.rendered.contentType,
          file_name: file.fileName,
          status: "active",
          created_at: stamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      labels.push(label);
    }
    const shipped = await moveShipment(trx, shipment.id, {
      from: "purchasing",
      to: "shipped",
      set: {
        rate_cents: quote.totalCents,
        cost_details: JSON.stringify(quote.lines),
        zone: purchase.rate.zone,
        delivery_days: days,
        delivery_date: purchase.rate.deliveryDate ?? deliveryDate(checked.shipDate, days, checked.service.carrierCode),
        customs_document_file: customsFile,
        shipped_at: stamp,
        updated_at: stamp,
        tracking_refresh_at: trackingQueued ? trackingDue : null,
      },
    });
    // A run that took this request over after its holder went quiet may have voided it meanwhile.
    if (!shipped) throw new Error(`Shipment ${shipment.id} stopped purchasing before its labels were recorded.`);
    // A scan-based return (no charge yet) is charged the carrier's price at its first scan.
    const debitedCents = charge ? -charge.amount_cents : quote.totalCents;
    if (quote.totalCents !== debitedCents) {
      await appendMeterEntry(trx, {
        account_id: scope.accountId,
        mode: scope.mode,
        kind: "adjustment",
        amount_cents: debitedCents - quote.totalCents,
        shipment_id: shipment.id,
        description: `The carrier charged ${(quote.totalCents / 100).toFixed(2)} for shipment ${shipment.id}, quoted ${(debitedCents / 100).toFixed(2)}`,
        status: "posted",
        available_at: stamp,
        created_at: stamp,
      });
    }
    if (!trackingQueued) {
      await scheduleTrackingRefresh(services, trx, shipment.id, new Date(Date.parse(stamp) + FIRST_TRACKING_READ_MS));
    }
    await queueLabelLink(services, trx, shipped, orderItems);
    const labelImages = new Map(files.map((file) => [file.fileName, file.rendered.bytes]));
    return { shipment: shipped, parcels: shippedParcels, labels, charge, trackingEvents: [], labelImages };
  });
}

/**
 * The carrier sold labels we could not record: void them so nothing stays charged. If the void or
 * even marking the shipment fails, that is a money incident: the recovery job finds the shipment
 * still `purchasing`, voids what was sold and marks the incident repaired.
 */
async function voidAfterFailure(
  services: DomainServices,
  carrier: CarrierAdapter,
  shipment: ShipmentRow,
  trackingNumbers: readonly string[],
  amountCents: number,
): Promise<void> {
  try {
    await carrier.voidLabels(trackingNumbers);
    await markFailed(
      services,
      shipment.id,
      `labels ${trackingNumbers.join(", ")} voided: the purchase could not be recorded`,
    );
  } catch (error) {
    await recordBesideFailure(services, {
      kind: "labels_not_voided",
      ...shipmentIds(shipment),
      tracking_numbers: trackingNumbers,
      amount_cents: amountCents,
      job_kind: RECOVER_PURCHASE_JOB,
      failure: `the purchase could not be recorded, then voiding its labels or marking it failed failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}
