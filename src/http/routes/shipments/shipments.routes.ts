import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { DomainError } from "../../../domain/errors.js";
import { cancelShipment } from "../../../domain/shipments/cancel-shipment.js";
import { checkShipment, saleWarnings } from "../../../domain/shipments/check-shipment.js";
import { customsFormPdf } from "../../../domain/shipments/customs-form.js";
import { shipmentLabelPreview } from "../../../domain/shipments/label-preview.js";
import { buyChecked, purchaseShipment } from "../../../domain/shipments/purchase-shipment.js";
import { purchaseWithReturn } from "../../../domain/shipments/return-label.js";
import {
  boughtShipmentRecord,
  listShipments,
  loadShipmentRecords,
  type ShipmentRecord,
} from "../../../domain/shipments/shipments.repository.js";
import { errorBody } from "../../errors.js";
import { idempotentRequestId } from "../../plugins/idempotency.js";
import { parseInstant } from "../dates.js";
import { errorResponses, IdParam } from "../schemas.js";
import { returnLabelOf, toNewShipment } from "./shipment-request.js";
import { type PresentOptions, presentPayment, presentShipment } from "./shipments.presenter.js";
import { ListShipmentsQuery, PaymentOut, ShipBody, ShipMultipleBody, ShipmentOut } from "./shipments.schemas.js";

/** Where a purchase's answer carries label bytes (`inline_image`): kept as references when stored. */
const INLINE_FILE_KEYS = ["base64_image"] as const;

/** eHub buys at most ten shipments per call. */
export const SHIP_MULTIPLE_LIMIT = 10;

export const shipmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(ShipmentOut);
  app.addSchema(PaymentOut);
  const baseUrl = app.services.config.publicBaseUrl;

  /** Label bytes as base64, for `inline_image: true`. */
  async function inlineImages(records: ShipmentRecord[]): Promise<Map<number, string>> {
    const labels = records.flatMap((r) =>
      r.labels.map((label) => ({ label, image: r.labelImages?.get(label.file_name) })),
    );
    const images = await Promise.all(
      labels.map(({ label, image }) => image ?? app.services.files.get(label.file_name)),
    );
    return new Map(labels.map(({ label }, i) => [label.id, images[i]?.toString("base64") ?? ""]));
  }

  async function presentOptions(records: ShipmentRecord[], inline: boolean | undefined): Promise<PresentOptions> {
    return { baseUrl, inlineImages: inline ? await inlineImages(records) : undefined };
  }

  app.post(
    "/shipments/ship",
    {
      config: { permission: "shipping", inlineFileKeys: INLINE_FILE_KEYS },
      schema: {
        tags: ["Shipments"],
        summary: "Create a shipment and buy its labels",
        body: ShipBody,
        response: {
          201: Type.Object({
            shipment: Type.Ref("Shipment"),
            payment: Type.Union([Type.Ref("Payment"), Type.Null()], {
              description:
                "The real-time payment (an automatic refill) that paid for the label; null when the balance paid, as in most of eHub's answers.",
            }),
            warnings: Type.Optional(
              Type.Array(Type.String(), {
                description:
                  "Present when another service was sold in place of the one named (a retired product, one Porter does not sell, a First-Class Mail parcel); each warning names both.",
              }),
            ),
            return_shipment: Type.Optional(
              Type.Ref("Shipment", {
                description:
                  "Beyond eHub, present with `with_return: true` only: the return label bought with the shipment, a shipment of its own. `payment` covers both.",
              }),
            ),
          }),
          ...errorResponses(400, 401, 404, 409, 422, 500),
        },
      },
    },
    async (request, reply) => {
      const { shipment } = request.body;
      const newShipment = toNewShipment(shipment, "shipment");
      const requestKey = idempotentRequestId(request);
      const { record, returned } = shipment.with_return
        ? await purchaseWithReturn(app.services, request.scope, newShipment, returnLabelOf(shipment), requestKey).then(
            (pair) => ({ record: pair.outbound, returned: pair.returned }),
          )
        : { record: await purchaseShipment(app.services, request.scope, newShipment, requestKey), returned: undefined };
      const bought = returned ? [record, returned] : [record];
      const options = await presentOptions(bought, shipment.inline_image);
      const warnings = saleWarnings(newShipment);
      const paidBy = bought.find((r) => r.charge?.payment_transaction_id != null)?.charge;
      return reply.code(201).send({
        shipment: presentShipment(record, options),
        payment: paidBy
          ? presentPayment(
              bought.reduce((sum, r) => sum - (r.charge?.amount_cents ?? 0), 0),
              paidBy,
            )
          : null,
        ...(warnings.length > 0 ? { warnings } : {}),
        ...(returned ? { return_shipment: presentShipment(returned, options) } : {}),
      });
    },
  );

  app.post(
    "/shipments/ship_multiple",
    {
      config: {
        permission: "shipping",
        itemErrors: { list: "shipments", code: "shipments.invalid" },
        inlineFileKeys: INLINE_FILE_KEYS,
      },
      schema: {
        tags: ["Shipments"],
        summary: "Create and buy up to ten shipments at once",
        body: ShipMultipleBody,
        response: {
          201: Type.Object({
            shipments: Type.Array(Type.Union([Type.Ref("Shipment"), Type.Ref("ErrorBody")])),
            payment: Type.Ref("Payment"),
            warnings: Type.Optional(
              Type.Array(Type.String(), {
                description:
                  "Present when a shipment was sold another service in place of the one it named; each warning names both and starts with the shipment's place, e.g. `shipments[0]: `.",
              }),
            ),
          }),
          ...errorResponses(400, 401, 422),
        },
      },
    },
    async (request, reply) => {
      const { shipments } = request.body;
      if (shipments.length > SHIP_MULTIPLE_LIMIT) {
        throw new DomainError(
          "shipments.too_many",
          `At most ${SHIP_MULTIPLE_LIMIT} shipments per request; got ${shipments.length}.`,
        );
      }
      // Every shipment is checked before any is bought: one bad shipment refuses the request.
      const prepared = await Promise.all(
        shipments.map(async (input, index) => {
          const path = `shipments[${index}]`;
          if (input.with_return) {
            throw new DomainError(
              "request.invalid",
              `${path}.with_return is for POST /shipments/ship; here, send the return as its own shipment with is_return true.`,
            );
          }
          try {
            const newShipment = toNewShipment(input, path);
            return { input, newShipment, checked: await checkShipment(app.services, request.scope, newShipment, path) };
          } catch (error) {
            if (error instanceof DomainError) {
              throw new DomainError("shipments.invalid", `${path}: ${error.message}`);
            }
            throw error;
          }
        }),
      );
      const requestId = idempotentRequestId(request);
      const bought = await Promise.allSettled(
        prepared.map(({ newShipment, checked }, index) =>
          buyChecked(
            app.services,
            request.scope,
            newShipment,
            checked,
            requestId === undefined ? undefined : `${requestId}/${index}`,
          ),
        ),
      );
      const records = bought.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
      const inline = prepared.some(({ input }) => input.inline_image);
      const options = await presentOptions(records, inline);
      const answers = bought.map((outcome) => {
        if (outcome.status === "fulfilled") return presentShipment(outcome.value, options);
        if (outcome.reason instanceof DomainError) return errorBody(outcome.reason.code, outcome.reason.message);
        throw outcome.reason;
      });
      const total = records.reduce((sum, record) => sum - (record.charge?.amount_cents ?? 0), 0);
      const warnings = prepared.flatMap(({ newShipment }, index) =>
        bought[index]?.status === "fulfilled"
          ? saleWarnings(newShipment).map((warning) => `shipments[${index}]: ${warning}`)
          : [],
      );
      return reply.code(201).send({
        shipments: answers,
        payment: presentPayment(total, records.find((record) => record.charge?.payment_transaction_id != null)?.charge),
        ...(warnings.length > 0 ? { warnings } : {}),
      });
    },
  );

  app.get(
    "/shipments/:id",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Shipments"],
        summary: "Retrieve a shipment with its labels and tracking",
        params: IdParam,
        response: { 200: Type.Object({ shipment: Type.Ref("Shipment") }), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const record = await boughtShipmentRecord(app.services.db, request.scope, request.params.id);
      return { shipment: presentShipment(record, { baseUrl }) };
    },
  );

  app.get(
    "/shipments",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Shipments"],
        summary: "List shipments, newest first",
        querystring: ListShipmentsQuery,
        response: { 200: Type.Object({ shipments: Type.Array(Type.Ref("Shipment")) }), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 100;
      const { rows, total } = await listShipments(
        app.services.db,
        request.scope,
        {
          carrierCode: query.carrier_code,
          serviceCode: query.service_code,
          from: query.ship_from_time ? parseInstant("ship_from_time", query.ship_from_time).toISOString() : undefined,
          to: query.ship_to_time ? parseInstant("ship_to_time", query.ship_to_time).toISOString() : undefined,
          batchId: query.shipment_batch_id,
          status: query.status && query.status !== "all" ? query.status : undefined,
          trackingNumbers: query.tracking_number
            ?.flatMap((n) => n.split(","))
            .map((n) => n.trim())
            .filter(Boolean),
        },
        { limit: perPage, offset: (page - 1) * perPage },
      );
      setPaginationHeaders(reply, request, page, perPage, total);
      const records = await loadShipmentRecords(app.services.db, rows);
      return { shipments: records.map((record) => presentShipment(record, { baseUrl })) };
    },
  );

  app.put(
    "/shipments/:id/cancel",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Shipments"],
        summary: "Cancel a shipment and void its labels",
        description:
          'A failure of the cancel itself (not found, already cancelled, past the void window, manifested, the carrier refusing) carries, as eHub writes it, a JSON document in `error_message`: `{"errors": ["Shipment 42 is already cancel_pending."]}`.',
        params: IdParam,
        response: {
          200: Type.Object({ shipment: Type.Ref("Shipment"), payment: Type.Ref("Payment") }),
          ...errorResponses(401, 404, 409),
        },
      },
    },
    async (request) => {
      const { record, refund } = await cancelShipment(app.services, request.scope, request.params.id).catch(
        (error: unknown) => {
          throw asEhubCancelFailure(error);
        },
      );
      return {
        shipment: presentShipment(record, { baseUrl }),
        payment: presentPayment(refund.amount_cents, record.charge),
      };
    },
  );

  app.get(
    "/shipments/:id/customs_form",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Shipments"],
        summary: "The CN 22 or CN 23 customs form of an international, territory or military shipment (PDF)",
        params: IdParam,
        querystring: Type.Object({ parcel_id: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: Type.Unknown({ description: "application/pdf" }), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const pdf = await customsFormPdf(app.services, request.scope, request.params.id, request.query.parcel_id);
      return reply.header("content-type", "application/pdf").send(pdf);
    },
  );

  app.get(
    "/shipments/:id/label_preview",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Shipments"],
        summary: "A parcel's label as a PNG image: ZPL and EPL2 drawn as the printer would, image labels re-encoded",
        params: IdParam,
        querystring: Type.Object({
          parcel_id: Type.Optional(
            Type.Integer({ minimum: 1, description: "The parcel whose label is drawn; the first parcel's without it" }),
          ),
        }),
        response: { 200: Type.Unknown({ description: "image/png" }), ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const png = await shipmentLabelPreview(app.services, request.scope, request.params.id, request.query.parcel_id);
      return reply.header("content-type", "image/png").header("cache-control", "private, no-store").send(png);
    },
  );
};

/**
 * eHub writes a cancel's failure as a JSON document in `error_message`, `{"errors": ["…"]}`, and
 * its clients parse it as one: the human sentence goes inside, the code and status stay Porter's.
 */
export function asEhubCancelFailure(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  return new DomainError(error.code, JSON.stringify({ errors: [error.message] }), error.retryAfterSeconds);
}

/** No response header may exceed this (Node's own HTTP client refuses bigger ones). */
const MAX_HEADER_BYTES = 8 * 1024;

/**
 * `X-Total-Count` and an RFC 8288 `Link` header; bodies stay eHub's. The links carry
 * only the parameters the route's query schema knows, as validated; a `Link` that would still be
 * over 8 KiB (hundreds of tracking numbers) is left out rather than sent. A list too long to count
 * for every page (the reports) gives `{ hasNext }` instead of its total: no count and no `last`.
 */
export function setPaginationHeaders(
  reply: FastifyReply,
  request: FastifyRequest<{ Querystring: Record<string, unknown> }>,
  page: number,
  perPage: number,
  total: number | { hasNext: boolean },
): void {
  const counted = typeof total === "number";
  if (counted) reply.header("x-total-count", String(total));
  const pages = counted ? Math.max(1, Math.ceil(total / perPage)) : total.hasNext ? page + 1 : page;
  const path = request.url.split("?")[0];
  const known = (request.routeOptions.schema?.querystring as { properties?: object } | undefined)?.properties ?? {};
  const query = request.query;
  const filters = new URLSearchParams();
  for (const name of Object.keys(known)) {
    const value = query[name];
    if (name === "page" || name === "per_page" || value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) filters.append(name, String(item));
  }
  const link = (to: number, rel: string) => {
    const params = new URLSearchParams(filters);
    params.set("page", String(to));
    params.set("per_page", String(perPage));
    return `<${path}?${params.toString()}>; rel="${rel}"`;
  };
  const links = counted ? [link(1, "first"), link(pages, "last")] : [link(1, "first")];
  if (page > 1) links.push(link(page - 1, "prev"));
  if (page < pages) links.push(link(page + 1, "next"));
  const value = links.join(", ");
  if (Buffer.byteLength(value) <= MAX_HEADER_BYTES) reply.header("link", value);
}
