import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { FedexTokenResponse } from "../../../src/carriers/fedex/api/fedex-wire.js";
import { fedex12CheckDigit } from "../../../src/carriers/sandbox/check-digits.js";
import type { Violation } from "../../contracts/published-specs.js";
import { OAuthCarrierStandIn, parseRequestBody, sendJson, standInPdf } from "../stand-in-server.js";

/**
 * A local FedEx REST API of ours, written from FedEx's published specs: API Authorization
 * `POST /oauth/token`, Rate `POST /rate/v1/rates/quotes`, Ship `POST /ship/v1/shipments` and
 * `PUT /ship/v1/shipments/cancel`, Track `POST /track/v1/trackingnumbers`, Address Validation
 * `POST /address/v1/addresses/resolve`, Ground end-of-day close `PUT /ship/v1/endofday/` and
 * Pickup (`POST /pickup/v1/pickups/availabilities`, `POST /pickup/v1/pickups`, `PUT
 * /pickup/v1/pickups/cancel`),
 * with their paths and bearer auth; every request is held to FedEx's published specs (what they
 * state only in prose is checked here), and refused in FedEx's error
 * body (`transactionId`, `errors[{code, message}]`). Prices, transit times and tracking scans are
 * its own deterministic inventions, not FedEx's. It can be told to fail the next calls.
 */

/**
 * "503-processed" does the work (a label is made) and then answers 503, as when FedEx's gateway
 * gives up on a call its back end completed.
 */
export type StandInFault = "401" | "429" | "500" | "503" | "503-processed" | "timeout" | "malformed";
export type StandInOperation =
  | "token"
  | "rate"
  | "ship"
  | "cancel"
  | "track"
  | "address"
  | "close"
  | "pickupAvailability"
  | "pickup"
  | "pickupCancel";

export interface StandInAccount {
  clientId: string;
  clientSecret: string;
  accountNumber: string;
}

const PATHS: Record<StandInOperation, string> = {
  token: "/oauth/token",
  rate: "/rate/v1/rates/quotes",
  ship: "/ship/v1/shipments",
  cancel: "/ship/v1/shipments/cancel",
  track: "/track/v1/trackingnumbers",
  address: "/address/v1/addresses/resolve",
  close: "/ship/v1/endofday/",
  pickupAvailability: "/pickup/v1/pickups/availabilities",
  pickup: "/pickup/v1/pickups",
  pickupCancel: "/pickup/v1/pickups/cancel",
};
const METHODS: Record<StandInOperation, string> = {
  token: "POST",
  rate: "POST",
  ship: "POST",
  cancel: "PUT",
  track: "POST",
  address: "POST",
  close: "PUT",
  pickupAvailability: "POST",
  pickup: "POST",
  pickupCancel: "PUT",
};

const PICKUP_TYPES = ["CONTACT_FEDEX_TO_SCHEDULE", "DROPOFF_AT_FEDEX_LOCATION", "USE_SCHEDULED_PICKUP"];
const PAYMENT_TYPES = ["SENDER", "RECIPIENT", "THIRD_PARTY", "COLLECT"];
const SHIPMENT_PURPOSES = ["GIFT", "NOT_SOLD", "PERSONAL_EFFECTS", "REPAIR_AND_RETURN", "SAMPLE", "SOLD"];

/** The stand-in's own services: cents per pound, cents per zone, and business days in transit. */
const SERVICES: Record<string, { perPound: number; perZone: number; days: number; express: boolean; abroad?: true }> = {
  FEDEX_GROUND: { perPound: 450, perZone: 40, days: 4, express: false },
  GROUND_HOME_DELIVERY: { perPound: 460, perZone: 40, days: 4, express: false },
  FEDEX_EXPRESS_SAVER: { perPound: 1100, perZone: 90, days: 3, express: true },
  FEDEX_2_DAY: { perPound: 1400, perZone: 110, days: 2, express: true },
  FEDEX_2_DAY_AM: { perPound: 1550, perZone: 120, days: 2, express: true },
  STANDARD_OVERNIGHT: { perPound: 2600, perZone: 150, days: 1, express: true },
  PRIORITY_OVERNIGHT: { perPound: 2900, perZone: 160, days: 1, express: true },
  FIRST_OVERNIGHT: { perPound: 4400, perZone: 180, days: 1, express: true },
  FEDEX_INTERNATIONAL_PRIORITY: { perPound: 3900, perZone: 0, days: 3, express: true, abroad: true },
  INTERNATIONAL_ECONOMY: { perPound: 3200, perZone: 0, days: 5, express: true, abroad: true },
};
/** Asked under its pre-2023 name, International Priority answers under the new one, as FedEx does. */
const RENAMED: Record<string, string> = { INTERNATIONAL_PRIORITY: "FEDEX_INTERNATIONAL_PRIORITY" };
const DAY_WORDS = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN"];
/** The stand-in's fuel surcharge, basis points of the base charge; the list rate is this much above the account's. */
const FUEL_BASIS_POINTS = 1500;
const LIST_MARKUP_BASIS_POINTS = 2000;
const RESIDENTIAL_CENTS = 575;

/** A 1×1 PNG, so a PNG label is a real PNG. */
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

interface ScanEvent {
  date: string;
  eventType: string;
  eventDescription: string;
  derivedStatusCode: string;
  derivedStatus: string;
  scanLocation: { city: string; stateOrProvinceCode: string; postalCode: string; countryCode: string };
}

export interface StandInShipment {
  trackingNumbers: string[];
  serviceType: string;
  shipDate: string;
  cancelled: boolean;
  closed: boolean;
  imageType: string;
}

type Body = Record<string, unknown>;
type Problem = { code: string; message: string };

/** A pickup FedEx booked: the request, the company that comes, and the Express location that took it. */
export interface StandInPickup {
  request: Body;
  carrierCode: "FDXE" | "FDXG";
  scheduledDate: string;
  location: string | null;
  cancelled: boolean;
}

/** FedEx's published specs of the APIs Porter calls, relative to the carrier specs folder. */
export const FEDEX_SPEC_FILES = [
  "fedex/APIAuthorization-Resource.json",
  "fedex/rate-api.json",
  "fedex/ship-api.json",
  "fedex/track.json",
  "fedex/Addresses-Resource.json",
  "fedex/ShipmentCloseAPI-Resource.json",
  "fedex/pickup-api.json",
];

export class FedexStandIn extends OAuthCarrierStandIn<StandInFault, StandInOperation> {
  protected override readonly specFiles = FEDEX_SPEC_FILES;
  readonly #scans = new Map<string, ScanEvent[]>();
  /** Shipments it made, by master tracking number. */
  readonly shipments = new Map<string, StandInShipment>();
  /** Every request received, in order: method, path, parsed body and the Authorization header. */
  readonly requests: { method: string; path: string; body: unknown; authorization: string | undefined }[] = [];
  /** Pickups it booked, by confirmation code. */
  readonly pickups = new Map<string, StandInPickup>();
  /** Postal codes its couriers do not serve: availability answers them unavailable, with an alert. */
  readonly unservedPostalCodes = new Set<string>();
  /** The latest ready time it accepts for a pickup (local), as availability's `cutOffTime` says. */
  pickupCutOffTime = "18:00:00";
  /** The stand-in's time for the pickups it takes; tests running on a manual clock pass theirs. */
  now: () => Date = () => new Date();
  /** Seconds each token lives, as `expires_in` says. */
  tokenLifetimeSeconds = 3600;
  /** What the end-of-day close answers as its manifest: a PDF (the default), printer text, or no document. */
  closeManifest: "pdf" | "printer" | "none" = "pdf";
  #serial = 0;

  constructor(readonly account: StandInAccount) {
    super();
  }

  /**
   * A request FedEx's published operations do not allow, refused in FedEx's own error body: a path
   * FedEx has not (404) or a method it does not take there (405), else the input's faults (400).
   */
  protected override refuseNonConforming(res: http.ServerResponse, violations: readonly Violation[]): void {
    const route = violations.find((v) => v.where === "route");
    if (route) {
      const path = route.request.split(" ")[1] ?? "";
      const known = Object.values(PATHS).includes(path);
      sendJson(
        res,
        known ? 405 : 404,
        known
          ? errors("METHOD.NOT.ALLOWED", `${route.request} is not allowed.`)
          : errors("NOT.FOUND.ERROR", "The resource you requested is no longer available."),
      );
      return;
    }
    sendJson(
      res,
      400,
      errorBody(violations.map((v) => ({ code: "INVALID.INPUT.EXCEPTION", message: `${v.where} ${v.message}` }))),
    );
  }

  callsTo(operation: StandInOperation): number {
    return this.requests.filter((r) => r.path === PATHS[operation]).length;
  }

  lastBody(operation: StandInOperation): Body {
    return (this.requests.findLast((r) => r.path === PATHS[operation])?.body ?? {}) as Body;
  }

  /** Adds a scan to a package's history, as FedEx's network would. */
  scan(trackingNumber: string, event: Omit<ScanEvent, "scanLocation"> & { scanLocation?: ScanEvent["scanLocation"] }) {
    const history = this.#scans.get(trackingNumber) ?? [];
    history.push({
      scanLocation: { city: "MEMPHIS", stateOrProvinceCode: "TN", postalCode: "38118", countryCode: "US" },
      ...event,
    });
    this.#scans.set(trackingNumber, history);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const method = req.method ?? "";
    const body = parseRequestBody(raw, req.headers["content-type"]);
    this.requests.push({ method, path, body, authorization: req.headers.authorization });
    const operation = (Object.keys(PATHS) as StandInOperation[]).find((op) => PATHS[op] === path);
    const fault = this.faults.take(operation);
    if (this.answeredAsFault(fault, res, path === PATHS.token ? '{"token_type":' : "{}")) return;
    if (fault === "429") {
      sendJson(res, 429, errors("TOO.MANY.REQUESTS.ERROR", "We have received too many requests in a short duration."), {
        "retry-after": "0",
      });
      return;
    }
    if (fault === "503") {
      sendJson(res, 503, errors("SERVICE.UNAVAILABLE.ERROR", "The service is currently unavailable."), {
        "retry-after": "0",
      });
      return;
    }
    if (fault === "500") {
      sendJson(
        res,
        500,
        errors("INTERNAL.SERVER.ERROR", "We encountered an unexpected error and are working to resolve it."),
      );
      return;
    }
    if (!operation) {
      sendJson(res, 404, errors("NOT.FOUND.ERROR", "The resource you requested is no longer available."));
      return;
    }
    if (METHODS[operation] !== method) {
      sendJson(res, 405, errors("METHOD.NOT.ALLOWED", `Use ${METHODS[operation]} for ${path}.`));
      return;
    }
    if (operation === "token") {
      this.#token(res, req.headers["content-type"], body, fault === "401");
      return;
    }
    if (fault === "401" || !this.bearerGranted(req)) {
      sendJson(
        res,
        401,
        errors("NOT.AUTHORIZED.ERROR", "Access token expired. Please modify your request and try again."),
      );
      return;
    }
    const request = (typeof body === "object" && body !== null ? body : {}) as Body;
    const handlers: Record<Exclude<StandInOperation, "token">, (b: Body) => [number, unknown]> = {
      rate: (b) => this.#rate(b),
      ship: (b) => this.#ship(b),
      cancel: (b) => this.#cancel(b),
      track: (b) => this.#track(b),
      address: (b) => this.#resolve(b),
      close: (b) => this.#close(b),
      pickupAvailability: (b) => this.#pickupAvailability(b),
      pickup: (b) => this.#pickup(b),
      pickupCancel: (b) => this.#pickupCancel(b),
    };
    const [status, answer] = handlers[operation](request);
    if (fault === "503-processed") {
      sendJson(res, 503, errors("SERVICE.UNAVAILABLE.ERROR", "The service is currently unavailable."));
      return;
    }
    sendJson(res, status, answer);
  }

  #token(res: http.ServerResponse, contentType: string | undefined, body: unknown, refuse: boolean): void {
    const grant = (body ?? {}) as Record<string, unknown>;
    if (!contentType?.startsWith("application/x-www-form-urlencoded")) {
      sendJson(res, 400, errors("BAD.REQUEST.ERROR", "The content-type must be application/x-www-form-urlencoded."));
      return;
    }
    if (grant.grant_type !== "client_credentials" || typeof grant.client_id !== "string" || !grant.client_secret) {
      sendJson(res, 400, errors("BAD.REQUEST.ERROR", "grant_type, client_id and client_secret are required."));
      return;
    }
    if (refuse || grant.client_id !== this.account.clientId || grant.client_secret !== this.account.clientSecret) {
      sendJson(
        res,
        401,
        errors(
          "NOT.AUTHORIZED.ERROR",
          "The given client credentials were not valid. Please modify your request and try again.",
        ),
      );
      return;
    }
    const token = this.grantToken(24, "base64url");
    const answer: FedexTokenResponse = {
      access_token: token,
      token_type: "bearer",
      expires_in: this.tokenLifetimeSeconds,
      scope: "CXS",
    };
    sendJson(res, 200, answer);
  }

  #account(body: Body, problems: Problem[]): void {
    const value = (body.accountNumber as Body | undefined)?.value;
    if (value === undefined) problems.push(missing("accountNumber.value"));
    else if (String(value) !== this.account.accountNumber) {
      problems.push({ code: "ACCOUNT.NUMBER.MISMATCH", message: "Invalid account number." });
    }
  }

  #rate(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    this.#account(body, problems);
    const shipment = (body.requestedShipment ?? {}) as Body;
    if (body.requestedShipment === undefined) problems.push(missing("requestedShipment"));
    for (const party of ["shipper", "recipient"]) {
      const address = ((shipment[party] as Body | undefined)?.address ?? {}) as Body;
      for (const field of ["postalCode", "countryCode"]) {
        if (!address[field]) problems.push(missing(`requestedShipment.${party}.address.${field}`));
      }
    }
    oneOf(problems, shipment.pickupType, PICKUP_TYPES, "requestedShipment.pickupType", true);
    const packages = checkPackages(shipment, problems);
    const from = ((shipment.shipper as Body | undefined)?.address as Body) ?? {};
    const to = ((shipment.recipient as Body | undefined)?.address as Body) ?? {};
    const abroad = from.countryCode !== to.countryCode;
    // "Customs commodity data is required for international and intra-country rating" (rate-api.json:6361).
    const commodities = (shipment.customsClearanceDetail as Body | undefined)?.commodities;
    if (abroad && (!Array.isArray(commodities) || commodities.length === 0)) {
      problems.push(missing("requestedShipment.customsClearanceDetail.commodities"));
    }
    if (problems.length > 0) return [400, errorBody(problems)];

    const residential = to.residential === true;
    const packaging = (shipment.packagingType as string | undefined) ?? "YOUR_PACKAGING";
    const oneRate = (
      (shipment.shipmentSpecialServices as Body | undefined)?.specialServiceTypes as string[] | undefined
    )?.includes("FEDEX_ONE_RATE");
    const asked = shipment.serviceType as string | undefined;
    const types = Object.entries(SERVICES)
      .filter(([, s]) => (s.abroad ?? false) === abroad)
      .filter(([, s]) => packaging === "YOUR_PACKAGING" || s.express)
      .filter(
        ([type]) => !(type === "FEDEX_GROUND" && residential) && !(type === "GROUND_HOME_DELIVERY" && !residential),
      )
      .filter(([type]) => asked === undefined || type === (RENAMED[asked] ?? asked));
    if (types.length === 0) {
      return [400, errors("RATE.SERVICE.UNAVAILABLE", "Service is not allowed for this origin and destination.")];
    }
    const zone = standInZone(String(from.postalCode), String(to.postalCode));
    const shipDate = (shipment.shipDateStamp as string | undefined) ?? today();
    const pounds = packages.reduce((sum, p) => sum + Math.max(1, Math.ceil(p)), 0);
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          quoteDate: today(),
          alerts: [],
          rateReplyDetails: types.map(([type, service]) => {
            const baseCents = oneRate
              ? service.perPound * 2 + service.perZone * zone
              : service.perPound * pounds + service.perZone * zone;
            const account = rated("ACCOUNT", baseCents, residential && !oneRate, zone, pounds, oneRate);
            const list = rated(
              "LIST",
              Math.round(baseCents * (1 + LIST_MARKUP_BASIS_POINTS / 10_000)),
              residential && !oneRate,
              zone,
              pounds,
              oneRate,
            );
            const deliveryDate = addBusinessDays(shipDate, service.days);
            return {
              serviceType: type,
              serviceName: `FedEx ${type}`,
              packagingType: packaging,
              ratedShipmentDetails: [account, list],
              operationalDetail: {
                deliveryDate: `${deliveryDate}T20:00:00`,
                transitTime: `${DAY_WORDS[service.days - 1]}_DAYS`,
              },
              commit: { dateDetail: { dayFormat: `${deliveryDate}T20:00:00` } },
              serviceDescription: { serviceType: type },
            };
          }),
        },
      },
    ];
  }

  #ship(body: Body): [number, unknown] {
    // Required fields and enums are the Ship API spec's, checked before a request gets here.
    const problems: Problem[] = [];
    this.#account(body, problems);
    const shipment = (body.requestedShipment ?? {}) as Body;
    checkParty(shipment.shipper, "requestedShipment.shipper", problems);
    const recipients = (shipment.recipients ?? []) as unknown[];
    for (const [i, r] of recipients.entries()) checkParty(r, `requestedShipment.recipients[${i}]`, problems);
    const label = (shipment.labelSpecification ?? {}) as Body;
    const packages = checkPackages(shipment, problems);
    const invoiceAsked = checkCustoms(shipment, problems);
    const serviceType = RENAMED[shipment.serviceType as string] ?? (shipment.serviceType as string);
    if (problems.length === 0 && !SERVICES[serviceType]) {
      problems.push({ code: "SERVICE.TYPE.INVALID", message: "Invalid service type. Please update and try again." });
    }
    if (problems.length > 0) return [400, errorBody(problems)];

    const trackingNumbers = packages.map(() => this.#trackingNumber());
    const master = trackingNumbers[0]!;
    const imageType = label.imageType as string;
    const shipDate = (shipment.shipDatestamp as string | undefined) ?? today();
    this.shipments.set(master, { trackingNumbers, serviceType, shipDate, cancelled: false, closed: false, imageType });
    for (const number of trackingNumbers) {
      this.scan(number, {
        date: `${shipDate}T09:00:00-05:00`,
        eventType: "OC",
        eventDescription: "Shipment information sent to FedEx",
        derivedStatusCode: "IN",
        derivedStatus: "Label created",
      });
    }
    const service = SERVICES[serviceType]!;
    const deliveryDate = addBusinessDays(shipDate, service.days);
    const to = ((recipients as Body[])[0]?.address ?? {}) as Body;
    const from = ((shipment.shipper as Body).address ?? {}) as Body;
    const residential = to.residential === true;
    const zone = standInZone(String(from.postalCode), String(to.postalCode));
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          transactionShipments: [
            {
              serviceType,
              shipDatestamp: shipDate,
              serviceCategory: service.express ? "EXPRESS" : "GROUND",
              masterTrackingNumber: master,
              pieceResponses: trackingNumbers.map((trackingNumber, i) => ({
                trackingNumber,
                masterTrackingNumber: master,
                packageSequenceNumber: i + 1,
                deliveryTimestamp: deliveryDate,
                trackingIdType: service.express ? "EXPRESS" : "GROUND",
                packageDocuments: [
                  {
                    contentType: "LABEL",
                    copiesToPrint: 1,
                    docType: imageType,
                    trackingNumber,
                    ...(body.labelResponseOptions === "LABEL"
                      ? { encodedLabel: labelDocument(imageType, trackingNumber) }
                      : { url: `${this.baseUrl}/document/v2/document/retrieve/${trackingNumber}` }),
                  },
                ],
              })),
              completedShipmentDetail: {
                usDomestic: true,
                carrierCode: service.express ? "FDXE" : "FDXG",
                masterTrackingId: { trackingIdType: service.express ? "EXPRESS" : "GROUND", trackingNumber: master },
                operationalDetail: { deliveryDate, transitTime: `${DAY_WORDS[service.days - 1]}_DAYS` },
                shipmentRating: shipmentRating(
                  service,
                  packages,
                  zone,
                  residential,
                  String(shipment.packagingType) !== "YOUR_PACKAGING",
                ),
              },
              ...(invoiceAsked && {
                shipmentDocuments: [
                  {
                    contentType: "COMMERCIAL_INVOICE",
                    copiesToPrint: 3,
                    docType: "PDF",
                    ...(body.labelResponseOptions === "LABEL"
                      ? { encodedLabel: standInPdf(`FedEx commercial invoice ${master}`).toString("base64") }
                      : { url: `${this.baseUrl}/document/v2/document/retrieve/${master}_CI` }),
                  },
                ],
              }),
              alerts: [],
            },
          ],
        },
      },
    ];
  }

  #cancel(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    this.#account(body, problems);
    if (typeof body.trackingNumber !== "string") problems.push(missing("trackingNumber"));
    oneOf(problems, body.deletionControl, ["DELETE_ALL_PACKAGES"], "deletionControl", false);
    if (problems.length > 0) return [400, errorBody(problems)];
    const shipment = [...this.shipments.values()].find((s) =>
      s.trackingNumbers.includes(body.trackingNumber as string),
    );
    if (!shipment) {
      return [
        400,
        errors("TRACKING.TRACKINGNUMBER.NOTFOUND", "Unable to retrieve record from database for this tracking number."),
      ];
    }
    if (shipment.cancelled) {
      return [400, errors("SHIPMENT.ALREADY.CANCELLED", "This shipment has already been cancelled.")];
    }
    shipment.cancelled = true;
    return [
      200,
      {
        transactionId: randomUUID(),
        output: { cancelledShipment: true, cancelledHistory: true, message: "Shipment is successfully cancelled" },
      },
    ];
  }

  #track(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    if (typeof body.includeDetailedScans !== "boolean") problems.push(missing("includeDetailedScans"));
    const infos = body.trackingInfo;
    if (!Array.isArray(infos) || infos.length === 0) problems.push(missing("trackingInfo"));
    else if (infos.length > 30)
      problems.push({ code: "TRACKING.TRACKINGNUMBER.LIMIT", message: "At most 30 tracking numbers." });
    const numbers = (Array.isArray(infos) ? infos : []).map(
      (info) => ((info as Body)?.trackingNumberInfo as Body | undefined)?.trackingNumber,
    );
    if (numbers.some((n) => typeof n !== "string" || n === ""))
      problems.push(missing("trackingInfo.trackingNumberInfo.trackingNumber"));
    if (problems.length > 0) return [400, errorBody(problems)];
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          completeTrackResults: (numbers as string[]).map((trackingNumber) => {
            const scans = this.#scans.get(trackingNumber);
            if (!scans) {
              return {
                trackingNumber,
                trackResults: [
                  {
                    trackingNumberInfo: { trackingNumber },
                    error: {
                      code: "TRACKING.TRACKINGNUMBER.NOTFOUND",
                      message: "Tracking number cannot be found. Please correct the tracking number and try again.",
                    },
                  },
                ],
              };
            }
            const newestFirst = [...scans].reverse();
            const latest = newestFirst[0]!;
            const shipment = [...this.shipments.values()].find((s) => s.trackingNumbers.includes(trackingNumber));
            const estimate = shipment
              ? addBusinessDays(shipment.shipDate, SERVICES[shipment.serviceType]!.days)
              : undefined;
            return {
              trackingNumber,
              trackResults: [
                {
                  trackingNumberInfo: { trackingNumber, carrierCode: "FDXE" },
                  latestStatusDetail: {
                    code: latest.derivedStatusCode,
                    derivedCode: latest.derivedStatusCode,
                    statusByLocale: latest.derivedStatus,
                    description: latest.derivedStatus,
                    scanLocation: latest.scanLocation,
                  },
                  dateAndTimes: estimate
                    ? [{ type: "ESTIMATED_DELIVERY", dateTime: `${estimate}T00:00:00-06:00` }]
                    : [],
                  scanEvents: body.includeDetailedScans ? newestFirst : [latest],
                },
              ],
            };
          }),
        },
      },
    ];
  }

  #resolve(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    const list = body.addressesToValidate;
    if (!Array.isArray(list) || list.length === 0) problems.push(missing("addressesToValidate"));
    (Array.isArray(list) ? list : []).forEach((entry, i) => {
      const address = ((entry as Body)?.address ?? {}) as Body;
      if (!Array.isArray(address.streetLines) || address.streetLines.length === 0) {
        problems.push(missing(`addressesToValidate[${i}].address.streetLines`));
      }
      if (!address.countryCode) problems.push(missing(`addressesToValidate[${i}].address.countryCode`));
    });
    if (problems.length > 0) return [400, errorBody(problems)];
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          resolvedAddresses: (list as Body[]).map((entry) => {
            const address = entry.address as Body;
            const lines = (address.streetLines as string[]).map((l) => l.toUpperCase().replace(/\bSTREET\b/, "ST"));
            // The stand-in's own rule: a street line must start with a house number to resolve.
            const resolved = /^\d+\s/.test(lines[0] ?? "");
            const business = lines.some((l) => /\b(SUITE|STE|FLOOR|FL)\b/.test(l));
            const postal = String(address.postalCode ?? "").slice(0, 5);
            return {
              streetLinesToken: lines,
              city: String(address.city ?? "").toUpperCase(),
              stateOrProvinceCode: address.stateOrProvinceCode,
              countryCode: address.countryCode,
              postalCodeToken: { changed: false, value: postal },
              parsedPostalCode: { base: postal, addOn: resolved ? "1234" : "", deliveryPoint: "" },
              classification: resolved ? (business ? "BUSINESS" : "RESIDENTIAL") : "UNKNOWN",
              customerMessage: [],
              attributes: {
                Resolved: resolved ? "true" : "false",
                DPV: resolved ? "true" : "false",
                Matched: resolved ? "true" : "false",
                SuiteRequiredButMissing: "false",
                InvalidSuiteNumber: "false",
                CountrySupported: "true",
              },
            };
          }),
          alerts: [],
        },
      },
    ];
  }

  #close(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    this.#account(body, problems);
    oneOf(problems, body.closeReqType, ["GCDR", "RGCDR"], "closeReqType", true);
    oneOf(problems, body.groundServiceCategory, ["GROUND"], "groundServiceCategory", true);
    if (typeof body.closeDate !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(body.closeDate)) {
      problems.push(missing("closeDate"));
    }
    const types = (body.closeDocumentSpecification as Body | undefined)?.closeDocumentTypes;
    if (types !== undefined && !Array.isArray(types)) {
      problems.push(missing("closeDocumentSpecification.closeDocumentTypes"));
    }
    for (const type of Array.isArray(types) ? types : []) {
      oneOf(problems, type, ["MANIFEST", "OP_950"], "closeDocumentSpecification.closeDocumentTypes", true);
    }
    if (problems.length > 0) return [400, errorBody(problems)];
    const open = [...this.shipments.values()].filter(
      (s) => !s.cancelled && !s.closed && s.shipDate === body.closeDate && !SERVICES[s.serviceType]!.express,
    );
    if (open.length === 0) {
      return [400, errors("GROUND.CLOSE.NOSHIPMENTS", "No Ground shipments to close for this date.")];
    }
    for (const shipment of open) shipment.closed = true;
    this.#serial += 1;
    const shippingCycle = `${String(body.closeDate).replaceAll("-", "")}${String(this.#serial).padStart(4, "0")}`;
    const closed = open.flatMap((s) => s.trackingNumbers);
    const manifest =
      Array.isArray(types) && types.includes("MANIFEST") ? this.#manifestImage(shippingCycle, closed) : undefined;
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          closeDocuments: [
            {
              type: "MANIFEST",
              shippingCycle,
              shippingDocumentDisposition: "RETURNED",
              resolution: 200,
              copiesToPrint: manifest ? 1 : 0,
              // A PDF in two parts, to be joined in sequence order (listed out of order on purpose).
              parts: manifest
                ? [
                    { documentPartSequenceNumber: 2, image: manifest.subarray(40).toString("base64") },
                    { documentPartSequenceNumber: 1, image: manifest.subarray(0, 40).toString("base64") },
                  ]
                : [],
            },
          ],
          alerts: [],
        },
      },
    ];
  }

  #pickupAvailability(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    const address = (body.pickupAddress ?? {}) as Body;
    if (body.pickupAddress === undefined) problems.push(missing("pickupAddress"));
    for (const field of ["postalCode", "countryCode"]) {
      if (!address[field]) problems.push(missing(`pickupAddress.${field}`));
    }
    const types = body.pickupRequestType;
    if (!Array.isArray(types) || types.length === 0) problems.push(missing("pickupRequestType"));
    else for (const type of types) oneOf(problems, type, ["SAME_DAY", "FUTURE_DAY"], "pickupRequestType", true);
    const carriers = body.carriers;
    if (!Array.isArray(carriers) || carriers.length === 0) problems.push(missing("carriers"));
    else for (const carrier of carriers) oneOf(problems, carrier, ["FDXE", "FDXG"], "carriers", true);
    oneOf(problems, body.countryRelationship, ["DOMESTIC", "INTERNATIONAL"], "countryRelationship", true);
    if (body.shipmentAttributes !== undefined && typeof (body.shipmentAttributes as Body).serviceType !== "string") {
      problems.push(missing("shipmentAttributes.serviceType"));
    }
    if (problems.length > 0) return [400, errorBody(problems)];
    const day = typeof body.dispatchDate === "string" ? body.dispatchDate : this.now().toISOString().slice(0, 10);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    const served = !this.unservedPostalCodes.has(String(address.postalCode));
    const available = served && weekday !== 0 && weekday !== 6;
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          requestTimestamp: this.now().toISOString().slice(0, 19),
          options: (carriers as string[]).map((carrier) => ({
            carrier,
            available,
            pickupDate: day,
            cutOffTime: this.pickupCutOffTime,
            accessTime: { hours: 1, minutes: 0 },
            residentialAvailable: true,
            countryRelationship: body.countryRelationship,
            scheduleDay: (types as string[])[0],
            defaultReadyTime: "09:00:00",
            defaultLatestTimeOptions: "18:00:00",
          })),
          alerts: served
            ? []
            : [
                {
                  code: "PICKUP.POSTALCODE.NOTSERVED",
                  alertType: "WARNING",
                  message: "Pickup is not available for this postal code.",
                },
              ],
        },
      },
    ];
  }

  #pickup(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    const account = (body.associatedAccountNumber as Body | undefined)?.value;
    if (account === undefined) problems.push(missing("associatedAccountNumber.value"));
    else if (String(account) !== this.account.accountNumber) {
      problems.push({ code: "ACCOUNT.NUMBER.MISMATCH", message: "Invalid account number." });
    }
    oneOf(problems, body.carrierCode, ["FDXE", "FDXG"], "carrierCode", true);
    const origin = (body.originDetail ?? {}) as Body;
    if (body.originDetail === undefined) problems.push(missing("originDetail"));
    const ready = origin.readyDateTimestamp;
    if (typeof ready !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(ready)) {
      problems.push(missing("originDetail.readyDateTimestamp"));
    }
    if (typeof origin.customerCloseTime !== "string" || !/^\d{2}:\d{2}:\d{2}$/.test(origin.customerCloseTime)) {
      problems.push(missing("originDetail.customerCloseTime"));
    }
    oneOf(
      problems,
      origin.packageLocation,
      ["FRONT", "NONE", "REAR", "SIDE"],
      "originDetail.packageLocation",
      body.carrierCode === "FDXG",
    );
    const location = (origin.pickupLocation ?? {}) as Body;
    const address = (location.address ?? {}) as Body;
    for (const field of ["streetLines", "city", "stateOrProvinceCode", "postalCode", "countryCode"]) {
      if (!address[field]) problems.push(missing(`originDetail.pickupLocation.address.${field}`));
    }
    if (!(location.contact as Body | undefined)?.phoneNumber) {
      problems.push(missing("originDetail.pickupLocation.contact.phoneNumber"));
    }
    if (typeof body.remarks === "string" && body.remarks.length > 60) {
      problems.push({
        code: "INVALID.INPUT.EXCEPTION",
        message: "Invalid field value in the input: remarks is longer than 60.",
      });
    }
    if (problems.length > 0) return [400, errorBody(problems)];
    const scheduledDate = (ready as string).slice(0, 10);
    if (scheduledDate < this.now().toISOString().slice(0, 10)) {
      return [400, errors("PICKUP.REQUESTED.PREVIOUS.DAY", "Cannot schedule a pickup requested for a previous day.")];
    }
    this.#serial += 1;
    const code = `${body.carrierCode === "FDXG" ? "CPU" : ""}${String(this.#serial).padStart(8, "0")}`;
    const express = body.carrierCode === "FDXE";
    this.pickups.set(code, {
      request: body,
      carrierCode: body.carrierCode as "FDXE" | "FDXG",
      scheduledDate,
      location: express ? "LOSA" : null,
      cancelled: false,
    });
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          pickupConfirmationCode: code,
          message: "Courier on the way",
          ...(express ? { location: "LOSA" } : {}),
        },
      },
    ];
  }

  #pickupCancel(body: Body): [number, unknown] {
    const problems: Problem[] = [];
    if ((body.associatedAccountNumber as Body | undefined)?.value === undefined) {
      problems.push(missing("associatedAccountNumber.value"));
    }
    if (typeof body.pickupConfirmationCode !== "string") problems.push(missing("pickupConfirmationCode"));
    if (typeof body.scheduledDate !== "string") problems.push(missing("scheduledDate"));
    oneOf(problems, body.carrierCode, ["FDXE", "FDXG"], "carrierCode", false);
    if (problems.length > 0) return [400, errorBody(problems)];
    const pickup = this.pickups.get(body.pickupConfirmationCode as string);
    const carrier = body.carrierCode ?? "FDXE";
    if (!pickup || pickup.carrierCode !== carrier || pickup.scheduledDate !== body.scheduledDate) {
      return [
        400,
        errors("PICKUP.CONFIRMATIONNUMBER.NOTFOUND", "Pickup confirmation number not found for the given date."),
      ];
    }
    if (carrier === "FDXE" && body.location !== pickup.location) {
      return [400, errors("PICKUP.LOCATION.REQUIRED", "The location is required to cancel a FedEx Express pickup.")];
    }
    if (pickup.cancelled) return [400, errors("PICKUP.ALREADY.CANCELLED", "The pickup has already been cancelled.")];
    pickup.cancelled = true;
    return [
      200,
      {
        transactionId: randomUUID(),
        output: {
          pickupConfirmationCode: body.pickupConfirmationCode,
          cancelConfirmationMessage: "Requested pickup has been cancelled Successfully.",
        },
      },
    ];
  }

  /** The close's manifest as `closeManifest` says: a one-page PDF listing the closed packages, printer text, or none. */
  #manifestImage(shippingCycle: string, trackingNumbers: readonly string[]): Buffer | undefined {
    if (this.closeManifest === "none") return undefined;
    const title = `FEDEX GROUND MANIFEST ${shippingCycle}`;
    if (this.closeManifest === "printer") return Buffer.from([title, ...trackingNumbers].join("\r\n"), "latin1");
    return standInPdf(title, trackingNumbers);
  }

  #trackingNumber(): string {
    this.#serial += 1;
    const payload = `7${String(this.#serial).padStart(10, "0")}`;
    return `${payload}${fedex12CheckDigit(payload)}`;
  }
}

function checkParty(party: unknown, where: string, problems: Problem[]): void {
  if (typeof party !== "object" || party === null) {
    problems.push(missing(where));
    return;
  }
  const address = ((party as Body).address ?? {}) as Body;
  const contact = ((party as Body).contact ?? {}) as Body;
  if (!Array.isArray(address.streetLines) || address.streetLines.length === 0) {
    problems.push(missing(`${where}.address.streetLines`));
  }
  if (!address.city) problems.push(missing(`${where}.address.city`));
  if (!address.countryCode) problems.push(missing(`${where}.address.countryCode`));
  if (!contact.phoneNumber) problems.push(missing(`${where}.contact.phoneNumber`));
}

/** A shipment that crosses a border needs its customs clearance: the commercial invoice and described commodities. */
/**
 * A shipment abroad needs its customs clearance as the Ship API requires it: the commercial
 * invoice's purpose (and terms, three letters), who pays the duties, and per commodity what a
 * commercial invoice prints (description, quantity and unit, weight, unit and line values in one
 * currency, country of manufacture, a 6 to 10 digit HS code where given). Answers whether the
 * request asks for FedEx's commercial invoice, whose format it checks too.
 */
function checkCustoms(shipment: Body, problems: Problem[]): boolean {
  const from = ((shipment.shipper as Body | undefined)?.address as Body | undefined)?.countryCode;
  const to = ((shipment.recipients as Body[] | undefined)?.[0]?.address as Body | undefined)?.countryCode;
  const invoice = checkDocumentSpecification(shipment, problems);
  if (!from || !to || from === to) return invoice;
  const where = "requestedShipment.customsClearanceDetail";
  const customs = shipment.customsClearanceDetail as Body | undefined;
  if (!customs) {
    problems.push(missing(where));
    return invoice;
  }
  const commercialInvoice = customs.commercialInvoice as Body | undefined;
  if (typeof commercialInvoice !== "object") problems.push(missing(`${where}.commercialInvoice`));
  else {
    oneOf(
      problems,
      commercialInvoice.shipmentPurpose,
      SHIPMENT_PURPOSES,
      `${where}.commercialInvoice.shipmentPurpose`,
      false,
    );
    if (commercialInvoice.termsOfSale !== undefined && !/^[A-Z]{3}$/.test(String(commercialInvoice.termsOfSale))) {
      problems.push(missing(`${where}.commercialInvoice.termsOfSale`));
    }
  }
  oneOf(
    problems,
    (customs.dutiesPayment as Body | undefined)?.paymentType,
    PAYMENT_TYPES,
    `${where}.dutiesPayment.paymentType`,
    true,
  );
  const commodities = customs.commodities;
  if (!Array.isArray(commodities) || commodities.length === 0) {
    problems.push(missing(`${where}.commodities`));
    return invoice;
  }
  const currencies = new Set<unknown>();
  for (const [i, entry] of commodities.entries()) {
    const commodity = (entry ?? {}) as Body;
    const at = `${where}.commodities[${i}]`;
    if (!commodity.description) problems.push(missing(`${at}.description`));
    if (!Number.isInteger(commodity.quantity) || (commodity.quantity as number) < 1)
      problems.push(missing(`${at}.quantity`));
    if (!commodity.quantityUnits) problems.push(missing(`${at}.quantityUnits`));
    const weight = (commodity.weight ?? {}) as Body;
    oneOf(problems, weight.units, ["LB", "KG"], `${at}.weight.units`, true);
    if (typeof weight.value !== "number") problems.push(missing(`${at}.weight.value`));
    for (const money of ["unitPrice", "customsValue"]) {
      const value = (commodity[money] ?? {}) as Body;
      if (typeof value.amount !== "number" || value.amount < 0) problems.push(missing(`${at}.${money}.amount`));
      if (!/^[A-Z]{3}$/.test(String(value.currency))) problems.push(missing(`${at}.${money}.currency`));
      currencies.add(value.currency);
    }
    if (!/^[A-Z]{2}$/.test(String(commodity.countryOfManufacture ?? "")))
      problems.push(missing(`${at}.countryOfManufacture`));
    if (commodity.harmonizedCode !== undefined && !/^\d{6,10}$/.test(String(commodity.harmonizedCode))) {
      problems.push({ code: "HARMONIZED.CODE.INVALID", message: `Invalid harmonized code: ${at}.harmonizedCode.` });
    }
  }
  if (currencies.size > 1) {
    problems.push({ code: "CUSTOMS.CURRENCY.MISMATCH", message: "Commodities must be valued in one currency." });
  }
  return invoice;
}

/** Whether the request asks for FedEx's commercial invoice, in a document format the Ship API makes. */
function checkDocumentSpecification(shipment: Body, problems: Problem[]): boolean {
  const specification = shipment.shippingDocumentSpecification as Body | undefined;
  const types = specification?.shippingDocumentTypes;
  if (!Array.isArray(types) || !types.includes("COMMERCIAL_INVOICE")) return false;
  const where = "requestedShipment.shippingDocumentSpecification.commercialInvoiceDetail.documentFormat";
  const format = ((specification?.commercialInvoiceDetail as Body | undefined)?.documentFormat ?? {}) as Body;
  oneOf(problems, format.docType, ["PDF"], `${where}.docType`, true);
  oneOf(problems, format.stockType, ["PAPER_LETTER"], `${where}.stockType`, true);
  return true;
}

/** The package lines' weights in pounds; each needs `weight.units` (LB or KG) and `weight.value`. */
function checkPackages(shipment: Body, problems: Problem[]): number[] {
  const lines = shipment.requestedPackageLineItems;
  if (!Array.isArray(lines) || lines.length === 0) {
    problems.push(missing("requestedShipment.requestedPackageLineItems"));
    return [];
  }
  return lines.map((line, i) => {
    const weight = ((line as Body)?.weight ?? {}) as Body;
    const where = `requestedShipment.requestedPackageLineItems[${i}]`;
    oneOf(problems, weight.units, ["LB", "KG"], `${where}.weight.units`, true);
    if (typeof weight.value !== "number" || weight.value <= 0) problems.push(missing(`${where}.weight.value`));
    const dims = (line as Body)?.dimensions as Body | undefined;
    if (dims) {
      for (const side of ["length", "width", "height"]) {
        if (!Number.isInteger(dims[side])) {
          problems.push({
            code: "PACKAGE.DIMENSIONS.INVALID",
            message: `${where}.dimensions.${side} must be a whole number.`,
          });
        }
      }
    }
    const value = typeof weight.value === "number" ? weight.value : 0;
    return weight.units === "KG" ? value * 2.20462 : value;
  });
}

function oneOf(problems: Problem[], value: unknown, values: readonly string[], field: string, required: boolean): void {
  if (value === undefined) {
    if (required) problems.push(missing(field));
    return;
  }
  if (!values.includes(value as string)) {
    problems.push({ code: "INVALID.INPUT.EXCEPTION", message: `Invalid field value in the input: ${field}.` });
  }
}

function missing(field: string): Problem {
  return { code: "INVALID.INPUT.EXCEPTION", message: `Invalid field value in the input: ${field} is required.` };
}

function rated(
  rateType: "ACCOUNT" | "LIST",
  baseCents: number,
  residential: boolean,
  zone: number,
  pounds: number,
  oneRate: boolean | undefined,
) {
  const fuelCents = Math.round((baseCents * FUEL_BASIS_POINTS) / 10_000);
  const surcharges = [
    { type: "FUEL", description: "Fuel Surcharge", level: "PACKAGE", amount: fuelCents / 100 },
    ...(residential
      ? [
          {
            type: "RESIDENTIAL_DELIVERY",
            description: "Residential delivery surcharge",
            level: "PACKAGE",
            amount: RESIDENTIAL_CENTS / 100,
          },
        ]
      : []),
  ];
  const surchargeCents = fuelCents + (residential ? RESIDENTIAL_CENTS : 0);
  const net = (baseCents + surchargeCents) / 100;
  return {
    rateType,
    ratedWeightMethod: "ACTUAL",
    totalBaseCharge: baseCents / 100,
    totalDiscounts: 0,
    totalNetCharge: net,
    totalNetFedExCharge: net,
    currency: "USD",
    shipmentRateDetail: {
      rateZone: String(zone).padStart(2, "0"),
      ratingBasis: oneRate ? "FLAT_RATE_PER_PACK" : "SHIPMENT_WEIGHT_BASED",
      specialRatingApplied: oneRate ? ["FEDEX_ONE_RATE"] : [],
      totalFreightDiscount: 0,
      totalSurcharges: surchargeCents / 100,
      fuelSurchargePercent: FUEL_BASIS_POINTS / 100,
      totalBillingWeight: { units: "LB", value: pounds },
      surCharges: surcharges,
      currency: "USD",
    },
  };
}

/** The Ship API's rating: the same prices the rate quote gives, under the Ship API's names. */
function shipmentRating(
  service: (typeof SERVICES)[string],
  packages: number[],
  zone: number,
  residential: boolean,
  oneRate: boolean,
) {
  const pounds = packages.reduce((sum, p) => sum + Math.max(1, Math.ceil(p)), 0);
  const baseCents = oneRate
    ? service.perPound * 2 + service.perZone * zone
    : service.perPound * pounds + service.perZone * zone;
  const account = rated("ACCOUNT", baseCents, residential && !oneRate, zone, pounds, oneRate);
  const { surCharges, rateZone, totalBillingWeight } = account.shipmentRateDetail;
  return {
    actualRateType: "PAYOR_ACCOUNT_SHIPMENT",
    shipmentRateDetails: [
      {
        rateType: "PAYOR_ACCOUNT_SHIPMENT",
        rateZone,
        totalBaseCharge: account.totalBaseCharge,
        totalNetCharge: account.totalNetCharge,
        totalNetFedExCharge: account.totalNetFedExCharge,
        totalBillingWeight,
        // The Ship API names a surcharge's type `surchargeType`, where the Rate API says `type`.
        surcharges: surCharges.map(({ type, ...rest }) => ({ ...rest, surchargeType: type })),
        currency: "USD",
      },
    ],
  };
}

/** A small document of the asked image type naming the tracking number, base64 as FedEx sends labels. */
function labelDocument(imageType: string, trackingNumber: string): string {
  if (imageType === "PNG") return PNG_1X1;
  const text =
    imageType === "ZPLII"
      ? `^XA^FO50,50^A0N,40,40^FDFedEx ${trackingNumber}^FS^XZ`
      : imageType === "EPL2"
        ? `N\nA50,50,0,4,1,1,N,"FedEx ${trackingNumber}"\nP1\n`
        : `%PDF-1.4\n% FedEx label ${trackingNumber}\n%%EOF\n`;
  return Buffer.from(text).toString("base64");
}

/** The stand-in's zone: how far apart the ZIP codes' first digits are, 2 to 8. */
function standInZone(from: string, to: string): number {
  const distance = Math.abs(Number(from[0] ?? 0) - Number(to[0] ?? 0));
  return Math.min(8, 2 + (Number.isNaN(distance) ? 0 : distance));
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The stand-in's calendar: weekdays only, no holidays. */
export function addBusinessDays(date: string, days: number): string {
  const day = new Date(`${date}T12:00:00Z`);
  let left = days;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) left -= 1;
  }
  return day.toISOString().slice(0, 10);
}

function errors(code: string, message: string) {
  return errorBody([{ code, message }]);
}

function errorBody(problems: Problem[]) {
  return { transactionId: randomUUID(), errors: problems };
}
