import { randomBytes } from "node:crypto";
import type http from "node:http";
import type { SentRequest, Violation } from "../../contracts/published-specs.js";
import { USPS_SPEC_FILES, uspsProseViolations } from "../../contracts/usps-rules.js";
import { carrierPdf } from "../carrier-pdf.js";
import { OAuthCarrierStandIn, parseRequestBody, sendJson } from "../stand-in-server.js";

/**
 * A local USPS APIs v3 of ours, written from USPS's published specs: the OAuth 2.0 token
 * endpoint, Domestic and International Prices (`base-rates/search`), Payments
 * (`payment-authorization`), Labels (`POST /label`, `POST /return-label`, `DELETE /label/{trackingNumber}`), Package
 * Tracking, Addresses, Carrier Pickup and SCAN Forms, with their paths, bearer auth (and the
 * payment authorization token labels need) and error bodies. Requests are checked against the
 * published specs themselves (see `CarrierStandIn`) and the rules they state only in prose
 * (`usps-rules.ts`). Its prices, tracking numbers and label files are its own
 * deterministic inventions, not USPS's. It can be told to fail the next calls of any API.
 */

/** `sold-then-500`: a label is made and paid for, but the answer is lost (HTTP 500). */
export type StandInFault = "401" | "429" | "500" | "503" | "timeout" | "malformed" | "sold-then-500";

/** The USPS APIs the stand-in answers, by the path each lives under. */
const API_PREFIX = {
  token: "/oauth2/v3/token",
  prices: "/prices/v3/",
  "international-prices": "/international-prices/v3/",
  payments: "/payments/v3/",
  labels: "/labels/v3/",
  tracking: "/tracking/v3/",
  addresses: "/addresses/v3/",
  pickup: "/pickup/v3/",
  "scan-forms": "/scan-forms/v3/",
  "international-labels": "/international-labels/v3/",
} as const;
export type StandInApi = keyof typeof API_PREFIX;

const apiOf = (path: string): StandInApi | undefined =>
  (Object.keys(API_PREFIX) as StandInApi[]).find((api) => path.startsWith(API_PREFIX[api]));

/** The OAuth app and payer a test connects a real USPS account with; the stand-in knows them. */
export const STAND_IN_USPS_CREDENTIALS = {
  client_id: "porter-test-app",
  client_secret: "usps-s3cr3t-value",
  crid: "56982563",
  mid: "903476223",
  eps_account: "1000405525",
};

export interface StandInAccount {
  clientId: string;
  clientSecret: string;
}

/** A label the stand-in made, and what became of it. */
export interface StandInLabel {
  trackingNumber: string;
  request: Record<string, unknown>;
  status: "active" | "canceled" | "refund_requested";
  /** The EFN of the SCAN form it was put on. */
  manifestNumber: string | null;
  events: Record<string, unknown>[];
}

export interface StandInPickup {
  confirmationNumber: string;
  request: Record<string, unknown>;
  etag: string;
  cancelled: boolean;
}

/** A scan the tests add to a label's history (Pub 199 event code and words). */
export interface StandInScan {
  eventCode: string;
  eventType: string;
  at: Date;
  city?: string;
  state?: string;
  ZIP?: string;
}

const TOKEN_PATH = API_PREFIX.token;

export { USPS_SPEC_FILES };

/** The stand-in's own per-pound price per mail class, in cents; its starting price is one pound's. */
const CENTS_PER_POUND: Record<string, number> = {
  USPS_GROUND_ADVANTAGE: 520,
  PRIORITY_MAIL: 910,
  PRIORITY_MAIL_EXPRESS: 2890,
  PARCEL_SELECT: 480,
  MEDIA_MAIL: 404,
  LIBRARY_MAIL: 385,
};
const MAX_POUNDS: Record<string, number> = { USPS_GROUND_ADVANTAGE: 70, MEDIA_MAIL: 70, LIBRARY_MAIL: 70 };

export class UspsStandIn extends OAuthCarrierStandIn<StandInFault, StandInApi> {
  readonly #paymentTokens = new Set<string>();
  #serial = 0;
  /** Every request received, in order: method, path, query, headers that matter, the parsed body. */
  readonly requests: {
    method: string;
    path: string;
    query: URLSearchParams;
    body: unknown;
    authorization: string | undefined;
    paymentToken: string | undefined;
    idempotencyKey: string | undefined;
  }[] = [];
  /** Labels by the `X-Idempotency-Key` that bought them: the request's body, and its answer to replay. */
  readonly #soldByKey = new Map<string, { body: string; answer: (res: http.ServerResponse) => void }>();
  readonly labels = new Map<string, StandInLabel>();
  readonly pickups = new Map<string, StandInPickup>();
  /** Seconds each token lives, as `expires_in` says. */
  tokenLifetimeSeconds = 28_800;
  /** The stand-in's time for the events it writes itself (a label's GX scan); tests share theirs. */
  clock: { now(): Date } = { now: () => new Date() };
  /** Answer labels and SCAN forms in the spec's default multipart form even when JSON is asked for. */
  multipartAnswers = false;

  /** Every API Porter calls is held to USPS's published spec; the token endpoint has none here. */
  protected override readonly specFiles = USPS_SPEC_FILES;
  protected override readonly unspecifiedPaths = [TOKEN_PATH];

  constructor(readonly account: StandInAccount) {
    super();
  }

  /** A request its spec refuses is answered as USPS answers one: a 400 `ErrorMessage` naming each field. */
  protected override refuseNonConforming(res: http.ServerResponse, violations: readonly Violation[]): void {
    badRequest(
      res,
      violations.map((v) => problem(v.where, `${v.where} ${v.message}`)),
    );
  }

  /** Forgets every payment authorization token, as when their eight hours are over. */
  revokePaymentTokens(): void {
    this.#paymentTokens.clear();
  }

  callsTo(api: StandInApi): number {
    return this.requests.filter((r) => apiOf(r.path) === api).length;
  }

  /** Adds a scan to a label's history, as USPS's systems would. */
  scan(trackingNumber: string, scan: StandInScan): void {
    const label = this.labels.get(trackingNumber);
    if (!label) throw new Error(`the stand-in made no label ${trackingNumber}`);
    label.events.push({
      eventType: scan.eventType,
      eventTimestamp: scan.at.toISOString().slice(0, 19),
      GMTTimestamp: scan.at.toISOString(),
      GMTOffset: "+00:00",
      eventCountry: null,
      eventCity: scan.city ?? null,
      eventState: scan.state ?? null,
      eventZIP: scan.ZIP ?? null,
      firm: null,
      name: null,
      authorizedAgent: false,
      eventCode: scan.eventCode,
    });
  }

  protected override proseViolations(request: SentRequest): Violation[] {
    return uspsProseViolations(request);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const path = url.pathname;
    const method = req.method ?? "GET";
    const body = parseRequestBody(raw, req.headers["content-type"]);
    const paymentToken = header(req, "x-payment-authorization-token");
    const idempotencyKey = header(req, "x-idempotency-key");
    this.requests.push({
      method,
      path,
      query: url.searchParams,
      body,
      authorization: req.headers.authorization,
      paymentToken,
      idempotencyKey,
    });
    const api = apiOf(path);
    const fault = this.faults.take(api);
    if (this.answeredAsFault(fault, res, path === TOKEN_PATH ? '{"token_type":' : "{}")) return;
    if (fault === "429" || fault === "503") {
      sendJson(res, Number(fault), errorMessage(fault, fault === "429" ? "Too Many Requests" : "Service Unavailable"), {
        "retry-after": "0",
      });
      return;
    }
    if (fault === "500") {
      sendJson(res, 500, errorMessage("500", "Internal Server Error"));
      return;
    }
    if (path === TOKEN_PATH) {
      if (method !== "POST") {
        sendJson(res, 405, errorMessage("405", "Method Not Allowed"));
        return;
      }
      this.#token(res, body, fault === "401");
      return;
    }
    if (!api) {
      sendJson(res, 404, errorMessage("404", "Resource Not Found"));
      return;
    }
    if (fault === "401" || !this.bearerGranted(req)) {
      sendJson(
        res,
        401,
        errorMessage("401", "Unauthorized request: the access token is missing, invalid or expired."),
        {
          "www-authenticate": 'Bearer realm="USPS", error="invalid_token"',
        },
      );
      return;
    }
    const route = `${method} ${path}`;
    const query = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const tail = (prefix: string) => decodeURIComponent(path.slice(prefix.length));
    if (route === "POST /prices/v3/base-rates/search") {
      this.#baseRates(res, query);
      return;
    }
    if (route === "POST /international-prices/v3/base-rates/search") {
      this.#internationalRates(res, query);
      return;
    }
    if (route === "POST /payments/v3/payment-authorization") {
      this.#paymentAuthorization(res, query);
      return;
    }
    if (route === "GET /addresses/v3/address") {
      this.#address(res, url.searchParams);
      return;
    }
    if (route === "GET /pickup/v3/carrier-pickup/eligibility") {
      this.#pickupEligibility(res, url.searchParams);
      return;
    }
    if (route === "POST /pickup/v3/carrier-pickup") {
      this.#schedulePickup(res, query);
      return;
    }
    if (method === "GET" && path.startsWith("/tracking/v3/tracking/")) {
      this.#track(res, tail("/tracking/v3/tracking/"), url.searchParams);
      return;
    }
    if (path.startsWith("/pickup/v3/carrier-pickup/") && (method === "GET" || method === "DELETE")) {
      const pickup = this.pickups.get(tail("/pickup/v3/carrier-pickup/"));
      if (!pickup || pickup.cancelled) {
        sendJson(res, 400, errorMessage("400", "Bad Request", [problem("confirmationNumber", "Pickup not found.")]));
        return;
      }
      if (method === "GET") {
        sendJson(res, 200, [{ confirmationNumber: pickup.confirmationNumber, ...pickup.request }], {
          etag: `"${pickup.etag}"`,
        });
        return;
      }
      if (header(req, "if-match")?.replace(/"/g, "") !== pickup.etag) {
        sendJson(
          res,
          400,
          errorMessage("400", "Bad Request", [problem("If-Match", "If-Match must be the pickup's current ETag.")]),
        );
        return;
      }
      pickup.cancelled = true;
      res.writeHead(200).end();
      return;
    }
    // Labels spend postage: they also need a payment authorization token.
    const spends = api === "labels" || api === "international-labels";
    if (spends && (!paymentToken || !this.#paymentTokens.has(paymentToken))) {
      sendJson(
        res,
        401,
        errorMessage("401", "Unauthorized request: the payment authorization token is missing, invalid or expired."),
      );
      return;
    }
    // Documents answer in the form asked for, or always multipart when told to.
    const accept = this.multipartAnswers ? "" : (header(req, "accept") ?? "");
    const sale = { key: idempotencyKey, body: raw, lost: fault === "sold-then-500" };
    const documents: Record<string, () => void> = {
      "POST /labels/v3/label": () => this.#sell(res, sale, (answer) => this.#label(answer, query, accept)),
      "POST /labels/v3/return-label": () =>
        this.#sell(res, sale, (answer) => this.#label(answer, query, accept, { returned: true })),
      "POST /international-labels/v3/international-label": () =>
        this.#sell(res, sale, (answer) => this.#internationalLabel(answer, query, accept)),
      "POST /scan-forms/v3/scan-form": () => this.#scanForm(res, query, accept),
    };
    const document = documents[route];
    if (document) {
      document();
      return;
    }
    const cancelled = ["/labels/v3/label/", "/international-labels/v3/international-label/"].find(
      (prefix) => method === "DELETE" && path.startsWith(prefix),
    );
    if (cancelled) {
      this.#cancelLabel(res, tail(cancelled));
      return;
    }
    sendJson(res, 404, errorMessage("404", "Resource Not Found"));
  }

  /**
   * A label sale as the Labels APIs make it (their `X-Idempotency-Key`): a key seen before with
   * the same request answers the label it bought then, selling nothing; with another request it
   * is refused. `lost` sells the label but answers 500, as when the answer never reaches the caller.
   */
  #sell(
    res: http.ServerResponse,
    sale: { key: string | undefined; body: string; lost: boolean },
    make: (res: http.ServerResponse) => void,
  ): void {
    const sold = sale.key === undefined ? undefined : this.#soldByKey.get(sale.key);
    if (sold) {
      if (sold.body === sale.body) sold.answer(res);
      else badRequest(res, [problem("X-Idempotency-Key", "The key was used for another label request.")]);
      return;
    }
    const answer = recordedAnswer(make);
    if (answer.status < 300 && sale.key !== undefined)
      this.#soldByKey.set(sale.key, { body: sale.body, answer: answer.replay });
    if (sale.lost) sendJson(res, 500, errorMessage("500", "Internal Server Error"));
    else answer.replay(res);
  }

  #token(res: http.ServerResponse, body: unknown, refuse: boolean): void {
    const grant = (body ?? {}) as Record<string, unknown>;
    if (grant.grant_type !== "client_credentials" || typeof grant.client_id !== "string") {
      sendJson(res, 400, {
        error: "invalid_request",
        error_description: "grant_type client_credentials, client_id and client_secret are required.",
      });
      return;
    }
    if (refuse || grant.client_id !== this.account.clientId || grant.client_secret !== this.account.clientSecret) {
      sendJson(res, 401, { error: "invalid_client", error_description: "Client authentication failed." });
      return;
    }
    const token = this.grantToken(16, "hex");
    sendJson(res, 200, {
      access_token: token,
      token_type: "Bearer",
      issued_at: Date.now(),
      expires_in: this.tokenLifetimeSeconds,
      status: "approved",
      scope: "prices international-prices labels tracking addresses pickup scan-forms payments",
      issuer: "api.usps.com",
      client_id: this.account.clientId,
    });
  }

  #baseRates(res: http.ServerResponse, query: Record<string, unknown>): void {
    const priced = standInPrice(query);
    if (typeof priced === "string") {
      noRates(res, priced);
      return;
    }
    const fees =
      query.processingCategory === "NONSTANDARD" && (query.length as number) > 22
        ? [{ name: "Nonstandard Length > 22", SKU: "D811XUXXXXX0000", price: 4 }]
        : [];
    sendJson(res, 200, {
      totalBasePrice: Math.round((priced.price + fees.reduce((s, f) => s + f.price, 0)) * 100) / 100,
      rates: [
        {
          SKU: "DUXP0XXXUC01080",
          description: `${query.mailClass} ${query.processingCategory} ${query.rateIndicator}`,
          priceType: query.priceType,
          price: priced.price,
          weight: query.weight,
          dimWeight: 0,
          fees,
          startDate: "2026-07-12",
          endDate: "",
          warnings: [],
          mailClass: query.mailClass,
          zone: priced.zone,
          processingCategory: query.processingCategory,
          destinationEntryFacilityType: query.destinationEntryFacilityType,
          rateIndicator: query.rateIndicator,
        },
      ],
    });
  }

  #internationalRates(res: http.ServerResponse, query: Record<string, unknown>): void {
    const priced = internationalPrice(
      query.mailClass as string,
      query.weight as number,
      query.destinationCountryCode as string,
    );
    if (!priced) {
      noRates(res, `No ${query.mailClass} price for this piece.`);
      return;
    }
    const { price, group } = priced;
    sendJson(res, 200, {
      totalBasePrice: price,
      rates: [
        {
          SKU: "DPXX0XXXXR05010",
          description: `${query.mailClass} ${query.rateIndicator}`,
          priceType: query.priceType,
          price,
          weight: query.weight,
          dimWeight: 0,
          fees: [],
          startDate: "2026-07-12",
          endDate: "",
          mailClass: query.mailClass,
          zone: String(group),
          processingCategory: query.processingCategory,
          rateIndicator: query.rateIndicator,
          destinationEntryFacilityType: "NONE",
        },
      ],
    });
  }

  #paymentAuthorization(res: http.ServerResponse, body: Record<string, unknown>): void {
    const token = `pat.${randomBytes(12).toString("hex")}`;
    this.#paymentTokens.add(token);
    sendJson(res, 200, { paymentAuthorizationToken: token, roles: body.roles });
  }

  /**
   * A domestic label; a return label (`POST /return-label`) is priced as its outbound mail class,
   * dated the day it is made (returns take no mailing date), and answered under the return
   * answer's names (`returnLabelMetadata`, `returnLabelImage`).
   */
  #label(res: http.ServerResponse, body: Record<string, unknown>, accept: string, { returned = false } = {}): void {
    const description = body.packageDescription as Record<string, unknown>;
    const to = body.toAddress as Record<string, unknown>;
    const from = body.fromAddress as Record<string, unknown>;
    const mailingDate = returned ? this.clock.now().toISOString().slice(0, 10) : description.mailingDate;
    const priced = standInPrice({
      mailClass: returned ? String(description.mailClass).replace(/_RETURN_SERVICE$/, "") : description.mailClass,
      weight: description.weight,
      originZIPCode: from.ZIPCode,
      destinationZIPCode: to.ZIPCode,
    });
    if (typeof priced === "string") {
      noRates(res, priced);
      return;
    }
    this.#serial += 1;
    const trackingNumber = impb(`9400111${String(this.#serial).padStart(14, "0")}`);
    this.#recordLabel(trackingNumber, body);
    this.scan(trackingNumber, {
      eventCode: "GX",
      eventType: "Shipping Label Created, USPS Awaiting Item",
      at: this.clock.now(),
      city: from.city as string,
      state: from.state as string,
      ZIP: from.ZIPCode as string,
    });
    const metadata = {
      labelAddress: to,
      routingInformation: `420${to.ZIPCode}`,
      trackingNumber,
      ...(returned ? {} : { constructCode: "C01" }),
      SKU: "DUXP0XXXUC01080",
      postage: priced.price,
      extraServices: [],
      zone: priced.zone,
      mailingDate: `${mailingDate}T22:00:00Z`,
      ...(returned ? {} : { commitment: { name: "2-Day", expectedDeliveryDate: mailingDate } }),
      weightUOM: "lb",
      weight: description.weight,
      dimensionalWeight: 0,
      fees: [],
      bannerText: "USPS TRACKING # USPS Ship",
    };
    sendLabel(res, accept, body, trackingNumber, metadata, 200, returned);
  }

  #internationalLabel(res: http.ServerResponse, body: Record<string, unknown>, accept: string): void {
    const description = body.packageDescription as Record<string, unknown>;
    const to = body.toAddress as Record<string, unknown>;
    const { price: postage, group } = internationalPrice(
      description.mailClass as string,
      description.weight as number,
      to.countryISOAlpha2Code as string,
    ) as { price: number; group: number };
    this.#serial += 1;
    const prefix =
      description.mailClass === "PRIORITY_MAIL_EXPRESS_INTERNATIONAL"
        ? "EZ"
        : description.mailClass === "PRIORITY_MAIL_INTERNATIONAL"
          ? "CP"
          : "LX";
    const trackingNumber = s10(prefix, this.#serial);
    this.#recordLabel(trackingNumber, body);
    const metadata = {
      labelAddress: to,
      internationalTrackingNumber: trackingNumber,
      constructCode: "I01",
      SKU: "IPXX0XXXXR05010",
      postage,
      extraServices: [],
      internationalPriceGroup: String(group),
      weightUOM: "lb",
      weight: description.weight,
      dimensionalWeight: internationalDimensionalWeight(description),
      mailingDate: description.mailingDate,
      fees: [],
    };
    sendLabel(res, accept, body, trackingNumber, metadata, 201);
  }

  /** Keeps a label it made: active, on no SCAN form yet, with no scans. */
  #recordLabel(trackingNumber: string, request: Record<string, unknown>): void {
    this.labels.set(trackingNumber, { trackingNumber, request, status: "active", manifestNumber: null, events: [] });
  }

  #cancelLabel(res: http.ServerResponse, trackingNumber: string): void {
    const label = this.labels.get(trackingNumber);
    if (label?.status !== "active") {
      badRequest(
        res,
        [{ title: "Bad Request", detail: "Order not found", code: "00000XX", source: { parameter: "trackingNumber" } }],
        "/labels/v3",
      );
      return;
    }
    if (label.manifestNumber) {
      label.status = "refund_requested";
      sendJson(res, 200, { trackingNumber, status: "DISPUTED", disputeId: String(100_000 + this.#serial) });
      return;
    }
    label.status = "canceled";
    sendJson(res, 200, { trackingNumber, status: "CANCELED" });
  }

  #track(res: http.ServerResponse, trackingNumber: string, query: URLSearchParams): void {
    const expand = query.get("expand");
    const label = this.labels.get(trackingNumber);
    if (!label) {
      sendJson(res, 404, {
        apiVersion: "/tracking/v3",
        error: {
          code: "404",
          message: "The tracking number may be incorrect or the status update is not yet available.",
          errors: [],
        },
      });
      return;
    }
    const newestFirst = [...label.events].reverse();
    const to = label.request.toAddress as Record<string, unknown>;
    const latest = newestFirst[0] ?? {};
    sendJson(res, 200, {
      trackingNumber,
      mailClass: (label.request.packageDescription as Record<string, unknown>).mailClass,
      destinationCity: to.city,
      destinationState: to.state,
      destinationZIP: to.ZIPCode,
      status: latest.eventType,
      statusCategory: latest.eventType,
      statusSummary: `${latest.eventType}`,
      expectedDeliveryTimeStamp: `${(label.request.packageDescription as Record<string, unknown>).mailingDate}T20:00:00Z`,
      ...(expand === "DETAIL" ? { trackingEvents: newestFirst } : {}),
    });
  }

  #address(res: http.ServerResponse, query: URLSearchParams): void {
    const street = query.get("streetAddress") as string;
    const zip = query.get("ZIPCode");
    if (/nowhere/i.test(street) || zip === "00000") {
      sendJson(res, 404, {
        apiVersion: "v3",
        error: { code: "404", message: "There is no match for the address requested.", errors: [] },
      });
      return;
    }
    const secondary = query.get("secondaryAddress");
    const firm = query.get("firm");
    sendJson(res, 200, {
      ...(firm ? { firm: firm.toUpperCase() } : {}),
      address: {
        streetAddress: standardizeStreet(street),
        ...(secondary ? { secondaryAddress: standardizeStreet(secondary) } : {}),
        city: (query.get("city") ?? "ZIP CITY").toUpperCase(),
        state: query.get("state"),
        ZIPCode: zip ?? "84111",
        ZIPPlus4: "1234",
      },
      additionalInfo: {
        deliveryPoint: "01",
        carrierRoute: "C001",
        DPVConfirmation: /\bapartments\b/i.test(street) && !secondary ? "D" : "Y",
        DPVCMRA: "N",
        business: firm ? "Y" : "N",
        centralDeliveryPoint: "N",
        vacant: "N",
      },
      corrections: [],
      matches: [{ code: "31", text: "Single Response - exact match" }],
      warnings: [],
    });
  }

  #pickupEligibility(res: http.ServerResponse, query: URLSearchParams): void {
    if (query.get("ZIPCode") === "99999") {
      badRequest(res, [problem("address", "Carrier Pickup is not available at this address.")]);
      return;
    }
    sendJson(res, 200, {
      firstName: "",
      lastName: "",
      address: {
        streetAddress: standardizeStreet(query.get("streetAddress") as string),
        city: (query.get("city") ?? "").toUpperCase(),
        state: (query.get("state") ?? "").toUpperCase(),
        ZIPCode: query.get("ZIPCode") ?? "",
      },
    });
  }

  #schedulePickup(res: http.ServerResponse, body: Record<string, unknown>): void {
    // USPS's carriers do not pick up on Sundays.
    if (new Date(`${body.pickupDate}T12:00:00Z`).getUTCDay() === 0) {
      badRequest(res, [problem("pickupDate", "Carrier Pickup is not available on Sundays.")]);
      return;
    }
    this.#serial += 1;
    const confirmationNumber = `WTC${String(this.#serial).padStart(9, "0")}`;
    const pickup = { confirmationNumber, request: body, etag: randomBytes(10).toString("hex"), cancelled: false };
    this.pickups.set(confirmationNumber, pickup);
    sendJson(
      res,
      200,
      { confirmationNumber, pickupDate: body.pickupDate, carrierPickupRequest: body },
      { etag: `"${pickup.etag}"` },
    );
  }

  #scanForm(res: http.ServerResponse, body: Record<string, unknown>, accept: string): void {
    const problems: Problem[] = [];
    const numbers = ((body.shipment as Record<string, unknown> | undefined)?.trackingNumbers ?? []) as string[];
    for (const number of numbers) {
      const label = this.labels.get(number);
      if (label?.status !== "active") problems.push(problem("shipment.trackingNumbers", `Label ${number} not found.`));
      else if (label.manifestNumber)
        problems.push(problem("shipment.trackingNumbers", `Label ${number} is already on a SCAN Form.`));
    }
    if (problems.length > 0) {
      badRequest(res, problems, "/scan-forms/v3");
      return;
    }
    this.#serial += 1;
    const manifestNumber = impb(`9275011${String(this.#serial).padStart(14, "0")}`);
    for (const number of numbers) (this.labels.get(number) as StandInLabel).manifestNumber = manifestNumber;
    const metadata = { ...body, manifestNumber, trackingNumbers: numbers };
    const imageType = String(
      (body.imageInfo as Record<string, unknown> | undefined)?.imageType ?? body.imageType ?? "PDF",
    );
    sendWithImage(res, accept, metadata, {
      metadataName: "SCANFormMetaData",
      imageName: "SCANFormImage",
      filename: `SCANForm.${imageType.toLowerCase()}`,
      contentType: IMAGE_CONTENT_TYPES[imageType] ?? "application/octet-stream",
      image:
        imageType === "PDF" ? carrierPdf(`USPS SCAN Form ${manifestNumber}`) : labelFile(imageType, manifestNumber),
    });
  }
}

/** The stand-in's zone: how far apart the ZIP codes' first digits are, 1 to 9. */
function standInZone(from: string, to: string): number {
  return Math.min(9, 1 + Math.abs(Number(from[0]) - Number(to[0])));
}

/** The stand-in's price of a piece in dollars and its zone, or why it has none. */
function standInPrice(query: Record<string, unknown>): { price: number; zone: string } | string {
  const mailClass = query.mailClass as string;
  const pounds = Math.max(1, Math.ceil(query.weight as number));
  const perPound = CENTS_PER_POUND[mailClass];
  if (perPound === undefined || pounds > (MAX_POUNDS[mailClass] ?? 70)) return `No ${mailClass} price for this piece.`;
  const zone = standInZone(query.originZIPCode as string, query.destinationZIPCode as string);
  return { price: (perPound * pounds + zone * 35) / 100, zone: String(zone).padStart(2, "0") };
}

const INTERNATIONAL_CENTS_PER_POUND: Record<string, number> = {
  "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE": 1650,
  PRIORITY_MAIL_INTERNATIONAL: 3200,
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: 4700,
};

/** The stand-in's international price in dollars and its price group (Canada 1, elsewhere 5), or undefined. */
/** International Labels' `dimensionalWeight`: pounds as a string of at least three characters ("0.0"). */
function internationalDimensionalWeight(description: Record<string, unknown>): string {
  const cubicInches = Number(description.length) * Number(description.width) * Number(description.height);
  const pounds = Math.round((cubicInches / 166) * 10) / 10;
  return pounds > Number(description.weight) ? pounds.toFixed(1) : "0.0";
}

function internationalPrice(
  mailClass: string,
  weight: number,
  country: string,
): { price: number; group: number } | undefined {
  const perPound = INTERNATIONAL_CENTS_PER_POUND[mailClass];
  const pounds = Math.max(1, Math.ceil(weight));
  if (perPound === undefined || pounds > 66) return undefined;
  const group = country === "CA" ? 1 : 5;
  return { price: (perPound * pounds + group * 150) / 100, group };
}

type Problem = { title: string; detail: string; code?: string; source: { parameter: string } };

function problem(parameter: string, detail: string): Problem {
  return { title: "Invalid parameter", detail, source: { parameter } };
}

/** An S10 number (UPU): two letters, eight serial digits, the MOD 11 check digit, US. */
function s10(prefix: string, serial: number): string {
  const digits = String(serial).padStart(8, "0").slice(-8);
  const sum = [...digits].reduce((total, d, i) => total + Number(d) * ([8, 6, 4, 2, 3, 5, 9, 7][i] as number), 0);
  const check = 11 - (sum % 11);
  return `${prefix}${digits}${check === 10 ? 0 : check === 11 ? 5 : check}US`;
}

/** A USPS number with its MOD 10 check digit (Pub 199: weights 3 and 1 from the right). */
function impb(payload: string): string {
  let sum = 0;
  for (const [i, digit] of [...payload].reverse().entries()) sum += Number(digit) * (i % 2 === 0 ? 3 : 1);
  return `${payload}${(10 - (sum % 10)) % 10}`;
}

const IMAGE_CONTENT_TYPES: Record<string, string> = {
  PDF: "application/pdf",
  TIFF: "image/tiff",
  JPG: "image/jpg",
  PNG: "image/png",
  GIF: "image/gif",
  SVG: "image/svg+xml",
  ZPL203DPI: "application/octet-stream",
  ZPL300DPI: "application/octet-stream",
  EPL300DPI: "application/octet-stream",
};

/**
 * A small file that starts as a real one of its type does, naming the tracking number; a PDF is a
 * real one written as USPS's are (object streams, a cross-reference stream).
 */
function labelFile(imageType: string, trackingNumber: string): Buffer {
  switch (imageType) {
    case "PDF":
      return carrierPdf(`USPS stand-in label ${trackingNumber}`);
    case "PNG":
      return Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from(trackingNumber),
      ]);
    case "GIF":
      return Buffer.from(`GIF89a${trackingNumber}`, "latin1");
    case "JPG":
      return Buffer.concat([
        Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
        Buffer.from(trackingNumber),
        Buffer.from([0xff, 0xd9]),
      ]);
    case "TIFF":
      return Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.from(trackingNumber)]);
    case "ZPL203DPI":
    case "ZPL300DPI":
      return Buffer.from(`^XA^FO50,50^BCN,100,Y,N,N^FD${trackingNumber}^FS^XZ\n`, "latin1");
    case "EPL300DPI":
      return Buffer.from(`\nN\nB50,50,0,1,2,4,100,B,"${trackingNumber}"\nP1\n`, "latin1");
    default:
      return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><text>${trackingNumber}</text></svg>`);
  }
}

/** The stand-in's Pub 28 abbreviations: enough to show an address coming back standardized. */
function standardizeStreet(street: string): string {
  const words: Record<string, string> = {
    STREET: "ST",
    AVENUE: "AVE",
    ROAD: "RD",
    SUITE: "STE",
    APARTMENT: "APT",
    NORTH: "N",
    SOUTH: "S",
    EAST: "E",
    WEST: "W",
  };
  return street
    .toUpperCase()
    .replace(/[.,]/g, "")
    .split(/\s+/)
    .map((word) => words[word] ?? word)
    .join(" ");
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function errorMessage(code: string, message: string, errors: Problem[] = [], apiVersion = "3.4.30") {
  return { apiVersion, error: { code, message, errors } };
}

function badRequest(res: http.ServerResponse, problems: Problem[], apiVersion = "3.4.30"): void {
  sendJson(res, 400, errorMessage("400", "Bad Request", problems, apiVersion));
}

function noRates(res: http.ServerResponse, detail: string): void {
  sendJson(
    res,
    400,
    errorMessage("400", "Bad Request", [
      { title: "No rates found", detail, code: "010660", source: { parameter: "mailClass" } },
    ]),
  );
}

/** A label answer: the label file of the imageType asked for, with USPS's metadata. */
/** Runs an answer into a recorder, so it can be sent (again) later. */
function recordedAnswer(make: (res: http.ServerResponse) => void): {
  status: number;
  replay: (res: http.ServerResponse) => void;
} {
  let status = 200;
  let headers: http.OutgoingHttpHeaders = {};
  let body: string | Buffer = "";
  const recorder = {
    writeHead(code: number, written?: http.OutgoingHttpHeaders) {
      status = code;
      headers = { ...headers, ...written };
      return recorder;
    },
    setHeader(name: string, value: string) {
      headers[name] = value;
      return recorder;
    },
    end(chunk?: string | Buffer) {
      body = chunk ?? "";
      return recorder;
    },
  };
  make(recorder as unknown as http.ServerResponse);
  return { status, replay: (res) => res.writeHead(status, headers).end(body) };
}

function sendLabel(
  res: http.ServerResponse,
  accept: string,
  request: Record<string, unknown>,
  trackingNumber: string,
  metadata: Record<string, unknown>,
  status: number,
  returned = false,
): void {
  const imageType = ((request.imageInfo as Record<string, unknown> | undefined)?.imageType as string) ?? "PDF";
  sendWithImage(
    res,
    accept,
    metadata,
    {
      metadataName: returned ? "returnLabelMetadata" : "labelMetadata",
      imageName: returned ? "returnLabelImage" : "labelImage",
      filename: `labelImage.${imageType.toLowerCase()}`,
      contentType: IMAGE_CONTENT_TYPES[imageType] ?? "application/octet-stream",
      image: labelFile(imageType, trackingNumber),
    },
    status,
  );
}

/**
 * An answer carrying a file, as the spec defines both: the vendor JSON (the metadata with the
 * image in base64) when asked for it, else the default multipart/form-data, a JSON metadata part
 * and the image part as base64 text.
 */
function sendWithImage(
  res: http.ServerResponse,
  accept: string,
  metadata: Record<string, unknown>,
  file: { metadataName: string; imageName: string; filename: string; contentType: string; image: Buffer },
  status = 200,
): void {
  const image = file.image.toString("base64");
  if (accept.includes("application/vnd.usps.labels+json")) {
    sendJson(
      res,
      200,
      { ...metadata, [file.imageName]: image },
      { "content-type": "application/vnd.usps.labels+json" },
    );
    return;
  }
  const boundary = `usps-stand-in-${randomBytes(8).toString("hex")}`;
  const parts = [
    `Content-Disposition: form-data; name="${file.metadataName}"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(metadata)}`,
    `Content-Disposition: form-data; name="${file.imageName}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\nContent-Transfer-Encoding: base64\r\n\r\n${image}`,
  ];
  const text = parts.map((part) => `--${boundary}\r\n${part}\r\n`).join("");
  res
    .writeHead(status, { "content-type": `multipart/form-data; boundary=${boundary}` })
    .end(`${text}--${boundary}--\r\n`);
}
