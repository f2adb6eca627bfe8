import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import {
  CarrierError,
  type ManifestCapability,
  type ManifestFiling,
  type ManifestRequest,
} from "../../carriers/carrier.js";
import type { ServiceScope } from "../../carriers/catalogue.js";
import { findCarrier } from "../../carriers/registry.js";
import { LABEL_FILE_TYPES, type LabelFormat } from "../../labels/label.js";
import { type ManifestDocument, type ManifestKind, manifestPdf } from "../../labels/manifest/manifest-document.js";
import { mergedPdf, type StoredDocument } from "../../labels/manifest/merged-labels.js";
import { offlineApi, sellingCarrierOf } from "../carriers/carrier-connections.js";
import type { DomainServices } from "../services.js";
import { labelAddress } from "../shipments/label-address.js";
import type { ShipmentAddress } from "../shipments/new-shipment.js";
import type { ShipmentRow } from "../shipments/shipments.repository.js";
import {
  type BatchRow,
  batchParcels,
  markManifested,
  piecesByService,
  releaseShipments,
  slices,
  takeShipments,
} from "./batches.repository.js";
import { type ManifestPayload, manifestPieces, openOfCloseDay } from "./create-batches.js";

const KINDS: Record<string, ManifestKind> = {
  usps: "usps-scan-form",
  dhl_ecommerce: "dhl-ecommerce-manifest",
  fed_ex: "fedex-ground-close",
};

interface GeneratedDocument {
  batchId: number;
  documentNumber: string;
  fileName: string;
  format: LabelFormat;
}

/**
 * The job behind a batch request, run when the carrier would have produced its documents: each
 * batch's document is filed with the carrier and kept as the carrier made it, or else written
 * page by page, the merged labels too when asked; then one transaction records the documents
 * and makes every shipment `manifested`. A worker that dies before that transaction leaves no
 * shipment manifested (its files are orphans, and the retry writes new ones); after it, a retry
 * finds nothing pending.
 */
export async function generateManifests(
  services: DomainServices,
  payload: ManifestPayload,
  logger?: Pick<Logger, "warn">,
): Promise<void> {
  const batches = (
    await services.db.selectFrom("batches").selectAll().where("id", "in", payload.batchIds).orderBy("id").execute()
  ).filter((batch) => batch.status === "pending");
  if (batches.length === 0) return;
  await refuseWhileOffline(services, batches);
  const now = services.clock.now();
  const documents: GeneratedDocument[] = [];
  for (const batch of batches) {
    const document = await writeDocument(services, batch, now);
    if (document) documents.push(document);
  }
  if (payload.mergedFile) {
    const mergedFile = payload.mergedFile;
    await services.files.putChunks(
      mergedFile,
      mergedPdf(storedDocuments(services, documents, payload.batchIds), (file, reason) =>
        logger?.warn({ file, mergedFile, reason }, "a PDF that cannot be read was left out of a batch's merged file"),
      ),
    );
  }
  const stamp = now.toISOString();
  await services.db.transaction().execute(async (trx) => {
    for (const document of documents) {
      const recorded = await trx
        .updateTable("batches")
        .set({
          status: "generated",
          tracking_number: document.documentNumber,
          errors: null,
          document_file: document.fileName,
          generated_at: stamp,
        })
        .where("id", "=", document.batchId)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(recorded.numUpdatedRows) !== 1) continue;
      await markManifested(trx, (eb) => eb("batch_id", "=", document.batchId), stamp, stamp);
    }
  });
}

/**
 * While the operator has the carrier's manifest API marked offline, the batches say so in `errors`
 * and the job fails, to be retried with backoff: the documents come once the carrier is back.
 */
async function refuseWhileOffline(services: DomainServices, batches: readonly BatchRow[]): Promise<void> {
  const carrierCode = (batches[0] as BatchRow).carrier_code;
  const offline = await offlineApi(services, carrierCode, "manifest");
  if (!offline) return;
  const carrier = findCarrier(carrierCode)?.displayName ?? carrierCode;
  const message = `The ${carrier} manifest service is offline${offline.message ? ` (${offline.message})` : ""}; the document is retried until it answers.`;
  await services.db
    .updateTable("batches")
    .set({ errors: message })
    .where(
      "id",
      "in",
      batches.map((b) => b.id),
    )
    .execute();
  throw new Error(message);
}

/** The batch's document, or null when the carrier refused it for good (its words are in the batch's errors). */
async function writeDocument(services: DomainServices, batch: BatchRow, now: Date): Promise<GeneratedDocument | null> {
  const first = await firstShipmentOf(services, batch.id);
  // The connection that sold the labels files their form: a real carrier's with the carrier.
  const manifests = (await sellingCarrierOf(services, first)).manifests as ManifestCapability;
  if (manifests.closesShipDate) await takeLateShipments(services, batch, first, manifests);
  const scope = batch.scope as ServiceScope;
  const pieces = await piecesByService(services.db, batch.id);
  const counts = new Map<string, number>();
  for (const { serviceCode, pieces: n } of pieces) {
    const label = manifests.countedAs({ serviceCode, scope });
    counts.set(label, (counts.get(label) ?? 0) + n);
  }
  const trackingNumberCount = pieces.reduce((sum, p) => sum + p.pieces, 0);
  const trackingNumbers: string[] = [];
  for await (const parcel of batchParcels(services.db, [batch.id])) trackingNumbers.push(parcel.trackingNumber);
  const from = JSON.parse(first.from_location) as ShipmentAddress;
  const filing = await fileWithCarrier(services, batch, manifests, {
    mailingDate: batch.mailing_date,
    originPostalCode: batch.origin_postal_code,
    scope,
    serial: batch.id,
    trackingNumberCount,
    trackingNumbers,
    from,
  });
  if (!filing) return null;
  const { documentNumber, document: carrierDocument } = filing;
  if (carrierDocument) {
    const { bytes, format } = carrierDocument;
    const fileName = `${randomBytes(16).toString("base64url")}.${LABEL_FILE_TYPES[format].extension}`;
    await services.files.put(fileName, bytes);
    return { batchId: batch.id, documentNumber, fileName, format };
  }
  const document: ManifestDocument = {
    kind: KINDS[batch.carrier_code] ?? "usps-scan-form",
    documentNumber,
    mailingDate: batch.mailing_date,
    createdAt: now.toISOString(),
    mailer: labelAddress(from),
    originPostalCode: batch.origin_postal_code,
    international: scope === "international",
    testMode: batch.mode === "test",
    counts: [...counts].map(([label, n]) => ({ label, pieces: n })),
    trackingNumberCount,
  };
  const rows = async function* () {
    for await (const parcel of batchParcels(services.db, [batch.id])) {
      yield {
        trackingNumber: parcel.trackingNumber,
        countedAs: manifests.countedAs({ serviceCode: parcel.serviceCode, scope }),
        shipmentId: parcel.shipmentId,
      };
    }
  };
  const fileName = `${randomBytes(16).toString("base64url")}.pdf`;
  await services.files.putChunks(fileName, manifestPdf(document, rows()));
  return { batchId: batch.id, documentNumber, fileName, format: "pdf" };
}

/**
 * Files a batch's manifest; when the carrier refuses or fails, its words go to the batch's `errors`
 * and the job is retried with backoff, unless the carrier's answer is final: then it is recorded
 * once, the batch is `refused` and its shipments are released (so a later batch can take them),
 * and null is answered.
 */
async function fileWithCarrier(
  services: DomainServices,
  batch: BatchRow,
  manifests: ManifestCapability,
  request: ManifestRequest,
): Promise<ManifestFiling | null> {
  try {
    return await manifests.fileManifest(request);
  } catch (error) {
    if (!(error instanceof CarrierError)) throw error;
    if (!error.final) {
      await services.db
        .updateTable("batches")
        .set({ errors: `${error.message} The document is retried until the carrier files it.` })
        .where("id", "=", batch.id)
        .execute();
      throw error;
    }
    const stamp = services.clock.now().toISOString();
    await services.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("batches")
        .set({
          status: "refused",
          errors: `${error.message} Asking again cannot change this answer, so the document is not retried; its shipments are free for another batch.`,
        })
        .where("id", "=", batch.id)
        .where("status", "=", "pending")
        .execute();
      await releaseShipments(trx, batch.id, stamp);
    });
    return null;
  }
}

/**
 * A close of the whole ship date also closes what the connection sold for that date after the batch
 * was made: those shipments join the batch before it is filed, so they are listed and manifested too.
 */
async function takeLateShipments(
  services: DomainServices,
  batch: BatchRow,
  connection: Pick<ShipmentRow, "carrier_code" | "carrier_account_id">,
  manifests: ManifestCapability,
): Promise<void> {
  const scope = { accountId: batch.account_id, mode: batch.mode };
  const late = await manifestPieces(
    services,
    await openOfCloseDay(services, scope, connection, batch.mailing_date, []),
  );
  const form = { mailingDate: batch.mailing_date, originPostalCode: batch.origin_postal_code };
  const ids = late.filter((piece) => !manifests.refusal(piece, form)).map((piece) => piece.shipmentId);
  const stamp = services.clock.now().toISOString();
  for (const slice of slices(ids)) await takeShipments(services.db, batch.id, slice, stamp);
}

/** The manifest documents, then the labels of every shipment of the batches, a file at a time. */
async function* storedDocuments(
  services: DomainServices,
  documents: readonly GeneratedDocument[],
  batchIds: readonly number[],
): AsyncIterable<StoredDocument> {
  for (const document of documents) {
    const bytes = await services.files.get(document.fileName);
    if (bytes) yield { fileName: document.fileName, bytes, format: document.format, widthIn: 8.5, heightIn: 11 };
  }
  let after = 0;
  for (;;) {
    const labels = await services.db
      .selectFrom("labels")
      .innerJoin("shipments", "shipments.id", "labels.shipment_id")
      .select(["labels.id", "labels.file_name", "labels.format", "labels.width_in", "labels.height_in"])
      .where("shipments.batch_id", "in", batchIds)
      .where("labels.id", ">", after)
      .orderBy("labels.id")
      .limit(500)
      .execute();
    for (const label of labels) {
      const bytes = await services.files.get(label.file_name);
      if (bytes) {
        yield {
          fileName: label.file_name,
          bytes,
          format: label.format,
          widthIn: label.width_in,
          heightIn: label.height_in,
        };
      }
    }
    if (labels.length < 500) return;
    after = (labels[labels.length - 1] as { id: number }).id;
  }
}

/** The batch's first shipment: its sender hands the pieces over, its connection sold the labels. */
function firstShipmentOf(services: DomainServices, batchId: number) {
  return services.db
    .selectFrom("shipments")
    .select(["id", "carrier_code", "carrier_account_id", "from_location"])
    .where("batch_id", "=", batchId)
    .orderBy("id")
    .limit(1)
    .executeTakeFirstOrThrow();
}
