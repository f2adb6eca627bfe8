import type http from "node:http";
import type { Violation } from "../../contracts/published-specs.js";
import { CarrierStandIn, parseRequestBody, sendJson as send } from "../stand-in-server.js";

/** MyDHL API's published spec (relative to the carrier specs folder): every request must conform to it. */
const DHL_EXPRESS_SPEC = "dhl-express/dpdhl-express-api-3.1.1_swagger.yaml";

/**
 * A local MyDHL API (DHL Express) of ours, written from DHL's published spec: `GET
 * /address-validate`, `POST /rates`, `POST /shipments`, `GET /shipments/{n}/tracking`, `POST
 * /pickups` and `DELETE /pickups/{dispatchConfirmationNumber}`, with
 * their paths and HTTP basic auth. Every request is first held to DHL's published spec (its
 * schemas: required fields, enums, patterns, lengths), and the rules the spec states only in prose
 * are checked beside it; a refusal is DHL's error body `{instance, detail, title, message, status}`. Its prices, waybill
 * numbers and documents are its own, not DHL's. It can be told to fail the next calls.
 */

export type DhlStandInFault = "401" | "429" | "500" | "503" | "timeout" | "malformed";
export type DhlStandInOperation = "address-validate" | "rates" | "shipments" | "tracking" | "pickups" | "pickup-cancel";

/** A pickup DHL booked, by dispatch confirmation number. */
export interface DhlStandInPickup {
  request: Record<string, unknown>;
  cancelled: boolean;
}

export interface DhlStandInAccount {
  apiKey: string;
  apiSecret: string;
  accountNumber: string;
}

export interface DhlStandInRequest {
  method: string;
  path: string;
  operation: DhlStandInOperation | undefined;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
  version: string | undefined;
}

export interface DhlStandInEvent {
  date: string;
  time: string;
  GMTOffset: string;
  typeCode: string;
  description: string;
  serviceArea: { code: string; description: string }[];
}

interface StoredShipment {
  trackingNumber: string;
  productCode: string;
  pieces: number;
  events: DhlStandInEvent[];
}

/** The stand-in's products: per pound (imperial) in cents, first pound included; doc variants cost less. */
const PRODUCTS: Record<string, { name: string; firstPoundCents: number; perPoundCents: number; days: number }> = {
  P: { name: "EXPRESS WORLDWIDE", firstPoundCents: 6150, perPoundCents: 640, days: 3 },
  D: { name: "EXPRESS WORLDWIDE DOC", firstPoundCents: 5190, perPoundCents: 500, days: 3 },
  Y: { name: "EXPRESS 12:00", firstPoundCents: 7650, perPoundCents: 640, days: 2 },
  T: { name: "EXPRESS 12:00 DOC", firstPoundCents: 6690, perPoundCents: 500, days: 2 },
  E: { name: "EXPRESS 9:00", firstPoundCents: 10650, perPoundCents: 640, days: 2 },
  K: { name: "EXPRESS 9:00 DOC", firstPoundCents: 9690, perPoundCents: 500, days: 2 },
  N: { name: "EXPRESS DOMESTIC", firstPoundCents: 3500, perPoundCents: 300, days: 1 },
};
const GOODS = ["P", "Y", "E"];
const DOCUMENTS = ["D", "T", "K"];
/** Fuel surcharge on the product charge, in basis points (the stand-in's own). */
const FUEL_BASIS_POINTS = 2750;
const PLANNED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} ?GMT[+-]\d{2}:\d{2}$/;
type Json = Record<string, unknown>;

export class DhlExpressStandIn extends CarrierStandIn<DhlStandInFault, DhlStandInOperation> {
  readonly #shipments = new Map<string, StoredShipment>();
  #nextWaybill = 1_000_000;
  /** Every request received, in order. */
  readonly requests: DhlStandInRequest[] = [];
  /** Destination countries the stand-in's DHL does not serve: rating there answers 400. */
  readonly unservedCountries = new Set<string>();
  /** Pickups it booked, by dispatch confirmation number. */
  readonly pickups = new Map<string, DhlStandInPickup>();
  /** Whether the account may book pickups; when not, DHL answers the spec's error 8003. */
  pickupsAllowed = true;
  #nextPickup = 1;

  protected override readonly specFiles = [DHL_EXPRESS_SPEC];

  constructor(readonly account: DhlStandInAccount) {
    super("/mydhlapi/test");
  }

  /** DHL refuses a request its schema does not allow as a 400 in its error body, naming each fault. */
  protected override refuseNonConforming(res: http.ServerResponse, violations: readonly Violation[]): void {
    const detail = violations.map((v) => `${v.where}: ${v.message}`).join("; ");
    send(res, 400, problem(new URL(res.req.url ?? "/", "http://stand-in").pathname, "Validation error", detail, "400"));
  }

  callsTo(operation: DhlStandInOperation): number {
    return this.requests.filter((r) => r.operation === operation).length;
  }

  lastRequest(operation: DhlStandInOperation): DhlStandInRequest | undefined {
    return this.requests.findLast((r) => r.operation === operation);
  }

  /** DHL scans a shipment: the event joins its history. */
  addEvent(
    trackingNumber: string,
    event: Pick<DhlStandInEvent, "typeCode" | "description"> & Partial<DhlStandInEvent>,
  ) {
    const shipment = this.#shipments.get(trackingNumber);
    if (!shipment) throw new Error(`The stand-in made no shipment ${trackingNumber}.`);
    shipment.events.push({
      date: "2026-11-27",
      time: "10:00:00",
      GMTOffset: "+00:00",
      serviceArea: [{ code: "CVG", description: "Cincinnati Hub-US" }],
      ...event,
    });
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const path = url.pathname.replace(/^\/mydhlapi\/test/, "");
    const method = req.method ?? "GET";
    const operation = operationOf(method, path);
    const body = parseRequestBody(raw, req.headers["content-type"]);
    const version = headerOf(req, "x-version");
    this.requests.push({
      method,
      path,
      operation,
      query: url.searchParams,
      body,
      authorization: req.headers.authorization,
      version,
    });
    const instance = `/expressapi${path}`;
    const fault = this.faults.take(operation);
    if (this.answeredAsFault(fault, res, '{"products": [{"productCode": ')) return;
    if (fault === "429" || fault === "503") {
      const title = fault === "429" ? "Too many requests" : "Service Unavailable";
      send(res, Number(fault), problem(instance, title, title, fault), { "retry-after": "0" });
      return;
    }
    if (fault === "500") {
      send(res, 500, problem(instance, "Internal Server Error", "Process failure", "500"));
      return;
    }
    if (!operation) {
      send(res, 404, problem(instance, "Not Found", `No operation ${method} ${path}.`, "404"));
      return;
    }
    if (fault === "401" || !this.#authorized(req.headers.authorization)) {
      send(res, 401, problem(instance, "Unauthorized", "Invalid Credentials", "401"), {
        "www-authenticate": 'Basic realm="MyDHL API"',
      });
      return;
    }
    if (!version) {
      send(res, 400, problem(instance, "Validation error", "Missing header: x-version", "400"));
      return;
    }
    const query = url.searchParams;
    if (operation === "address-validate") this.#addressValidate(res, query);
    else if (operation === "rates") this.#rates(res, instance, asObject(body));
    else if (operation === "shipments") this.#createShipment(res, instance, asObject(body), url);
    else if (operation === "pickups") this.#createPickup(res, instance, asObject(body));
    else if (operation === "pickup-cancel") this.#cancelPickup(res, instance, path.split("/")[2] ?? "");
    else this.#tracking(res, instance, path.split("/")[2] ?? "");
  }

  #authorized(header: string | undefined): boolean {
    const encoded = /^Basic (.+)$/.exec(header ?? "")?.[1];
    if (!encoded) return false;
    return Buffer.from(encoded, "base64").toString("utf8") === `${this.account.apiKey}:${this.account.apiSecret}`;
  }

  #addressValidate(res: http.ServerResponse, query: URLSearchParams): void {
    const country = query.get("countryCode") ?? "";
    const postalCode = query.get("postalCode") ?? "";
    send(res, 200, {
      address: [
        {
          countryCode: country,
          postalCode,
          cityName: (query.get("cityName") ?? "").toUpperCase(),
          serviceArea: { code: "CVG", description: `CINCINNATI-${country}`, GMTOffset: "-05:00" },
        },
      ],
    });
  }

  #rates(res: http.ServerResponse, instance: string, body: Json): void {
    const problems = proseRuleProblems("rates", body);
    if (problems.length > 0) {
      send(res, 400, problem(instance, "Validation error", problems.join("; "), "400"));
      return;
    }
    const packages = arrayAt(body, "packages");
    const from = String(valueAt(body, "customerDetails.shipperDetails.countryCode"));
    const to = String(valueAt(body, "customerDetails.receiverDetails.countryCode"));
    if (this.unservedCountries.has(to)) {
      send(
        res,
        400,
        problem(instance, "Bad request", `No DHL Express product is available to ${to} for this shipment.`, "400"),
      );
      return;
    }
    const codes = from === to ? ["N"] : body.isCustomsDeclarable === false ? DOCUMENTS : GOODS;
    const wanted = typeof body.productCode === "string" ? [body.productCode] : codes;
    const offered = codes.filter((code) => wanted.includes(code));
    if (offered.length === 0) {
      send(
        res,
        400,
        problem(instance, "Bad request", `Product ${wanted.join(", ")} is not available for this lane.`, "400"),
      );
      return;
    }
    const imperial = body.unitOfMeasurement === "imperial";
    const planned = String(body.plannedShippingDateAndTime).slice(0, 10);
    send(res, 200, {
      products: offered.map((code) => rateProduct(code, packages.map(asObject), imperial, planned)),
    });
  }

  #createShipment(res: http.ServerResponse, instance: string, body: Json, url: URL): void {
    const problems = proseRuleProblems("shipments", body);
    const content = asObject(body.content);
    const packages = arrayAt(body, "content.packages");
    if (problems.length > 0) {
      send(res, 400, problem(instance, "Validation error", problems.join("; "), "400"));
      return;
    }
    const encoding = valueAt(body, "outputImageProperties.encodingFormat");
    const account = arrayAt(body, "accounts")
      .map(asObject)
      .find((a) => a.typeCode === "shipper");
    if (account?.number !== this.account.accountNumber) {
      send(res, 422, problem(instance, "Unprocessable Entity", "Account number is invalid or not authorised", "422"));
      return;
    }
    const productCode = String(body.productCode);
    if (!PRODUCTS[productCode]) {
      send(res, 422, problem(instance, "Unprocessable Entity", `Product ${productCode} is not available`, "422"));
      return;
    }
    const trackingNumber = String(this.#nextWaybill++).padStart(10, "0");
    const format = String(encoding ?? "pdf");
    const validateOnly = url.searchParams.get("validateDataOnly") === "true";
    if (!validateOnly) {
      this.#shipments.set(trackingNumber, {
        trackingNumber,
        productCode,
        pieces: packages.length,
        events: [],
      });
    }
    const imperial = content.unitOfMeasurement === "imperial";
    const planned = String(body.plannedShippingDateAndTime).slice(0, 10);
    const priced = rateProduct(productCode, packages.map(asObject), imperial, planned);
    const options = arrayAt(body, "outputImageProperties.imageOptions").map(asObject);
    const invoiceAsked = options.some((o) => o.typeCode === "invoice" && o.isRequested === true);
    send(res, 201, {
      url: `${this.baseUrl}/shipments`,
      shipmentTrackingNumber: trackingNumber,
      trackingUrl: `${this.baseUrl}/shipments/${trackingNumber}/tracking`,
      packages: packages.map((_, i) => ({
        referenceNumber: i + 1,
        trackingNumber: `JD01460000${trackingNumber}${i + 1}`,
        trackingUrl: `${this.baseUrl}/shipments/${trackingNumber}/tracking?pieceTrackingNumber=JD01460000${trackingNumber}${i + 1}`,
      })),
      documents: [
        ...packages.map((_, i) => ({
          imageFormat: format.toUpperCase(),
          content: Buffer.from(labelDocument(format, trackingNumber, i + 1)).toString("base64"),
          typeCode: "label",
          packageReferenceNumber: i + 1,
        })),
        ...(invoiceAsked && content.isCustomsDeclarable === true
          ? [
              {
                imageFormat: "PDF",
                content: Buffer.from(`%PDF-1.4\n% commercial invoice ${trackingNumber}\n%%EOF\n`).toString("base64"),
                typeCode: "invoice",
              },
            ]
          : []),
      ],
      shipmentCharges: [
        {
          currencyType: "BILLC",
          priceCurrency: "USD",
          price: asObject(asArray(priced.totalPrice)[0]).price,
          serviceBreakdown: asArray(asObject(asArray(priced.detailedPriceBreakdown)[0]).breakdown).map((item) => ({
            name: asObject(item).name,
            price: asObject(item).price,
          })),
        },
      ],
      estimatedDeliveryDate: {
        estimatedDeliveryDate: priced.deliveryCapabilities.estimatedDeliveryDateAndTime.slice(0, 10),
        estimatedDeliveryType: "QDDF",
      },
    });
  }

  #tracking(res: http.ServerResponse, instance: string, trackingNumber: string): void {
    const shipment = this.#shipments.get(trackingNumber);
    if (!shipment) {
      send(res, 404, problem(instance, "Not Found", `No shipment found for tracking number ${trackingNumber}`, "404"));
      return;
    }
    send(res, 200, {
      shipments: [
        {
          shipmentTrackingNumber: trackingNumber,
          status: "Success",
          productCode: shipment.productCode,
          numberOfPieces: shipment.pieces,
          events: shipment.events,
          estimatedDeliveryDate: "2026-12-01T23:59:00Z",
        },
      ],
    });
  }

  #createPickup(res: http.ServerResponse, instance: string, body: Json): void {
    const problems = proseRuleProblems("pickups", body);
    if (problems.length > 0) {
      send(res, 400, problem(instance, "Validation error", problems.join("; "), "400"));
      return;
    }
    if (!this.pickupsAllowed) {
      send(
        res,
        400,
        problem(
          instance,
          "Bad request",
          "8003: Account not allowed for this service. Please contact your DHL Express representative.",
          "400",
        ),
      );
      return;
    }
    const number = `PRG${String(this.#nextPickup++).padStart(12, "0")}`;
    this.pickups.set(number, { request: body, cancelled: false });
    send(res, 201, { dispatchConfirmationNumbers: [number], readyByTime: String(body.closeTime ?? "18:00") });
  }

  #cancelPickup(res: http.ServerResponse, instance: string, number: string): void {
    const pickup = this.pickups.get(number);
    if (!pickup) {
      send(
        res,
        404,
        problem(
          instance,
          "Pickup not found",
          "Cancellation of booking was not successful. Requested Pickup was not found",
          "404",
        ),
      );
      return;
    }
    if (pickup.cancelled) {
      send(res, 400, problem(instance, "Bad request", "Pickup already cancelled or completed", "400"));
      return;
    }
    pickup.cancelled = true;
    res.writeHead(200).end();
  }
}

/**
 * The rules MyDHL API 3.1.1's spec states in prose only, beside its schemas: the planned time's
 * format, "YYYY-MM-DD", "T", "HH:MM:SS", then the GMT offset (plannedShippingDateAndTime, lines
 * 10592 and 15586-15593; plannedPickupDateAndTime, lines 14981-14988), and "If the shipment is
 * dutiable, exportDeclaration element must be provided" (content.isCustomsDeclarable, line 11392).
 */
export function proseRuleProblems(operation: DhlStandInOperation | undefined, body: unknown): string[] {
  const request = asObject(body);
  if (operation === "pickups") return plannedTimeProblems(request, "plannedPickupDateAndTime");
  if (operation !== "rates" && operation !== "shipments") return [];
  const problems = plannedTimeProblems(request, "plannedShippingDateAndTime");
  const content = asObject(request.content);
  if (operation === "shipments" && content.isCustomsDeclarable === true && content.exportDeclaration === undefined) {
    problems.push("#/content/exportDeclaration: required for a customs declarable shipment");
  }
  return problems;
}

function plannedTimeProblems(body: Json, field: string): string[] {
  const planned = body[field];
  if (planned === undefined || (typeof planned === "string" && PLANNED_TIME.test(planned))) return [];
  return [`#/${field}: string does not match the date and time format`];
}

export function operationOf(method: string, path: string): DhlStandInOperation | undefined {
  if (method === "GET" && path === "/address-validate") return "address-validate";
  if (method === "POST" && path === "/rates") return "rates";
  if (method === "POST" && path === "/shipments") return "shipments";
  if (method === "GET" && /^\/shipments\/[^/]+\/tracking$/.test(path)) return "tracking";
  if (method === "POST" && path === "/pickups") return "pickups";
  if (method === "DELETE" && /^\/pickups\/[^/]+$/.test(path)) return "pickup-cancel";
  return undefined;
}

/** The stand-in's price of one product for the packages: billed on the greater of actual and volumetric pounds. */
function rateProduct(code: string, packages: Json[], imperial: boolean, plannedDate: string) {
  const product = PRODUCTS[code]!;
  const toPounds = imperial ? 1 : 2.20462;
  const actual = packages.reduce((sum, p) => sum + Number(p.weight) * toPounds, 0);
  const volumetric = packages.reduce((sum, p) => {
    const d = asObject(p.dimensions);
    if (d.length === undefined) return sum;
    const cubicIn = Number(d.length) * Number(d.width) * Number(d.height) * (imperial ? 1 : 1 / 16.387);
    return sum + cubicIn / 139;
  }, 0);
  const pounds = Math.max(1, Math.ceil(Math.max(actual, volumetric)));
  const baseCents = product.firstPoundCents + (pounds - 1) * product.perPoundCents;
  const fuelCents = Math.round((baseCents * FUEL_BASIS_POINTS) / 10_000);
  const total = (baseCents + fuelCents) / 100;
  const delivery = new Date(Date.parse(`${plannedDate}T00:00:00Z`) + product.days * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return {
    productName: product.name,
    productCode: code,
    localProductCode: code,
    localProductCountryCode: "US",
    networkTypeCode: "TD",
    isCustomerAgreement: false,
    weight: {
      volumetric: Math.round(volumetric * 1000) / 1000,
      provided: Math.round(actual * 1000) / 1000,
      unitOfMeasurement: imperial ? "imperial" : "metric",
    },
    totalPrice: [
      { currencyType: "BILLC", priceCurrency: "USD", price: total },
      { currencyType: "PULCL", priceCurrency: "USD", price: total },
      { currencyType: "BASEC", priceCurrency: "EUR", price: Math.round(total * 92) / 100 },
    ],
    totalPriceBreakdown: [
      {
        currencyType: "BILLC",
        priceCurrency: "USD",
        priceBreakdown: [
          { typeCode: "STTXA", price: 0 },
          { typeCode: "SPRQT", price: baseCents / 100 },
        ],
      },
    ],
    detailedPriceBreakdown: [
      {
        currencyType: "BILLC",
        priceCurrency: "USD",
        breakdown: [
          { name: product.name, price: baseCents / 100 },
          {
            name: "FUEL SURCHARGE",
            serviceCode: "FF",
            localServiceCode: "FF",
            serviceTypeCode: "SCH",
            price: fuelCents / 100,
          },
          { name: "SATURDAY DELIVERY", serviceCode: "AA", localServiceCode: "AA", serviceTypeCode: "XCH" },
        ],
      },
    ],
    pickupCapabilities: { nextBusinessDay: false, localCutoffDateAndTime: `${plannedDate}T17:00:00` },
    deliveryCapabilities: {
      deliveryTypeCode: "QDDF",
      estimatedDeliveryDateAndTime: `${delivery}T23:59:00`,
      destinationServiceAreaCode: "YYZ",
      totalTransitDays: product.days,
    },
    pricingDate: plannedDate,
  };
}

/** The stand-in's label in the format asked: a PDF, or the printer language's own text. */
function labelDocument(format: string, trackingNumber: string, piece: number): string {
  if (format === "zpl") return `^XA^FO50,50^A0N,40,40^FDDHL ${trackingNumber} ${piece}^FS^XZ\n`;
  if (format === "epl") return `N\nA50,50,0,4,1,1,N,"DHL ${trackingNumber} ${piece}"\nP1\n`;
  if (format === "lp2") return `^XA^FDLP2 ${trackingNumber} ${piece}^FS^XZ\n`;
  return `%PDF-1.4\n% DHL Express transport label ${trackingNumber} piece ${piece}\n%%EOF\n`;
}

function problem(instance: string, title: string, detail: string, status: string) {
  return { instance, detail, title, message: title, status };
}

function headerOf(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function asObject(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function valueAt(body: Json, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => asObject(node)[key], body);
}

function arrayAt(body: Json, path: string): unknown[] {
  return asArray(valueAt(body, path));
}
