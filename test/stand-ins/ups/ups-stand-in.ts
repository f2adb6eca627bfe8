import type http from "node:http";
import bwipjs from "bwip-js";
import sharp from "sharp";
import { findService } from "../../../src/carriers/registry.js";
import { commercialInvoice } from "../../../src/carriers/ups/api/ups-customs.js";
import { upsParty, withAttention } from "../../../src/carriers/ups/api/ups-products.js";
import { shipRequest } from "../../../src/carriers/ups/api/ups-shipping.js";
import { generateTrackingNumber } from "../../../src/carriers/ups/tracking-number.js";
import {
  carrierSpecsAvailable,
  publishedContract,
  type SentRequest,
  type Violation,
} from "../../contracts/published-specs.js";
import { upsProseViolations, upsSpecExcused } from "../../contracts/ups-rules.js";
import { OAuthCarrierStandIn, parseRequestBody, sendJson } from "../stand-in-server.js";

/**
 * A local UPS of ours, written from UPS's published OpenAPI specs: OAuth client credentials
 * (`POST /security/v1/oauth/token`, HTTP Basic, form body), Rating (`POST /api/rating/{version}/
 * {requestoption}`), Shipping and Void (`POST /api/shipments/{version}/ship`, `DELETE /api/
 * shipments/{version}/void/cancel/{id}`), Tracking (`GET /api/track/v1/details/{inquiryNumber}`)
 * Address Validation (`POST /api/addressvalidation/{version}/{requestoption}`) and Pickup
 * (`POST /api/pickupcreation/{version}/pickup`, `DELETE /api/shipments/{version}/pickup/{CancelBy}`
 * with the PRN in a `Prn` header). Paths with
 * their version segment, bearer auth, the spec's required request fields, and UPS's error body
 * `{response:{errors:[{code,message}]}}`. Its prices are its own deterministic table, not UPS's.
 * It can be told to fail the next calls.
 */

/** Shipments as the adapter sends them, domestic and abroad, checked once to warm the validator up. */
function warmUpShipments(): unknown[] {
  const party = {
    first_name: "A",
    last_name: "B",
    company: "C",
    address1: "1 Main St",
    address2: "Unit 2",
    city: "Los Angeles",
    state: "CA",
    country: "US",
    postal_code: "90035",
    phone: "3105550100",
    email: "a@example.com",
  };
  const parcel = {
    lengthIn: 10,
    widthIn: 8,
    heightIn: 4,
    weightOz: 40,
    packageType: "parcel",
    reference: "R",
    description: "D",
  };
  const item = { description: "T", quantity: 1, valueCents: 100, hsTariffCode: "610910", countryOfOrigin: "US" };
  const forms = commercialInvoice(
    [item as never],
    withAttention(upsParty(party)),
    { number: "1", date: "2026-01-01" },
    "US",
  );
  return (["GIF", "ZPL", "EPL"] as const).flatMap((format) =>
    [party, { ...party, country: "CA", state: "ON", postal_code: "M5H 2N2" }].map((to) =>
      shipRequest({
        shipperNumber: "A1B2C3",
        service: findService(666)!,
        from: party,
        to,
        residential: true,
        parcels: [parcel, parcel],
        label: { format, size: "4x6" },
        shipDate: "2026-01-01",
        purchaseKey: "warm-up",
        ...(to.country !== "US" && "forms" in forms ? { customs: forms } : {}),
      }),
    ),
  );
}

/**
 * UPS's published specs of the APIs Porter calls (relative to the carrier specs folder). Where
 * Pickup.yaml's Pickup Creation schema refuses what its own examples send, `upsSpecExcused` lets the
 * limit pass and a prose rule checks what the spec means instead.
 */
export const UPS_SPEC_FILES = [
  "ups/OAuthClientCredentials.yaml",
  "ups/Rating.yaml",
  "ups/Shipping.yaml",
  "ups/Tracking.yaml",
  "ups/AddressValidation.yaml",
  "ups/Pickup.yaml",
] as const;

/**
 * `unlabelled`: a shipment sold, answered without its packages (their tracking numbers and labels).
 * `sold-then-503`: a shipment sold, answered 503 as a UPS failing after the sale would.
 */
export type StandInFault = "401" | "429" | "500" | "503" | "timeout" | "malformed" | "unlabelled" | "sold-then-503";
export type UpsOperation = "token" | "rating" | "ship" | "void" | "track" | "xav" | "pickup" | "pickupCancel";

export interface StandInAccount {
  clientId: string;
  clientSecret: string;
  shipperNumber: string;
}

interface Recorded {
  method: string;
  path: string;
  operation: UpsOperation | undefined;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

interface Activity {
  type: string;
  statusCode: string;
  description: string;
  at: Date;
  city: string;
}

interface StoredShipment {
  id: string;
  trackingNumbers: string[];
  voided: boolean;
}

const VERSIONS: Record<string, readonly string[]> = {
  rating: ["v2409", "v1"],
  ship: ["v2409", "v1"],
  void: ["v2409", "v1"],
  xav: ["v2", "v1"],
  pickup: ["v2409", "v1"],
  pickupCancel: ["v2409", "v1"],
};
const RATE_OPTIONS = ["rate", "shop", "ratetimeintransit", "shoptimeintransit"];
const LABEL_FORMATS = ["GIF", "ZPL", "EPL", "SPL"];

/** The stand-in's own prices: a start price and a price per pound, per UPS service code, in cents. */
const PRICES: Record<string, { name: string; start: number; perPound: number; days: number | null }> = {
  "03": { name: "UPS Ground", start: 900, perPound: 110, days: null },
  "12": { name: "UPS 3 Day Select", start: 2200, perPound: 260, days: 3 },
  "02": { name: "UPS 2nd Day Air", start: 2600, perPound: 320, days: 2 },
  "59": { name: "UPS 2nd Day Air A.M.", start: 2950, perPound: 350, days: 2 },
  "13": { name: "UPS Next Day Air Saver", start: 5400, perPound: 520, days: 1 },
  "01": { name: "UPS Next Day Air", start: 5900, perPound: 560, days: 1 },
  "14": { name: "UPS Next Day Air Early", start: 9100, perPound: 560, days: 1 },
  "07": { name: "UPS Worldwide Express", start: 7000, perPound: 700, days: 2 },
  "54": { name: "UPS Worldwide Express Plus", start: 11500, perPound: 700, days: 1 },
  "65": { name: "UPS Worldwide Saver", start: 6600, perPound: 660, days: 2 },
  "08": { name: "UPS Worldwide Expedited", start: 5900, perPound: 590, days: 4 },
  "11": { name: "UPS Standard", start: 2100, perPound: 160, days: null },
};
const DOMESTIC = ["03", "12", "02", "59", "13", "01", "14"];
const INTERNATIONAL = ["07", "54", "65", "08"];
/** Fuel on transportation charges, in basis points. */
const FUEL_BP = 1800;
const RESIDENTIAL_CENTS = 575;

/** A pickup UPS booked, by its pickup request number. */
export interface StandInPickup {
  request: Record<string, unknown>;
  cancelled: boolean;
}

export class UpsStandIn extends OAuthCarrierStandIn<StandInFault, UpsOperation> {
  /** Every shipment sold, by its shipment identification number (its first 1Z). */
  readonly shipments = new Map<string, StoredShipment>();
  readonly #activities = new Map<string, Activity[]>();
  #serial = 4_000_000;
  /** Every request received, in order. */
  readonly requests: Recorded[] = [];
  /** The stand-in's time for the activities it records; tests running on a manual clock pass theirs. */
  now: () => Date = () => new Date();
  /** Pickups it booked, by PRN. */
  readonly pickups = new Map<string, StandInPickup>();
  /** The least time UPS needs between a pickup's ready and close times ("LeadTime"), in minutes. */
  pickupLeadMinutes = 60;
  /** Seconds each token lives, as `expires_in` says. */
  tokenLifetimeSeconds = 14_399;
  /** The `Retry-After` its 429 and 503 answers carry, in seconds. */
  retryAfterSeconds = 0;

  protected override readonly specFiles = UPS_SPEC_FILES;

  constructor(readonly account: StandInAccount) {
    super();
  }

  /**
   * The first check against the Shipping schema takes far longer than the next ones (the validator
   * warms up), longer than the tests' call timeout with the label drawn too: it is run once here.
   */
  override async start(): Promise<this> {
    await super.start();
    if (carrierSpecsAvailable()) {
      const contract = await publishedContract(this.specFiles, this.specPrefixes);
      for (const shipment of warmUpShipments()) {
        contract.check({
          method: "POST",
          url: "/api/shipments/v2409/ship",
          headers: {},
          body: JSON.stringify(shipment),
        });
      }
    }
    return this;
  }

  /** Limits UPS's specs contradict themselves (each cited in `upsSpecExcused`), not refused. */
  protected override excused(violation: Violation): boolean {
    return upsSpecExcused(violation);
  }

  /** A request UPS's published operation does not allow: UPS's own 400 body, each violation in words. */
  protected override refuseNonConforming(res: http.ServerResponse, violations: readonly Violation[]): void {
    sendJson(res, 400, {
      response: { errors: violations.map((v) => ({ code: "120100", message: `${v.where} ${v.message}` })) },
    });
  }

  callsTo(operation: UpsOperation): number {
    return this.requests.filter((r) => r.operation === operation).length;
  }

  lastRequest(operation: UpsOperation): Recorded | undefined {
    return this.requests.findLast((r) => r.operation === operation);
  }

  /** Whether UPS holds the shipment of this tracking number as voided. */
  isVoided(trackingNumber: string): boolean {
    return [...this.shipments.values()].some((s) => s.voided && s.trackingNumbers.includes(trackingNumber));
  }

  /** Scans a package: pickup, a hub, out for delivery and delivery, `hours` apart after `from`. */
  deliver(trackingNumber: string, from: Date, hours = 6): void {
    const steps: Omit<Activity, "at">[] = [
      { type: "P", statusCode: "038", description: "Pickup Scan", city: "LOS ANGELES" },
      { type: "I", statusCode: "005", description: "Arrived at Facility", city: "ONTARIO" },
      { type: "I", statusCode: "021", description: "Out For Delivery Today", city: "SALT LAKE CITY" },
      { type: "D", statusCode: "011", description: "DELIVERED", city: "SALT LAKE CITY" },
    ];
    const known = this.#activities.get(trackingNumber) ?? [];
    steps.forEach((step, i) => {
      known.push({ ...step, at: new Date(from.getTime() + (i + 1) * hours * 3_600_000) });
    });
    this.#activities.set(trackingNumber, known);
  }

  protected override proseViolations(request: SentRequest): Violation[] {
    return upsProseViolations(request);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const path = url.pathname;
    const route = routeOf(req.method ?? "GET", path);
    const body = parseRequestBody(raw, req.headers["content-type"]);
    this.requests.push({
      method: req.method ?? "GET",
      path,
      operation: route?.operation,
      query: url.searchParams,
      headers: req.headers,
      body,
    });
    const fault = this.faults.take(route?.operation);
    if (this.answeredAsFault(fault, res, route?.operation === "token" ? '{"token_type":' : "{}")) return;
    if (fault === "429" || fault === "503") {
      sendJson(
        res,
        Number(fault),
        upsError(fault === "429" ? "10429" : "10503", fault === "429" ? "Too Many Requests" : "Service Unavailable"),
        { "retry-after": String(this.retryAfterSeconds) },
      );
      return;
    }
    if (fault === "500") {
      sendJson(res, 500, upsError("10500", "Internal Server Error"));
      return;
    }
    if (!route) {
      sendJson(res, 404, upsError("10404", `No such resource: ${req.method} ${path}`));
      return;
    }
    if (route.operation === "token") {
      this.#token(req, res, body, fault === "401");
      return;
    }
    const version = route.params.version;
    if (version !== undefined && !VERSIONS[route.operation]?.includes(version)) {
      sendJson(res, 400, upsError("250002", `Invalid version: ${version}`));
      return;
    }
    if (fault === "401" || !this.bearerGranted(req)) {
      sendJson(res, 401, upsError("250002", "Invalid Authentication Information."));
      return;
    }
    const handlers: Record<Exclude<UpsOperation, "token">, () => void> = {
      rating: () => this.#rate(res, route.params.option ?? "", body),
      ship: () => void this.#ship(res, body, fault),
      void: () => this.#void(res, route.params.id ?? ""),
      track: () => this.#track(req, res, route.params.id ?? ""),
      xav: () => this.#xav(res, route.params.option ?? "", body),
      pickup: () => this.#pickup(res, body),
      pickupCancel: () => this.#pickupCancel(req, res, route.params.cancelBy ?? ""),
    };
    handlers[route.operation]();
  }

  #token(req: http.IncomingMessage, res: http.ServerResponse, body: unknown, refuse: boolean): void {
    if (req.method !== "POST" || !req.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")) {
      sendJson(res, 400, upsError("10400", "The request must be a form-encoded POST."));
      return;
    }
    const grant = (body ?? {}) as Record<string, unknown>;
    if (grant.grant_type !== "client_credentials") {
      sendJson(res, 400, upsError("10400", "Invalid/Missing grant_type"));
      return;
    }
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [id, secret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [];
    if (refuse || id !== this.account.clientId || secret !== this.account.clientSecret) {
      sendJson(res, 401, upsError("10401", "ClientId is Invalid"));
      return;
    }
    const token = this.grantToken(16, "hex");
    sendJson(res, 200, {
      token_type: "Bearer",
      issued_at: String(Date.now()),
      client_id: this.account.clientId,
      access_token: token,
      scope: "",
      expires_in: String(this.tokenLifetimeSeconds),
      refresh_count: "0",
      status: "approved",
    });
  }

  #rate(res: http.ServerResponse, option: string, body: unknown): void {
    if (!RATE_OPTIONS.includes(option.toLowerCase())) {
      sendJson(res, 400, upsError("111500", `Invalid request option: ${option}`));
      return;
    }
    const shipment = at(body, "RateRequest", "Shipment");
    // Required fields, lengths and formats were checked against Rating.yaml before this runs;
    // what follows are the rules the spec states only in prose.
    const problems: string[] = [];
    const shop = option.toLowerCase().startsWith("shop");
    const asked = at(shipment, "Service", "Code");
    if (!shop && typeof asked !== "string") problems.push("Shipment.Service.Code is required for Rate.");
    const timeInTransit = option.toLowerCase().endsWith("timeintransit");
    const pickupDate = at(shipment, "DeliveryTimeInformation", "Pickup", "Date");
    if (timeInTransit) {
      if (typeof at(shipment, "DeliveryTimeInformation", "PackageBillType") !== "string") {
        problems.push("DeliveryTimeInformation.PackageBillType is required for time in transit.");
      }
      if (typeof pickupDate !== "string" || !/^\d{8}$/.test(pickupDate)) {
        problems.push("DeliveryTimeInformation.Pickup.Date (YYYYMMDD) is required for time in transit.");
      }
      if (typeof at(shipment, "ShipmentTotalWeight", "Weight") !== "string") {
        problems.push("ShipmentTotalWeight is required for time in transit.");
      }
    }
    if (problems.length > 0) {
      sendJson(res, 400, upsError("111100", problems.join(" ")));
      return;
    }
    const from = at(shipment, "ShipFrom", "Address") ?? at(shipment, "Shipper", "Address");
    const to = at(shipment, "ShipTo", "Address");
    const toCountry = String(at(to, "CountryCode")).toUpperCase();
    const domestic = String(at(from, "CountryCode")).toUpperCase() === toCountry;
    const offered = domestic ? DOMESTIC : [...INTERNATIONAL, ...(["CA", "MX"].includes(toCountry) ? ["11"] : [])];
    const codes = shop ? offered : offered.filter((c) => c === asked);
    if (codes.length === 0) {
      sendJson(res, 400, upsError("111210", "The requested service is unavailable between the selected locations."));
      return;
    }
    const packages = at(shipment, "Package") as Record<string, unknown>[];
    const zone = standInZone(from, to);
    const residential = at(to, "ResidentialAddressIndicator") !== undefined;
    const rated = codes.map((code) => ({
      ...this.#price(code, packages, zone, residential),
      ...(timeInTransit ? { TimeInTransit: transitOf(code, zone, String(pickupDate)) } : {}),
    }));
    sendJson(res, 200, {
      RateResponse: {
        Response: {
          ResponseStatus: { Code: "1", Description: "Success" },
          Alert: [{ Code: "110971", Description: "Your invoice may vary from the displayed reference rates" }],
        },
        RatedShipment: rated,
      },
    });
  }

  #price(code: string, packages: Record<string, unknown>[], zone: string | null, residential: boolean) {
    const price = PRICES[code]!;
    const zoneCents = zone ? Number(zone) * 40 : 1500;
    const perPackage = packages.map((p) => {
      const pounds = Math.max(1, Math.ceil(Number(at(p, "PackageWeight", "Weight"))));
      const transport = price.start + price.perPound * (pounds - 1) + zoneCents;
      const fuel = Math.round((transport * FUEL_BP) / 10_000);
      return { pounds, transport, fuel };
    });
    const residentialCents = residential && DOMESTIC.includes(code) ? RESIDENTIAL_CENTS : 0;
    const transport = perPackage.reduce((s, p) => s + p.transport + p.fuel, 0) + residentialCents;
    const pounds = perPackage.reduce((s, p) => s + p.pounds, 0);
    return {
      Service: { Code: code, Description: "" },
      ...(zone ? { Zone: zone } : {}),
      RatedShipmentAlert: [{ Code: "110971", Description: "Your invoice may vary from the displayed reference rates" }],
      BillingWeight: { UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: String(pounds) },
      TransportationCharges: money(transport),
      BaseServiceCharge: money(transport - perPackage.reduce((s, p) => s + p.fuel, 0)),
      ItemizedCharges:
        residentialCents > 0 ? [{ Code: "270", Description: "RESIDENTIAL ADDRESS", ...money(residentialCents) }] : [],
      ServiceOptionsCharges: money(0),
      TotalCharges: money(transport),
      ...(price.days ? { GuaranteedDelivery: { BusinessDaysInTransit: String(price.days) } } : {}),
      RatedPackage: perPackage.map((p) => ({
        TransportationCharges: money(p.transport + p.fuel),
        ServiceOptionsCharges: money(0),
        TotalCharges: money(p.transport + p.fuel),
        Weight: String(p.pounds),
        BillingWeight: { UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: String(p.pounds) },
        ItemizedCharges: [{ Code: "375", Description: "FUEL SURCHARGE", ...money(p.fuel) }],
      })),
    };
  }

  async #ship(res: http.ServerResponse, body: unknown, fault: StandInFault | undefined): Promise<void> {
    const request = at(body, "ShipmentRequest");
    const shipment = at(request, "Shipment");
    const format = at(request, "LabelSpecification", "LabelImageFormat", "Code");
    // Required fields, lengths and formats were checked against Shipping.yaml before this runs;
    // what follows are the rules the spec states only in prose.
    const problems: string[] = [];
    const charge = at(shipment, "PaymentInformation", "ShipmentCharge");
    const firstCharge = Array.isArray(charge) ? charge[0] : charge;
    if (at(firstCharge, "Type") !== "01") problems.push("PaymentInformation.ShipmentCharge.Type 01 is required.");
    if (typeof format !== "string" || !LABEL_FORMATS.includes(format)) {
      problems.push(`LabelSpecification.LabelImageFormat.Code must be one of ${LABEL_FORMATS.join(", ")}.`);
    } else if (format !== "GIF" && at(request, "LabelSpecification", "LabelStockSize", "Height") === undefined) {
      problems.push("LabelSpecification.LabelStockSize is required for EPL, ZPL and SPL labels.");
    }
    const abroad =
      at(shipment, "Shipper", "Address", "CountryCode") !== at(shipment, "ShipTo", "Address", "CountryCode");
    const formTypes = at(shipment, "ShipmentServiceOptions", "InternationalForms", "FormType");
    if (abroad && !(Array.isArray(formTypes) && formTypes.includes("01"))) {
      problems.push("InternationalForms with FormType 01 (Invoice) is required abroad.");
    }
    if (problems.length > 0) {
      sendJson(res, 400, upsError("120100", problems.join(" ")));
      return;
    }
    if (at(shipment, "Shipper", "ShipperNumber") !== this.account.shipperNumber) {
      sendJson(res, 400, upsError("120100", "Missing or invalid shipper number"));
      return;
    }
    const billed = at(firstCharge, "BillShipper", "AccountNumber");
    if (billed !== this.account.shipperNumber) {
      sendJson(
        res,
        400,
        upsError("120412", "The shipper's account number must match the bill shipper account number."),
      );
      return;
    }
    const code = String(at(shipment, "Service", "Code"));
    if (!PRICES[code]) {
      sendJson(res, 400, upsError("121210", "The requested service is unavailable between the selected locations."));
      return;
    }
    const packages = at(shipment, "Package") as Record<string, unknown>[];
    const trackingNumbers = packages.map(() =>
      generateTrackingNumber(this.#serial++, { shipperAccount: this.account.shipperNumber, serviceCode: code }),
    );
    const id = trackingNumbers[0]!;
    this.shipments.set(id, { id, trackingNumbers, voided: false });
    const now = this.now();
    for (const number of trackingNumbers) {
      this.#activities.set(number, [
        {
          type: "M",
          statusCode: "003",
          description: "Shipper created a label, UPS has not received the package yet.",
          at: now,
          city: "",
        },
      ]);
    }
    const from = at(shipment, "ShipFrom", "Address") ?? at(shipment, "Shipper", "Address");
    const to = at(shipment, "ShipTo", "Address");
    const priced = this.#price(
      code,
      packages,
      standInZone(from, to),
      at(to, "ResidentialAddressIndicator") !== undefined,
    );
    if (fault === "sold-then-503") {
      sendJson(res, 503, upsError("10503", "Service Unavailable"), { "retry-after": String(this.retryAfterSeconds) });
      return;
    }
    const images = await Promise.all(trackingNumbers.map((number) => labelImage(String(format), number)));
    sendJson(res, 200, {
      ShipmentResponse: {
        Response: { ResponseStatus: { Code: "1", Description: "Success" } },
        ShipmentResults: {
          ShipmentCharges: {
            TransportationCharges: priced.TransportationCharges,
            ItemizedCharges: priced.ItemizedCharges,
            ServiceOptionsCharges: priced.ServiceOptionsCharges,
            TotalCharges: priced.TotalCharges,
          },
          BillingWeight: {
            UnitOfMeasurement: { Code: "LBS", Description: "Pounds" },
            Weight: priced.BillingWeight.Weight.padStart(8, "0"),
          },
          ShipmentIdentificationNumber: id,
          ...(abroad
            ? {
                Form: {
                  Code: "01",
                  Description: "Invoice",
                  Image: {
                    ImageFormat: { Code: "PDF", Description: "PDF" },
                    GraphicImage: Buffer.from(`%PDF-1.4\n% UPS commercial invoice ${id}\n%%EOF\n`).toString("base64"),
                  },
                },
              }
            : {}),
          PackageResults: (fault === "unlabelled" ? [] : trackingNumbers).map((number, i) => ({
            TrackingNumber: number,
            ServiceOptionsCharges: money(0),
            ShippingLabel: {
              ImageFormat: { Code: format, Description: format },
              GraphicImage: images[i]!.toString("base64"),
            },
            ItemizedCharges: priced.RatedPackage[i]!.ItemizedCharges,
          })),
        },
      },
    });
  }

  #void(res: http.ServerResponse, id: string): void {
    const shipment = this.shipments.get(id);
    if (!/^1Z[0-9A-Z]{16}$/.test(id) || !shipment) {
      sendJson(res, 400, upsError("190117", "Invalid Shipment Identification Number"));
      return;
    }
    shipment.voided = true;
    sendJson(res, 200, {
      VoidShipmentResponse: {
        Response: { ResponseStatus: { Code: "1", Description: "Success" } },
        SummaryResult: { Status: { Code: "1", Description: "Voided" } },
        PackageLevelResults: shipment.trackingNumbers.map((number) => ({
          TrackingNumber: number,
          Status: { Code: "1", Description: "Voided" },
        })),
      },
    });
  }

  #track(req: http.IncomingMessage, res: http.ServerResponse, number: string): void {
    if (!req.headers.transid || !req.headers.transactionsrc) {
      sendJson(res, 400, upsError("TW0003", "transId and transactionSrc headers are required."));
      return;
    }
    const activities = this.#activities.get(number);
    if (!activities) {
      sendJson(res, 404, upsError("TW0001", "Tracking Information Not Found"));
      return;
    }
    const newestFirst = [...activities].sort((a, b) => b.at.getTime() - a.at.getTime());
    const scheduled = new Date(activities[0]!.at.getTime() + 3 * 86_400_000);
    sendJson(res, 200, {
      trackResponse: {
        shipment: [
          {
            inquiryNumber: number,
            package: [
              {
                trackingNumber: number,
                deliveryDate: [{ type: "SDD", date: ymd(scheduled) }],
                activity: newestFirst.map((a) => ({
                  location: {
                    address: { city: a.city, stateProvince: a.city ? "UT" : "", countryCode: "US", country: "US" },
                  },
                  status: { type: a.type, description: a.description, code: a.type, statusCode: a.statusCode },
                  date: ymd(a.at),
                  time: a.at.toISOString().slice(11, 19).replace(/:/g, ""),
                  gmtDate: ymd(a.at),
                  gmtOffset: "+00:00",
                  gmtTime: a.at.toISOString().slice(11, 19),
                })),
                currentStatus: { code: newestFirst[0]!.type, description: newestFirst[0]!.description },
              },
            ],
          },
        ],
      },
    });
  }

  #pickup(res: http.ServerResponse, body: unknown): void {
    // Its fields, their lengths and formats were checked against Pickup.yaml and its prose rules.
    const request = at(body, "PickupCreationRequest");
    const account = at(request, "Shipper", "Account", "AccountNumber");
    if (account !== this.account.shipperNumber) {
      sendJson(res, 400, upsError("9510111", "Invalid Shipper Account Number."));
      return;
    }
    const ready = minutesOf(String(at(request, "PickupDateInfo", "ReadyTime")));
    const close = minutesOf(String(at(request, "PickupDateInfo", "CloseTime")));
    if (close - ready < this.pickupLeadMinutes) {
      sendJson(
        res,
        400,
        upsError(
          "9510113",
          "The pickup close time must be later than the ready time by the lead time UPS requires for this address.",
        ),
      );
      return;
    }
    const prn = `2929${String(this.#serial++).padStart(7, "0")}`;
    this.pickups.set(prn, { request: request as Record<string, unknown>, cancelled: false });
    sendJson(res, 200, {
      PickupCreationResponse: {
        Response: { ResponseStatus: { Code: "1", Description: "Success" } },
        PRN: prn,
        RateStatus: { Code: "01", Description: "Rate not available" },
      },
    });
  }

  #pickupCancel(req: http.IncomingMessage, res: http.ServerResponse, cancelBy: string): void {
    if (cancelBy !== "02") {
      sendJson(res, 400, upsError("9510101", `Invalid CancelBy: ${cancelBy}; Porter cancels by PRN (02).`));
      return;
    }
    const prn = req.headers.prn;
    const pickup = typeof prn === "string" ? this.pickups.get(prn) : undefined;
    if (!pickup || pickup.cancelled) {
      sendJson(res, 400, upsError("9510151", "No pickup request found for the given PRN, or it is already cancelled."));
      return;
    }
    pickup.cancelled = true;
    sendJson(res, 200, {
      PickupCancelResponse: {
        Response: { ResponseStatus: { Code: "1", Description: "Success" } },
        PickupType: "01",
      },
    });
  }

  #xav(res: http.ServerResponse, option: string, body: unknown): void {
    if (!["1", "2", "3"].includes(option)) {
      sendJson(res, 400, upsError("264002", `Invalid request option: ${option}`));
      return;
    }
    const key = at(body, "XAVRequest", "AddressKeyFormat") as Record<string, unknown> | undefined;
    if (!key || typeof key.CountryCode !== "string" || key.CountryCode.length !== 2) {
      sendJson(res, 400, upsError("264003", "XAVRequest.AddressKeyFormat.CountryCode is required."));
      return;
    }
    const lines = (Array.isArray(key.AddressLine) ? key.AddressLine : [key.AddressLine]).filter(Boolean).map(String);
    const status = { ResponseStatus: { Code: "1", Description: "Success" } };
    if (lines.some((l) => /nowhere/i.test(l))) {
      sendJson(res, 200, { XAVResponse: { Response: status, NoCandidatesIndicator: "" } });
      return;
    }
    const commercial =
      lines.some((l) => /\b(suite|ste)\b/i.test(l)) ||
      Boolean(key.ConsigneeName && /inc|llc|co\b/i.test(String(key.ConsigneeName)));
    const classification = commercial
      ? { Code: "1", Description: "Commercial" }
      : { Code: "2", Description: "Residential" };
    sendJson(res, 200, {
      XAVResponse: {
        Response: status,
        ValidAddressIndicator: "",
        AddressClassification: classification,
        Candidate: [
          {
            AddressClassification: classification,
            AddressKeyFormat: {
              AddressLine: lines.map((l) =>
                l
                  .toUpperCase()
                  .replace(/\bSTREET\b/, "ST")
                  .replace(/\bSUITE\b/, "STE"),
              ),
              PoliticalDivision2: String(key.PoliticalDivision2 ?? "").toUpperCase(),
              PoliticalDivision1: String(key.PoliticalDivision1 ?? "").toUpperCase(),
              PostcodePrimaryLow: key.PostcodePrimaryLow,
              PostcodeExtendedLow: key.PostcodeExtendedLow ?? "1234",
              CountryCode: key.CountryCode,
            },
          },
        ],
      },
    });
  }
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2, 4));

function routeOf(
  method: string,
  path: string,
): { operation: UpsOperation; params: Record<string, string> } | undefined {
  const patterns: [string, RegExp, UpsOperation, string[]][] = [
    ["POST", /^\/security\/v1\/oauth\/token$/, "token", []],
    ["POST", /^\/api\/rating\/([^/]+)\/([^/]+)$/, "rating", ["version", "option"]],
    ["POST", /^\/api\/shipments\/([^/]+)\/ship$/, "ship", ["version"]],
    ["DELETE", /^\/api\/shipments\/([^/]+)\/void\/cancel\/([^/]+)$/, "void", ["version", "id"]],
    ["GET", /^\/api\/track\/v1\/details\/([^/]+)$/, "track", ["id"]],
    ["POST", /^\/api\/addressvalidation\/([^/]+)\/([^/]+)$/, "xav", ["version", "option"]],
    ["POST", /^\/api\/pickupcreation\/([^/]+)\/pickup$/, "pickup", ["version"]],
    ["DELETE", /^\/api\/shipments\/([^/]+)\/pickup\/([^/]+)$/, "pickupCancel", ["version", "cancelBy"]],
  ];
  for (const [wanted, pattern, operation, names] of patterns) {
    const match = pattern.exec(path);
    if (!match || (method !== wanted && operation !== "token")) continue;
    return { operation, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)])) };
  }
  return undefined;
}

/** The value at a path of containers, or undefined. */
function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The stand-in's transit: the service's days, Ground and Standard one day per zone past the first (5 abroad), weekends skipped. */
function transitOf(code: string, zone: string | null, pickup: string) {
  const days = PRICES[code]?.days ?? (zone ? Math.max(1, Number(zone) - 1) : 5);
  const date = new Date(`${pickup.slice(0, 4)}-${pickup.slice(4, 6)}-${pickup.slice(6, 8)}T12:00:00Z`);
  for (let left = days; left > 0; ) {
    date.setUTCDate(date.getUTCDate() + 1);
    if (date.getUTCDay() !== 0 && date.getUTCDay() !== 6) left -= 1;
  }
  return {
    PickupDate: pickup,
    PackageBillType: "03",
    ServiceSummary: {
      Service: { Description: PRICES[code]?.name },
      EstimatedArrival: {
        Arrival: { Date: ymd(date), Time: "230000" },
        BusinessDaysInTransit: String(days),
        Pickup: { Date: pickup, Time: "170000" },
        DayOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"][date.getUTCDay()],
      },
    },
  };
}

/** The stand-in's zone at home ("002" to "008"): how far apart the postal codes' first digits are; null abroad. */
function standInZone(from: unknown, to: unknown): string | null {
  if (String(at(from, "CountryCode")) !== String(at(to, "CountryCode"))) return null;
  const apart = Math.abs(digit(at(from, "PostalCode")) - digit(at(to, "PostalCode")));
  return String(Math.min(8, 2 + apart)).padStart(3, "0");
}

function digit(postal: unknown): number {
  const first = Number(String(postal ?? "0")[0]);
  return Number.isFinite(first) ? first : 0;
}

function money(cents: number) {
  return { CurrencyCode: "USD", MonetaryValue: (cents / 100).toFixed(2) };
}

function ymd(date: Date): string {
  return date.toISOString().slice(0, 10).replace(/-/g, "");
}

/**
 * The stand-in's label: a printer program naming the tracking number, or a GIF of a 6 × 4 in
 * landscape raster (as UPS lays its image labels on their side) whose Code 128 of the tracking
 * number reads bottom to top.
 */
async function labelImage(format: string, trackingNumber: string): Promise<Buffer> {
  if (format === "ZPL") return Buffer.from(`^XA^FO50,50^BCN,120,Y,N,N^FD${trackingNumber}^FS^XZ`);
  if (format === "EPL") return Buffer.from(`N\nB50,50,0,1,3,6,120,B,"${trackingNumber}"\nP1\n`);
  if (format === "SPL") return Buffer.from(`SPL ${trackingNumber}`);
  const barcode = await bwipjs.toBuffer({ bcid: "code128", text: trackingNumber, scale: 2, height: 20, rotate: "L" });
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: "#ffffff" } })
    .composite([{ input: barcode, left: 200, top: 100 }])
    .gif({ colours: 2 })
    .toBuffer();
}

function upsError(code: string, message: string) {
  return { response: { errors: [{ code, message }] } };
}
