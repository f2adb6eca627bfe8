import { Readable } from "node:stream";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { meterSpendByWeek } from "../../../domain/reports/meter-spend.js";
import { meterTransactionExport, meterTransactionReport } from "../../../domain/reports/meter-transactions.js";
import { shipmentAdjustmentExport, shipmentAdjustmentReport } from "../../../domain/reports/shipment-adjustments.js";
import { parseInstant } from "../dates.js";
import { dollars } from "../rates/rates.presenter.js";
import { errorResponses } from "../schemas.js";
import { setPaginationHeaders } from "../shipments/shipments.routes.js";
import { csvChunks } from "./csv.js";
import {
  METER_TRANSACTION_COLUMNS,
  presentMeterTransaction,
  presentShipmentAdjustment,
  SHIPMENT_ADJUSTMENT_COLUMNS,
} from "./reports.presenter.js";
import {
  MeterSpendQuery,
  MeterTransactionOut,
  MeterTransactionQuery,
  ShipmentAdjustmentOut,
  ShipmentAdjustmentQuery,
  WeeklySpendOut,
} from "./reports.schemas.js";

/** eHub's default (and largest) page of a report. */
const REPORT_PAGE = 10_000;
/** Rows read from the database per step of a CSV export: one index range each. */
const EXPORT_BATCH = 1000;

const CSV_NOTE =
  "With `Accept: text/csv` (or `format=csv`) the whole report for the filters comes as CSV (the same columns, `tracking_numbers` separated by spaces), streamed as it is read; `page` and `per_page` apply to JSON only.";

function wantsCsv(request: FastifyRequest, format: "csv" | undefined): boolean {
  return format === "csv" || /\btext\/csv\b/i.test(request.headers.accept ?? "");
}

function sendCsv(reply: FastifyReply, name: string, chunks: AsyncGenerator<string>) {
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${name}.csv"`)
    .send(Readable.from(chunks));
}

function window(query: { from_time?: string; to_time?: string; include_children?: boolean | number }) {
  return {
    from: query.from_time ? parseInstant("from_time", query.from_time).toISOString() : undefined,
    to: query.to_time ? parseInstant("to_time", query.to_time).toISOString() : undefined,
    includeChildren: query.include_children === true || query.include_children === 1,
  };
}

const pageOf = (query: { page?: number; per_page?: number }) => {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? REPORT_PAGE;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
};

/** The meter transaction and shipment adjustment reports. */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(MeterTransactionOut);
  app.addSchema(ShipmentAdjustmentOut);
  app.addSchema(WeeklySpendOut);

  app.get(
    "/reports/meter_transaction",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Reports"],
        summary: "Postage meter activity: label purchases, refunds, adjustments and refills, by customer and time",
        description: CSV_NOTE,
        querystring: MeterTransactionQuery,
        response: {
          200: Type.Object({ meter_transactions: Type.Array(Type.Ref("MeterTransaction")) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const filter = {
        ...window(query),
        carrierCode: query.carrier_code,
        serviceCode: query.service_code,
        shipmentStatus: query.status && query.status !== "all" ? query.status : undefined,
      };
      if (wantsCsv(request, query.format)) {
        const { customers, batches } = await meterTransactionExport(app.services, request.scope, filter, EXPORT_BATCH);
        return sendCsv(
          reply,
          "meter_transactions",
          csvChunks(METER_TRANSACTION_COLUMNS, batches, (row) => presentMeterTransaction(customers, row)),
        );
      }
      const page = pageOf(query);
      const { customers, rows, hasNext } = await meterTransactionReport(app.services, request.scope, filter, page);
      setPaginationHeaders(reply, request, page.page, page.perPage, { hasNext });
      return { meter_transactions: rows.map((row) => presentMeterTransaction(customers, row)) };
    },
  );

  app.get(
    "/reports/meter_transaction/spend",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Reports"],
        summary: "Postage spend by carrier and UTC week (Monday start), summed by the database (beyond eHub)",
        querystring: MeterSpendQuery,
        response: {
          200: Type.Object({ spend: Type.Array(Type.Ref("WeeklySpend")) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const weeks = await meterSpendByWeek(app.services, request.scope, window(request.query));
      return {
        spend: weeks.map((w) => ({ week: w.week, carrier_code: w.carrierCode, amount: dollars(w.spentCents) })),
      };
    },
  );

  app.get(
    "/reports/shipment_adjustments",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Reports"],
        summary: "USPS adjustments: packages measured different from their labels, charged or refunded on the meter",
        description: CSV_NOTE,
        querystring: ShipmentAdjustmentQuery,
        response: {
          200: Type.Object({ shipment_adjustments: Type.Array(Type.Ref("ShipmentAdjustment")) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      if (wantsCsv(request, query.format)) {
        const { customers, batches } = await shipmentAdjustmentExport(
          app.services,
          request.scope,
          window(query),
          EXPORT_BATCH,
        );
        return sendCsv(
          reply,
          "shipment_adjustments",
          csvChunks(SHIPMENT_ADJUSTMENT_COLUMNS, batches, (row) => presentShipmentAdjustment(customers, row)),
        );
      }
      const page = pageOf(query);
      const { customers, rows, hasNext } = await shipmentAdjustmentReport(
        app.services,
        request.scope,
        window(query),
        page,
      );
      setPaginationHeaders(reply, request, page.page, page.perPage, { hasNext });
      return { shipment_adjustments: rows.map((row) => presentShipmentAdjustment(customers, row)) };
    },
  );
};
