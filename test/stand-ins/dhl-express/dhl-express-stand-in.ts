import type http from "node:http";
import { CarrierStandIn, parseRequestBody, sendJson as send } from "../stand-in-server.js";

/**
 * A local MyDHL API (DHL Express) of ours, written from DHL's published spec: `GET
 * /address-validate`, `POST /rates`, `POST /shipments`, `GET /shipments/{n}/tracking`, `POST
 * /pickups` and `DELETE /pickups/{dispatchConfirmationNumber}`, with
 * their paths, HTTP basic auth, the `x-version` header, the spec's required fields and enums
 * checked, and DHL's error body `{instance, detail, title, message, status}`. Its prices, waybill
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
const ENCODING_FORMATS = ["pdf", "zpl", "lp2", "epl"];
const INCOTERMS = [
  "EXW",
  "FCA",
  "CPT",
  "CIP",
  "DPU",
  "DAP",
  "DDP",
  "FAS",
  "FOB",
  "CFR",
  "CIF",
  "DAF",
  "DAT",
  "DDU",
  "DEQ",
  "DES",
];
const ACCOUNT_TYPES = ["shipper", "payer", "duties-taxes"];
const PACKAGE_TYPES = [
  "1CE",
  "2BC",
  "2BP",
  "2BX",
  "3BX",
  "4BX",
  "5BX",
  "6BX",
  "7BX",
  "8BX",
  "CE1",
  "TBL",
  "TBS",
  "WB1",
  "WB2",
  "WB3",
  "WB6",
  "XPD",
];

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

  constructor(readonly account: DhlStandInAccount) {
    super("/mydhlapi/test");
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
    if (operation === "address-validate") this.#addressValidate(res, instance, query);
    else if (operation === "rates") this.#rates(res, instance, asObject(body));
    else if (operation === "shipments") this.#createShipment(res, instance, asObject(body), url);
    else if (operation === "pickups") this.#createPickup(res, instance, asObject(body));
    else if (operation === "pickup-cancel") this.#cancelPickup(res, instance, path.split("/")[2] ?? "", query);
    else this.#tracking(res, instance, path.split("/")[2] ?? "");
  }

  #authorized(header: string | undefined): boolean {
    const encoded = /^Basic (.+)$/.exec(header ?? "")?.[1];
    if (!encoded) return false;
    return Buffer.from(encoded, "base64").toString("utf8") === `${this.account.apiKey}:${this.account.apiSecret}`;
  }

  #addressValidate(res: http.ServerResponse, instance: string, query: URLSearchParams): void {
    const problems: string[] = [];
    const type = query.get("type");
    if (!type || !["pickup", "delivery"].includes(type)) problems.push("type must be one of pickup, delivery");
    const country = query.get("countryCode") ?? "";
    if (!/^[A-Z]{2}$/.test(country)) problems.push("countryCode must be a two-letter ISO country code");
    if (problems.length > 0) {
      send(res, 400, problem(instance, "Validation error", problems.join("; "), "400"));
      return;
    }
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
    const problems = [
      ...required(body, [
        "customerDetails.shipperDetails.postalCode",
        "customerDetails.shipperDetails.cityName",
        "customerDetails.shipperDetails.countryCode",
        "customerDetails.receiverDetails.postalCode",
        "customerDetails.receiverDetails.cityName",
        "customerDetails.receiverDetails.countryCode",
        "plannedShippingDateAndTime",
        "unitOfMeasurement",
        "isCustomsDeclarable",
        "packages",
      ]),
      ...this.#commonChecks(body, "packages"),
    ];
    const packages = arrayAt(body, "packages");
    if (packages.length === 0) problems.push("#/packages: expected minimum item count: 1");
    for (const [i, p] of packages.entries()) problems.push(...required(asObject(p), ["weight"], `packages/${i}/`));
    if (problems.length > 0) {
      send(res, 400, problem(instance, "Validation error", problems.join("; "), "400"));
      return;
    }
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
    const problems = [
      ...required(body, [
        "plannedShippingDateAndTime",
        "pickup.isRequested",
        "productCode",
        "accounts",
        "customerDetails.shipperDetails.postalAddress.postalCode",
        "customerDetails.shipperDetails.postalAddress.cityName",
        "customerDetails.shipperDetails.postalAddress.countryCode",
        "customerDetails.shipperDetails.postalAddress.addressLine1",
        "customerDetails.shipperDetails.contactInformation.phone",
        "customerDetails.shipperDetails.contactInformation.companyName",
        "customerDetails.shipperDetails.contactInformation.fullName",
        "customerDetails.receiverDetails.postalAddress.postalCode",
        "customerDetails.receiverDetails.postalAddress.cityName",
        "customerDetails.receiverDetails.postalAddress.countryCode",
        "customerDetails.receiverDetails.postalAddress.addressLine1",
        "customerDetails.receiverDetails.contactInformation.phone",
        "customerDetails.receiverDetails.contactInformation.companyName",
        "customerDetails.receiverDetails.contactInformation.fullName",
        "content.packages",
        "content.isCustomsDeclarable",
        "content.description",
        "content.incoterm",
        "content.unitOfMeasurement",
      ]),
      ...this.#commonChecks(body, "content.packages"),
    ];
    const content = asObject(body.content);
    const packages = arrayAt(body, "content.packages");
    if (packages.length === 0) problems.push("#/content/packages: expected minimum item count: 1");
    for (const [i, p] of packages.entries()) {
      problems.push(...required(asObject(p), ["weight"], `content/packages/${i}/`));
    }
    if (content.incoterm !== undefined && !INCOTERMS.includes(String(content.incoterm))) {
      problems.push(`#/content/incoterm: ${String(content.incoterm)} is not a valid enum value`);
    }
    if (typeof content.description === "string" && !/^[^\s]/.test(content.description)) {
      problems.push("#/content/description: string does not match pattern ^[^\\s]");
    }
    const encoding = valueAt(body, "outputImageProperties.encodingFormat");
    if (encoding !== undefined && !ENCODING_FORMATS.includes(String(encoding))) {
      problems.push(`#/outputImageProperties/encodingFormat: ${String(encoding)} is not a valid enum value`);
    }
    const declaration = asObject(content.exportDeclaration);
    if (content.isCustomsDeclarable === true && content.exportDeclaration === undefined) {
      problems.push("#/content/exportDeclaration: required for a customs declarable shipment");
    }
    const lineItemFields = [
      "number",
      "description",
      "price",
      "quantity.value",
      "quantity.unitOfMeasurement",
      "manufacturerCountry",
      "weight",
    ];
    for (const [i, item] of arrayAt(declaration, "lineItems").entries()) {
      problems.push(...required(asObject(item), lineItemFields, `content/exportDeclaration/lineItems/${i}/`));
    }
    if (content.exportDeclaration !== undefined && arrayAt(declaration, "lineItems").length === 0) {
      problems.push("#/content/exportDeclaration/lineItems: expected minimum item count: 1");
    }
    if (problems.length > 0) {
      send(res, 400, problem(instance, "Validation error", problems.join("; "), "400"));
      return;
    }
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
    const problems = [
      ...required(body, [
        "plannedPickupDateAndTime",
        "accounts",
        "customerDetails.shipperDetails.postalAddress.cityName",
        "customerDetails.shipperDetails.postalAddress.countryCode",
        "customerDetails.shipperDetails.postalAddress.postalCode",
        "customerDetails.shipperDetails.contactInformation.phone",
        "customerDetails.shipperDetails.contactInformation.companyName",
        "customerDetails.shipperDetails.contactInformation.fullName",
        "shipmentDetails",
      ]),
      ...this.#commonChecks(body, "none"),
    ];
    const planned = body.plannedPickupDateAndTime;
    if (planned !== undefined && !(typeof planned === "string" && PLANNED_TIME.test(planned))) {
      problems.push("#/plannedPickupDateAndTime: string does not match the date and time format");
    }
    const close = body.closeTime;
    if (close !== undefined && !(typeof close === "string" && /^([0-1][0-9]|2[0-3]):([0-5][0-9])$/.test(close))) {
      problems.push("#/closeTime: string does not match pattern ([0-1][0-9]|2[0-3]):([0-5][0-9])");
    }
    if (body.locationType !== undefined && !["business", "residence"].includes(String(body.locationType))) {
      problems.push("#/locationType: not a valid enum value");
    }
    const details = arrayAt(body, "shipmentDetails").map(asObject);
    if (body.shipmentDetails !== undefined && details.length === 0)
      problems.push("#/shipmentDetails: expected minimum item count: 1");
    details.forEach((detail, i) => {
      problems.push(
        ...required(
          detail,
          ["productCode", "isCustomsDeclarable", "unitOfMeasurement", "packages"],
          `shipmentDetails/${i}/`,
        ),
      );
      if (arrayAt(detail, "packages").length === 0)
        problems.push(`#/shipmentDetails/${i}/packages: expected minimum item count: 1`);
    });
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

  #cancelPickup(res: http.ServerResponse, instance: string, number: string, query: URLSearchParams): void {
    const missing = ["requestorName", "reason"].filter((name) => !query.get(name));
    if (missing.length > 0) {
      send(
        res,
        400,
        problem(instance, "Missing parameters", `Missing mandatory parameters: ${missing.join(", ")}`, "400"),
      );
      return;
    }
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

  /** Checks shared by rates and shipments: the planned time, units, accounts and packaging codes. */
  #commonChecks(body: Json, packagesPath: string): string[] {
    const problems: string[] = [];
    const planned = body.plannedShippingDateAndTime;
    if (planned !== undefined && !(typeof planned === "string" && PLANNED_TIME.test(planned))) {
      problems.push("#/plannedShippingDateAndTime: string does not match the date and time format");
    }
    const unit = valueAt(body, packagesPath === "packages" ? "unitOfMeasurement" : "content.unitOfMeasurement");
    if (unit !== undefined && unit !== "metric" && unit !== "imperial") {
      problems.push(`#/unitOfMeasurement: ${String(unit)} is not a valid enum value`);
    }
    for (const account of arrayAt(body, "accounts").map(asObject)) {
      if (!ACCOUNT_TYPES.includes(String(account.typeCode)))
        problems.push("#/accounts: typeCode is not a valid enum value");
      if (typeof account.number !== "string" || account.number.length > 12)
        problems.push("#/accounts: number must be a string of at most 12 characters");
    }
    for (const p of arrayAt(body, packagesPath).map(asObject)) {
      if (p.typeCode !== undefined && !PACKAGE_TYPES.includes(String(p.typeCode))) {
        problems.push(`#/${packagesPath.replace(".", "/")}: typeCode ${String(p.typeCode)} is not a valid enum value`);
      }
      if (typeof p.weight === "number" && p.weight < 0.001) problems.push("#/packages: weight must be at least 0.001");
    }
    return problems;
  }
}

function operationOf(method: string, path: string): DhlStandInOperation | undefined {
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

/** DHL's wording for a missing field: "#/customerDetails/shipperDetails: required key [countryCode] not found". */
export function required(body: Json, paths: readonly string[], prefix = ""): string[] {
  return paths.flatMap((path) => {
    const value = valueAt(body, path);
    // Postal codes may be empty (a country without them); other required strings may not.
    if (value !== undefined && value !== null && (value !== "" || path.endsWith("postalCode"))) return [];
    const keys = path.split(".");
    const key = keys.pop();
    return [`#/${prefix}${keys.join("/")}: required key [${key}] not found`];
  });
}
