import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local USPS APIs v3 of ours, written from USPS's published specs: the OAuth 2.0 token
 * endpoint and Domestic Prices `POST /prices/v3/base-rates/search`, with their paths, bearer
 * auth, request checks (the spec's required fields, enums and patterns) and error bodies. Its
 * prices are its own deterministic table, not USPS's. It can be told to fail the next calls.
 */

export type StandInFault = "401" | "429" | "500" | "503" | "timeout" | "malformed";

export interface StandInAccount {
  clientId: string;
  clientSecret: string;
}

interface Fault {
  kind: StandInFault;
  path: string | undefined;
  times: number;
}

const TOKEN_PATH = "/oauth2/v3/token";
const BASE_RATES_PATH = "/prices/v3/base-rates/search";

const MAIL_CLASSES = [
  "PARCEL_SELECT",
  "PARCEL_SELECT_LIGHTWEIGHT",
  "PRIORITY_MAIL_EXPRESS",
  "PRIORITY_MAIL",
  "FIRST-CLASS_PACKAGE_SERVICE",
  "LIBRARY_MAIL",
  "MEDIA_MAIL",
  "BOUND_PRINTED_MATTER",
  "USPS_CONNECT_LOCAL",
  "USPS_CONNECT_MAIL",
  "USPS_CONNECT_REGIONAL",
  "USPS_GROUND_ADVANTAGE",
  "USPS_GROUND_ADVANTAGE_RETURN_SERVICE",
  "USPS_RETAIL_GROUND",
  "GROUND_RETURN_SERVICE",
  "FIRST-CLASS_PACKAGE_RETURN_SERVICE",
  "PRIORITY_MAIL_RETURN_SERVICE",
  "PRIORITY_MAIL_EXPRESS_RETURN_SERVICE",
];
const PROCESSING_CATEGORIES = ["LETTERS", "FLATS", "MACHINABLE", "IRREGULAR", "NON_MACHINABLE", "NONSTANDARD"];
const ENTRY_FACILITIES = [
  "NONE",
  "DESTINATION_NETWORK_DISTRIBUTION_CENTER",
  "DESTINATION_SECTIONAL_CENTER_FACILITY",
  "DESTINATION_DELIVERY_UNIT",
  "DESTINATION_SERVICE_HUB",
  "DESTINATION_REGIONAL_PROCESSING_DISTRIBUTION_CENTER",
];
const PRICE_TYPES = ["RETAIL", "COMMERCIAL", "CONTRACT", "NSA"];
const ZIP = /^\d{5}(?:[-\s]\d{4})?$/;
const REQUIRED = [
  "destinationEntryFacilityType",
  "destinationZIPCode",
  "height",
  "length",
  "mailClass",
  "originZIPCode",
  "priceType",
  "processingCategory",
  "rateIndicator",
  "weight",
  "width",
];

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

export class UspsStandIn {
  readonly #server: http.Server;
  readonly #tokens = new Set<string>();
  readonly #faults: Fault[] = [];
  readonly #hanging = new Set<http.ServerResponse>();
  /** Every request received, in order: path, and the parsed body. */
  readonly requests: { path: string; body: unknown; authorization: string | undefined }[] = [];
  /** Seconds each token lives, as `expires_in` says. */
  tokenLifetimeSeconds = 28_800;
  baseUrl = "";

  constructor(readonly account: StandInAccount) {
    this.#server = http.createServer((req, res) => {
      let raw = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        raw += chunk;
      });
      req.on("end", () => this.#handle(req, res, raw));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The next `times` calls (to `path`, or to any path) fail as `kind` says. */
  fail(kind: StandInFault, options: { path?: "token" | "prices"; times?: number } = {}): void {
    const path = options.path === "token" ? TOKEN_PATH : options.path === "prices" ? BASE_RATES_PATH : undefined;
    this.#faults.push({ kind, path, times: options.times ?? 1 });
  }

  clearFaults(): void {
    this.#faults.length = 0;
  }

  /** Forgets every token it granted, as USPS does when a token is revoked. */
  revokeTokens(): void {
    this.#tokens.clear();
  }

  callsTo(path: "token" | "prices"): number {
    const wanted = path === "token" ? TOKEN_PATH : BASE_RATES_PATH;
    return this.requests.filter((r) => r.path === wanted).length;
  }

  #takeFault(path: string): StandInFault | undefined {
    const fault = this.#faults.find((f) => f.path === undefined || f.path === path);
    if (!fault) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) this.#faults.splice(this.#faults.indexOf(fault), 1);
    return fault.kind;
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const body = parseBody(raw, req.headers["content-type"]);
    this.requests.push({ path, body, authorization: req.headers.authorization });
    const fault = this.#takeFault(path);
    if (fault === "timeout") {
      this.#hanging.add(res);
      return;
    }
    if (fault === "malformed") {
      res.writeHead(200, { "content-type": "application/json" }).end(path === TOKEN_PATH ? '{"token_type":' : "{}");
      return;
    }
    if (fault === "429" || fault === "503") {
      send(res, Number(fault), errorMessage(fault, fault === "429" ? "Too Many Requests" : "Service Unavailable"), {
        "retry-after": "0",
      });
      return;
    }
    if (fault === "500") {
      send(res, 500, errorMessage("500", "Internal Server Error"));
      return;
    }
    if (req.method !== "POST") {
      send(res, 405, errorMessage("405", "Method Not Allowed"));
      return;
    }
    if (path === TOKEN_PATH) {
      this.#token(res, body, fault === "401");
      return;
    }
    if (path === BASE_RATES_PATH) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (fault === "401" || !token || !this.#tokens.has(token)) {
        send(res, 401, errorMessage("401", "Unauthorized request: the access token is missing, invalid or expired."), {
          "www-authenticate": 'Bearer realm="USPS", error="invalid_token"',
        });
        return;
      }
      this.#baseRates(res, body);
      return;
    }
    send(res, 404, errorMessage("404", "Resource Not Found"));
  }

  #token(res: http.ServerResponse, body: unknown, refuse: boolean): void {
    const grant = (body ?? {}) as Record<string, unknown>;
    if (grant.grant_type !== "client_credentials" || typeof grant.client_id !== "string") {
      send(res, 400, {
        error: "invalid_request",
        error_description: "grant_type client_credentials, client_id and client_secret are required.",
      });
      return;
    }
    if (refuse || grant.client_id !== this.account.clientId || grant.client_secret !== this.account.clientSecret) {
      send(res, 401, { error: "invalid_client", error_description: "Client authentication failed." });
      return;
    }
    const token = randomBytes(16).toString("hex");
    this.#tokens.add(token);
    send(res, 200, {
      access_token: token,
      token_type: "Bearer",
      issued_at: Date.now(),
      expires_in: this.tokenLifetimeSeconds,
      status: "approved",
      scope: "prices labels tracking addresses",
      issuer: "api.usps.com",
      client_id: this.account.clientId,
    });
  }

  #baseRates(res: http.ServerResponse, body: unknown): void {
    const query = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const problems = checkBaseRatesQuery(query);
    if (problems.length > 0) {
      send(res, 400, {
        apiVersion: "3.4.30",
        error: { code: "400", message: "Bad Request", errors: problems },
      });
      return;
    }
    const mailClass = query.mailClass as string;
    const pounds = Math.max(1, Math.ceil(query.weight as number));
    const perPound = CENTS_PER_POUND[mailClass];
    if (perPound === undefined || pounds > (MAX_POUNDS[mailClass] ?? 70)) {
      send(res, 400, {
        apiVersion: "3.4.30",
        error: {
          code: "400",
          message: "Bad Request",
          errors: [
            { status: "400", code: "010660", title: "No rates found", detail: `No ${mailClass} price for this piece.` },
          ],
        },
      });
      return;
    }
    const zone = standInZone(query.originZIPCode as string, query.destinationZIPCode as string);
    const priceCents = perPound * pounds + zone * 35;
    const fees =
      query.processingCategory === "NONSTANDARD" && (query.length as number) > 22
        ? [{ name: "Nonstandard Length > 22", SKU: "D811XUXXXXX0000", price: 4 }]
        : [];
    const price = priceCents / 100;
    send(res, 200, {
      totalBasePrice: Math.round((price + fees.reduce((s, f) => s + f.price, 0)) * 100) / 100,
      rates: [
        {
          SKU: "DUXP0XXXUC01080",
          description: `${mailClass} ${query.processingCategory} ${query.rateIndicator}`,
          priceType: query.priceType,
          price,
          weight: query.weight,
          dimWeight: 0,
          fees,
          startDate: "2026-07-12",
          endDate: "",
          warnings: [],
          mailClass,
          zone: String(zone).padStart(2, "0"),
          processingCategory: query.processingCategory,
          destinationEntryFacilityType: query.destinationEntryFacilityType,
          rateIndicator: query.rateIndicator,
        },
      ],
    });
  }
}

/** The stand-in's zone: how far apart the ZIP codes' first digits are, 1 to 9. */
function standInZone(from: string, to: string): number {
  return Math.min(9, 1 + Math.abs(Number(from[0]) - Number(to[0])));
}

/** The spec's required fields, types, enums and patterns for a `BaseRatesQuery`. */
export function checkBaseRatesQuery(
  query: Record<string, unknown>,
): { title: string; detail: string; source: { parameter: string } }[] {
  const problems: { title: string; detail: string; source: { parameter: string } }[] = [];
  const problem = (parameter: string, detail: string) =>
    problems.push({ title: "Invalid parameter", detail, source: { parameter } });
  for (const field of REQUIRED) if (query[field] === undefined) problem(field, `${field} is required.`);
  for (const field of ["weight", "length", "width", "height"]) {
    if (query[field] !== undefined && (typeof query[field] !== "number" || (query[field] as number) < 0)) {
      problem(field, `${field} must be a number of at least 0.`);
    }
  }
  for (const field of ["originZIPCode", "destinationZIPCode"]) {
    if (query[field] !== undefined && !(typeof query[field] === "string" && ZIP.test(query[field] as string))) {
      problem(field, `${field} must be a five-digit ZIP Code.`);
    }
  }
  const oneOf = (field: string, values: readonly string[]) => {
    if (query[field] !== undefined && !values.includes(query[field] as string)) {
      problem(field, `${field} must be one of ${values.join(", ")}.`);
    }
  };
  oneOf("mailClass", MAIL_CLASSES);
  oneOf("processingCategory", PROCESSING_CATEGORIES);
  oneOf("destinationEntryFacilityType", ENTRY_FACILITIES);
  oneOf("priceType", PRICE_TYPES);
  if (
    query.rateIndicator !== undefined &&
    !(typeof query.rateIndicator === "string" && /^[A-Z0-9]{2}$/.test(query.rateIndicator))
  ) {
    problem("rateIndicator", "rateIndicator must be a two-character rate indicator.");
  }
  if (query.accountNumber !== undefined && !/^\d+$/.test(String(query.accountNumber))) {
    problem("accountNumber", "accountNumber must be digits.");
  }
  return problems;
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (contentType?.startsWith("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return raw === "" ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function errorMessage(code: string, message: string) {
  return { apiVersion: "3.4.30", error: { code, message, errors: [] } };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}
