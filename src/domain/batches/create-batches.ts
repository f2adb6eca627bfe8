import { randomBytes } from "node:crypto";
import type { CarrierAdapter, ManifestCapability, ManifestForm, ManifestPiece } from "../../carriers/carrier.js";
import { findService } from "../../carriers/registry.js";
import { ownedBy } from "../../storage/owned-by.js";
import { requireCarrierApi, sellingCarrierOf } from "../carriers/carrier-connections.js";
import { DomainError } from "../errors.js";
import { carrierToday } from "../rates/delivery-date.js";
import type { AccountScope, DomainServices } from "../services.js";
import type { ShipmentRow } from "../shipments/shipments.repository.js";
import {
  type BatchRecord,
  insertBatch,
  openForManifesting,
  slices,
  storableIds,
  takeShipments,
} from "./batches.repository.js";
import { planDocuments } from "./document-plan.js";

export const GENERATE_MANIFESTS_JOB = "batch.generate_manifests";

export interface BatchRequest {
  shipmentIds: readonly number[];
  includeMerged: boolean;
  /** YYYY-MM-DD the pieces are handed over; today (carrier time) unless a daily batch names its day. */
  mailingDate?: string;
  /** Daily batches leave out what the carrier's document cannot take (FedEx Express) instead of refusing. */
  skipIneligible?: boolean;
}

export interface BatchTiming {
  /** How long the carrier takes to produce the documents (MANIFEST_DELAY_MS). */
  manifestDelayMs: number;
}

export interface CreatedBatches {
  batches: BatchRecord[];
  /** The file every label of the request is merged into, once the documents are generated. */
  mergedFile: string | null;
}

export interface ManifestPayload {
  batchIds: number[];
  mergedFile: string | null;
}

/** At most this many shipments are named in one error message. */
const NAMED = 10;

function naming(problems: readonly string[]): string {
  const more = problems.length > NAMED ? `; and ${problems.length - NAMED} more` : "";
  return problems.slice(0, NAMED).join("; ") + more;
}

/**
 * Puts shipments of one manifesting carrier into batches, one per carrier document:
 * every shipment is checked first and any that cannot go is named with the reason; then the
 * batches are recorded, their shipments taken, and the documents left to a job that runs when
 * the carrier would have produced them.
 */
export async function createBatches(
  services: DomainServices,
  scope: AccountScope,
  request: BatchRequest,
  timing: BatchTiming,
): Promise<CreatedBatches> {
  const ids = [...new Set(request.shipmentIds)];
  const shipments = await loadShipments(services, scope, ids);
  refuseUnavailable(ids, shipments);
  const { carrierCode, manifests } = await manifestingCarrier(services, shipments);
  await requireCarrierApi(services, scope, carrierCode, "manifest");
  const offered = await manifestPieces(services, shipments);
  const now = services.clock.now();
  const form: ManifestForm = {
    mailingDate:
      request.mailingDate ?? (manifests.closesShipDate ? offered[0]?.shipDate : undefined) ?? carrierToday(now),
    originPostalCode: offered[0]?.originPostalCode.slice(0, 5) ?? "",
  };
  const refusals = offered.flatMap((piece) => {
    const reason = manifests.refusal(piece, form);
    return reason ? [`shipment ${piece.shipmentId}: ${reason}`] : [];
  });
  if (refusals.length > 0 && !request.skipIneligible) {
    throw new DomainError("batch.shipment_ineligible", `These shipments cannot be manifested: ${naming(refusals)}.`);
  }
  const first = shipments[0];
  // A close of the whole ship date closes, at the carrier, every open shipment of the connection that day.
  const restOfDay =
    manifests.closesShipDate && first
      ? await manifestPieces(services, await openOfCloseDay(services, scope, first, form.mailingDate, ids))
      : [];
  const pieces = [...offered, ...restOfDay].filter((piece) => !manifests.refusal(piece, form));
  if (pieces.length === 0) return { batches: [], mergedFile: null };
  const documents = planDocuments(
    pieces.map((p) => ({ shipmentId: p.shipmentId, scope: p.scope, trackingNumbers: p.parcels })),
    manifests.documentLimit,
  );
  const mergedFile = request.includeMerged ? `${randomBytes(16).toString("base64url")}.pdf` : null;
  const stamp = now.toISOString();
  const batches = await services.db.transaction().execute(async (trx) => {
    const created: BatchRecord[] = [];
    for (const document of documents) {
      const batch = await insertBatch(trx, {
        account_id: scope.accountId,
        mode: scope.mode,
        carrier_code: carrierCode,
        scope: document.scope,
        status: "pending",
        mailing_date: form.mailingDate,
        origin_postal_code: form.originPostalCode,
        tracking_number: null,
        document_file: null,
        merged_file: mergedFile,
        errors: null,
        created_at: stamp,
        generated_at: null,
      });
      for (const slice of slices(document.shipmentIds)) {
        if ((await takeShipments(trx, batch.id, slice, stamp)) !== slice.length) {
          throw new DomainError(
            "batch.already_batched",
            "A shipment of this request was batched, closed out or cancelled meanwhile; ask again.",
          );
        }
      }
      created.push({ batch, shipmentIds: document.shipmentIds });
    }
    const payload: ManifestPayload = { batchIds: created.map((c) => c.batch.id), mergedFile };
    await services.jobs.enqueue(GENERATE_MANIFESTS_JOB, payload, {
      runAt: new Date(now.getTime() + timing.manifestDelayMs),
      maxAttempts: 10,
      executor: trx,
    });
    return created;
  });
  return { batches, mergedFile };
}

/** What the checks read of a shipment: ten thousand whole rows would be tens of megabytes. */
export type CheckedShipment = Pick<
  ShipmentRow,
  | "id"
  | "status"
  | "batch_id"
  | "manifested_at"
  | "carrier_code"
  | "carrier_account_id"
  | "service_id"
  | "service_code"
  | "ship_date"
  | "from_location"
>;

const CHECKED_COLUMNS = [
  "id",
  "status",
  "batch_id",
  "manifested_at",
  "carrier_code",
  "carrier_account_id",
  "service_id",
  "service_code",
  "ship_date",
  "from_location",
] as const satisfies readonly (keyof CheckedShipment)[];

async function loadShipments(services: DomainServices, scope: AccountScope, ids: readonly number[]) {
  const rows: CheckedShipment[] = [];
  for (const slice of slices(storableIds(ids))) {
    rows.push(
      ...(await services.db
        .selectFrom("shipments")
        .select(CHECKED_COLUMNS)
        .where(ownedBy(scope))
        .where("id", "in", slice)
        .execute()),
    );
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

/**
 * The shipments a carrier's close of one ship date takes beyond those named: every shipment of the
 * account bought through the same connection, of that ship date, still open for manifesting.
 */
export async function openOfCloseDay(
  services: DomainServices,
  scope: AccountScope,
  connection: Pick<CheckedShipment, "carrier_code" | "carrier_account_id">,
  shipDate: string,
  named: readonly number[],
): Promise<CheckedShipment[]> {
  const taken = new Set(named);
  const rows = await services.db
    .selectFrom("shipments")
    .select(CHECKED_COLUMNS)
    .where(ownedBy(scope))
    .where("carrier_code", "=", connection.carrier_code)
    .where("carrier_account_id", connection.carrier_account_id === null ? "is" : "=", connection.carrier_account_id)
    .where("ship_date", "=", shipDate)
    .where(openForManifesting)
    .orderBy("id")
    .execute();
  return rows.filter((row) => !taken.has(row.id));
}

/** Shipments that cannot be batched at all: unknown here, not bought, cancelled, already on a batch or closed out. */
function refuseUnavailable(ids: readonly number[], shipments: readonly CheckedShipment[]): void {
  const found = new Set(shipments.map((s) => s.id));
  const missing = ids.filter((id) => !found.has(id));
  const unavailable = [
    ...missing.map((id) => `shipment ${id} is not a shipment of this account`),
    ...shipments
      .filter((s) => s.status === "purchasing" || s.status === "failed")
      .map((s) => `shipment ${s.id} was never bought`),
    ...shipments
      .filter((s) => s.status === "cancel_pending" || s.status === "cancelled")
      .map((s) => `shipment ${s.id} is ${s.status}`),
  ];
  if (unavailable.length > 0) {
    throw new DomainError("batch.shipment_unavailable", `These shipments cannot be batched: ${naming(unavailable)}.`);
  }
  const batched = shipments.filter((s) => s.batch_id !== null);
  if (batched.length > 0) {
    throw new DomainError(
      "batch.already_batched",
      `Already in a batch: ${naming(batched.map((s) => `shipment ${s.id} (batch ${s.batch_id})`))}.`,
    );
  }
  const closedOut = shipments.filter((s) => s.manifested_at !== null);
  if (closedOut.length > 0) {
    throw new DomainError(
      "batch.already_closed_out",
      `The carrier closed these out at its end-of-day close-out, so they cannot be manifested again: ${naming(
        closedOut.map((s) => `shipment ${s.id}`),
      )}.`,
    );
  }
  const moving = shipments.filter((s) => s.status !== "shipped");
  if (moving.length > 0) {
    throw new DomainError(
      "batch.shipment_unavailable",
      `The carrier already has these: ${naming(moving.map((s) => `shipment ${s.id} is ${s.status}`))}.`,
    );
  }
}

/**
 * The carrier that files the request's manifest: the one that sold every shipment, through one
 * connection (the sandbox's, or a real account's), so its own rules decide what it takes.
 */
async function manifestingCarrier(
  services: DomainServices,
  shipments: readonly CheckedShipment[],
): Promise<{ carrierCode: string; manifests: ManifestCapability }> {
  const sellers = new Map<string, CarrierAdapter>();
  for (const shipment of shipments) {
    const key = `${shipment.carrier_code}:${shipment.carrier_account_id}`;
    if (!sellers.has(key)) sellers.set(key, await sellingCarrierOf(services, shipment));
  }
  const carriers = [...new Set(sellers.values())];
  const unsupported = [...new Set(carriers.filter((c) => !c.manifests).map((c) => c.displayName))];
  if (unsupported.length > 0) {
    const fedex = carriers.some((c) => c.code === "fed_ex" && !c.manifests)
      ? " FedEx closes out Ground shipments only through a real FedEx connection (its end-of-day close)."
      : "";
    throw new DomainError(
      "batch.carrier_not_supported",
      `${unsupported.join(", ")} shipments cannot be batched: only USPS and DHL eCommerce take manifests.${fedex}`,
    );
  }
  const codes = [...new Set(carriers.map((c) => c.code))];
  if (codes.length > 1) {
    throw new DomainError(
      "batch.mixed_carriers",
      `A batch takes shipments of one carrier; these are of ${codes.join(", ")}.`,
    );
  }
  const [carrier] = carriers as [CarrierAdapter & { manifests: ManifestCapability }];
  if (carriers.length > 1) {
    throw new DomainError(
      "batch.mixed_carriers",
      `A batch takes shipments bought through one ${carrier.displayName} connection; these were bought through the sandbox and a real account, or through two accounts.`,
    );
  }
  return { carrierCode: carrier.code, manifests: carrier.manifests };
}

/** Each shipment as the carrier's manifest rules see it, with its parcel count. */
export async function manifestPieces(
  services: DomainServices,
  shipments: readonly CheckedShipment[],
): Promise<(ManifestPiece & { parcels: number })[]> {
  const parcels = new Map<number, { count: number; packageType: string }>();
  for (const slice of slices(shipments.map((s) => s.id))) {
    const rows = await services.db
      .selectFrom("parcels")
      .select(["shipment_id", "package_type", "position"])
      .where("shipment_id", "in", slice)
      .orderBy("position")
      .execute();
    for (const row of rows) {
      const seen = parcels.get(row.shipment_id);
      if (seen) seen.count += 1;
      else parcels.set(row.shipment_id, { count: 1, packageType: row.package_type });
    }
  }
  return shipments.map((shipment) => ({
    shipmentId: shipment.id,
    serviceCode: shipment.service_code,
    scope: findService(shipment.service_id)?.scope ?? "domestic",
    packageType: parcels.get(shipment.id)?.packageType ?? "parcel",
    shipDate: shipment.ship_date,
    originPostalCode: (JSON.parse(shipment.from_location) as { postal_code: string }).postal_code,
    parcels: parcels.get(shipment.id)?.count ?? 1,
  }));
}
