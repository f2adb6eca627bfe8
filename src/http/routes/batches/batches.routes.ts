import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { findBatch, listBatches, withShipmentIds } from "../../../domain/batches/batches.repository.js";
import { createBatches } from "../../../domain/batches/create-batches.js";
import { createDailyBatches } from "../../../domain/batches/create-daily-batches.js";
import { DomainError, notFound } from "../../../domain/errors.js";
import { parseCalendarDate } from "../dates.js";
import { errorResponses, IdParam } from "../schemas.js";
import { setPaginationHeaders } from "../shipments/shipments.routes.js";
import { fileUrl, presentBatch } from "./batches.presenter.js";
import { BatchOut, CreateBatchBody, DailyBatchBody, ListBatchesQuery } from "./batches.schemas.js";

const nextUtcDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/** Manifests: batches of shipments, one per carrier document. */
export const batchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(BatchOut);
  const baseUrl = app.services.config.publicBaseUrl;
  const timing = { manifestDelayMs: app.services.config.manifestDelayMs };
  const batchList = Type.Array(Type.Ref("Batch"));

  app.post(
    "/shipments/batches",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Batches"],
        summary: "Batch shipments of one carrier into manifests (USPS SCAN forms, DHL eCommerce manifests)",
        body: CreateBatchBody,
        response: {
          201: Type.Object({ shipments_batches: batchList, merged_docs: Type.Union([Type.String(), Type.Null()]) }),
          ...errorResponses(400, 401, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const ids = [...(body.shipments_ids ?? []), ...(body.shipment_ids ?? [])].map(Number);
      if (ids.length === 0) {
        throw new DomainError("request.invalid", "shipments_ids: name at least one shipment.");
      }
      const created = await createBatches(
        app.services,
        request.scope,
        { shipmentIds: ids, includeMerged: body.include_merged === true },
        timing,
      );
      return reply.code(201).send({
        shipments_batches: created.batches.map((record) => presentBatch(record, baseUrl)),
        merged_docs: fileUrl(baseUrl, created.mergedFile),
      });
    },
  );

  app.post(
    "/shipments/batches/daily",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Batches"],
        summary: "Batch every unmanifested shipment of a ship date, one batch per manifesting carrier",
        body: DailyBatchBody,
        response: { 201: Type.Object({ shipments_batches: batchList }), ...errorResponses(400, 401, 409, 422) },
      },
    },
    async (request, reply) => {
      const day = parseCalendarDate("shipment_date", request.body.shipment_date);
      const batches = await createDailyBatches(app.services, request.scope, day, timing);
      return reply.code(201).send({ shipments_batches: batches.map((record) => presentBatch(record, baseUrl)) });
    },
  );

  app.get(
    "/shipments/batches",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Batches"],
        summary: "List batches created between two dates (UTC days, both included)",
        querystring: ListBatchesQuery,
        response: { 200: Type.Object({ shipments_batches: batchList }), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const from = parseCalendarDate("date_from", query.date_from);
      const to = parseCalendarDate("date_to", query.date_to);
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 100;
      const { rows, total } = await listBatches(
        app.services.db,
        request.scope,
        { from: `${from}T00:00:00.000Z`, to: nextUtcDay(to) },
        { limit: perPage, offset: (page - 1) * perPage },
      );
      setPaginationHeaders(reply, request, page, perPage, total);
      const records = await withShipmentIds(app.services.db, rows);
      return { shipments_batches: records.map((record) => presentBatch(record, baseUrl)) };
    },
  );

  app.get(
    "/shipments/batches/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Batches"],
        summary: "Retrieve a batch; bol_url stays null until the carrier's document is generated",
        params: IdParam,
        response: { 200: Type.Ref("Batch"), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const batch = await findBatch(app.services.db, request.scope, id);
      if (!batch) throw notFound("batch", id);
      const [record] = await withShipmentIds(app.services.db, [batch]);
      return presentBatch(record as NonNullable<typeof record>, baseUrl);
    },
  );
};
