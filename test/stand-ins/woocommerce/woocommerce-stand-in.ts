import { createHash, createHmac, randomBytes } from "node:crypto";
import type http from "node:http";
import { FaultQueue, parseRequestBody, StandInServer, sendJson } from "../stand-in-server.js";

/**
 * A local WooCommerce REST API (v3) of ours, written from WooCommerce's documentation. Each site
 * lives under its own path (`/site-N`, as WordPress may live under a path) with its own consumer
 * key and secret, and answers under `/site-N/wp-json/wc/v3/`: orders listed with `page`,
 * `per_page` (at most 100), `orderby` (`date`, `id`, `modified`), `order`, `modified_after` and
 * `dates_are_gmt`, with the `X-WP-Total` and `X-WP-TotalPages` headers; one order; an order's
 * status changed with PUT; order notes created and deleted; products by `include` and a product's
 * variations; the weight unit setting. Requests are authenticated as WooCommerce does: basic auth
 * with the key and secret, or OAuth 1.0a one-legged (HMAC-SHA1 or HMAC-SHA256, nonces used once),
 * and refused with WooCommerce's 401 body; over HTTPS (the stand-in trusts that a request without
 * OAuth parameters came through TLS) also `consumer_key` and `consumer_secret` in the query. A site
 * whose host strips the Authorization header never sees basic auth: the request is anonymous and
 * refused with `woocommerce_rest_cannot_view`. On demand it answers 429 with Retry-After, 503, or 401.
 * It also signs webhook deliveries as WooCommerce does: with the secret after WordPress's
 * `wp_specialchars_decode` (ENT_QUOTES), and a delivery id made of the webhook id and the second.
 */

export interface StandInLineItem {
  id: number;
  name: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  subtotal: string;
  total: string;
  sku: string;
  price: number;
  image: { id: number; src: string };
  meta_data: { id: number; key: string; value: string; display_key: string; display_value: string }[];
}

export interface StandInNote {
  id: number;
  note: string;
  customer_note: boolean;
  date_created_gmt: string;
}

/** An order as the REST API answers it (the fields Porter reads, and a few around them). */
export interface StandInOrder {
  id: number;
  number: string;
  status: string;
  currency: string;
  date_created: string;
  date_created_gmt: string;
  date_modified: string;
  date_modified_gmt: string;
  date_paid_gmt: string | null;
  shipping_total: string;
  total: string;
  total_tax: string;
  customer_id: number;
  customer_note: string;
  billing: Record<string, string>;
  shipping: Record<string, string>;
  line_items: StandInLineItem[];
  shipping_lines: { id: number; method_title: string; method_id: string; total: string }[];
  notes: StandInNote[];
}

export interface StandInSite {
  path: string;
  consumerKey: string;
  consumerSecret: string;
  webhookSecret: string;
  orders: StandInOrder[];
  products: { id: number; weight: string; variations: { id: number; weight: string }[] }[];
  weightUnit: string;
  /** The site's host drops the Authorization header before WordPress sees it. */
  stripsAuthorization?: boolean;
}

interface Answer {
  status: number;
  json: unknown;
  headers?: Record<string, string>;
}

const answer = (status: number, json: unknown, headers?: Record<string, string>): Answer => ({ status, json, headers });

export type WooFault = "throttled" | "unavailable" | "unauthorized";

/** WooCommerce's UTC time form: no fraction, no zone. */
export const wooTime = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, "");

/** An order numbered `n` (id 7000 + n), updated at `updatedAt`, with one item unless told otherwise. */
export function standInOrder(n: number, updatedAt: string, changes: Partial<StandInOrder> = {}): StandInOrder {
  return {
    id: 7000 + n,
    number: String(7000 + n),
    status: "processing",
    currency: "USD",
    date_created: wooTime(updatedAt),
    date_created_gmt: wooTime(updatedAt),
    date_modified: wooTime(updatedAt),
    date_modified_gmt: wooTime(updatedAt),
    date_paid_gmt: wooTime(updatedAt),
    shipping_total: "5.00",
    total: "25.00",
    total_tax: "0.00",
    customer_id: 12,
    customer_note: "",
    billing: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "5125550100" },
    shipping: {
      first_name: "Ada",
      last_name: "Lovelace",
      company: "",
      address_1: "1 Main St",
      address_2: "",
      city: "Austin",
      state: "TX",
      postcode: "78701",
      country: "US",
      phone: "",
    },
    line_items: [],
    shipping_lines: [{ id: 1, method_title: "Flat rate", method_id: "flat_rate", total: "5.00" }],
    notes: [],
    ...changes,
  };
}

/**
 * WordPress's `wp_specialchars_decode($text, ENT_QUOTES)`: zero padding dropped from the numeric
 * entities of & < > " ', then one pass of its translation table (named entities are case-sensitive;
 * the hex forms it knows are only those of & " ').
 */
const TRANSLATION: Record<string, string> = {
  "&#039;": "'",
  "&#x27;": "'",
  "&quot;": '"',
  "&#034;": '"',
  "&#x22;": '"',
  "&lt;": "<",
  "&#060;": "<",
  "&gt;": ">",
  "&#062;": ">",
  "&amp;": "&",
  "&#038;": "&",
  "&#x26;": "&",
};

export function wpSpecialcharsDecode(text: string): string {
  const unpadded = text
    .replace(/&#0*(39|34|60|62|38);/g, (_, code: string) => `&#${code.padStart(3, "0")};`)
    .replace(/&#x0*(27|22|26);/gi, (_, code: string) => `&#x${code};`);
  const names = Object.keys(TRANSLATION);
  let decoded = "";
  for (let at = 0; at < unpadded.length; ) {
    const name = names.find((candidate) => unpadded.startsWith(candidate, at));
    decoded += name ? TRANSLATION[name] : unpadded[at];
    at += name?.length ?? 1;
  }
  return decoded;
}

function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** WooCommerce's check of a one-legged OAuth signature: the parameters normalized, sorted and encoded again. */
function expectedSignature(method: string, url: URL, secret: string, algorithm: "sha1" | "sha256"): string {
  const params = [...url.searchParams.entries()]
    .filter(([key]) => key !== "oauth_signature")
    .map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`)
    .sort();
  const base = `${method}&${percentEncode(`${url.origin}${url.pathname}`)}&${params.map(percentEncode).join("%26")}`;
  return createHmac(algorithm, `${secret}&`).update(base).digest("base64");
}

/** WordPress's `rest_parse_date` form: a date and time, an optional fraction and zone. */
const REST_DATE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)?$/;
const LIST_ARGUMENTS: Record<string, (value: string | null) => boolean> = {
  order: (value) => value === "asc" || value === "desc",
  modified_after: (value) => REST_DATE.test(value ?? ""),
  dates_are_gmt: (value) => ["true", "false", "1", "0"].includes(value ?? ""),
};

/** What #authenticate answers for a request carrying no credentials at all. */
const ANONYMOUS = "anonymous";

export class WooCommerceStandIn {
  readonly #server = new StandInServer((req, res, raw) => this.#handle(req, res, raw));
  readonly #faults = new FaultQueue<WooFault, string>();
  readonly #nonces = new Set<string>();
  readonly #sites: StandInSite[] = [];
  #nextId = 1;
  /** Every request that reached a site, as "METHOD path" (authenticated or not). */
  readonly requests: string[] = [];
  /** The time writes stamp on orders, moved by tests. */
  now = "2026-11-01T00:00:00.000Z";
  /** Seconds the 429 answers ask to wait. */
  retryAfterSeconds = 2;

  get origin(): string {
    return this.#server.origin;
  }

  start(): Promise<string> {
    return this.#server.start();
  }

  stop(): Promise<void> {
    return this.#server.stop();
  }

  addSite(changes: Partial<StandInSite> = {}): StandInSite {
    const n = this.#sites.length + 1;
    const site: StandInSite = {
      path: `/site-${n}`,
      consumerKey: `ck_${randomBytes(20).toString("hex")}`,
      consumerSecret: `cs_${randomBytes(20).toString("hex")}`,
      webhookSecret: randomBytes(16).toString("hex"),
      orders: [],
      products: [],
      weightUnit: "oz",
      ...changes,
    };
    this.#sites.push(site);
    return site;
  }

  /** The site's address as its owner would give it to Porter. */
  siteUrl(site: StandInSite): string {
    return `${this.origin}${site.path}`;
  }

  /** The next `times` calls (to `operation`, "METHOD resource", or to any) fail this way. */
  fail(kind: WooFault, times = 1, operation?: string): void {
    this.#faults.add(kind, operation, times);
  }

  /**
   * A delivery of `topic` about `order`, signed with the site's webhook secret as WooCommerce signs
   * it. Without `deliveryId`, the id WooCommerce gives: a hash of the webhook id and `now`'s second.
   */
  webhook(site: StandInSite, topic: string, order: StandInOrder, deliveryId?: string) {
    const body = JSON.stringify(this.#present(order));
    const key = wpSpecialcharsDecode(site.webhookSecret);
    const signature = createHmac("sha256", key).update(body).digest("base64");
    const second = Math.floor(Date.parse(this.now) / 1000);
    const [resource, event] = topic.split(".");
    return {
      body,
      headers: {
        "content-type": "application/json",
        "x-wc-webhook-source": `${this.siteUrl(site)}/`,
        "x-wc-webhook-topic": topic,
        "x-wc-webhook-resource": resource ?? "",
        "x-wc-webhook-event": event ?? "",
        "x-wc-webhook-signature": signature,
        "x-wc-webhook-id": "31",
        "x-wc-webhook-delivery-id": deliveryId ?? createHash("md5").update(`31${second}`).digest("hex"),
      } as Record<string, string>,
    };
  }

  #present(order: StandInOrder): Omit<StandInOrder, "notes"> {
    const { notes: _notes, ...shown } = order;
    return shown;
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const url = new URL(req.url ?? "/", this.origin);
    const site = this.#sites.find((s) => url.pathname.startsWith(`${s.path}/wp-json/wc/v3/`));
    if (!site) {
      sendJson(res, 404, {
        code: "rest_no_route",
        message: "No route was found matching the URL and request method.",
        data: { status: 404 },
      });
      return;
    }
    const route = url.pathname.slice(`${site.path}/wp-json/wc/v3/`.length);
    const method = req.method ?? "GET";
    this.requests.push(`${method} ${route}`);
    const operation = `${method} ${route.replace(/\d+/g, "{id}")}`;
    const fault = this.#faults.take(operation);
    if (fault === "throttled") {
      sendJson(
        res,
        429,
        { code: "too_many_requests", message: "Too many requests." },
        { "retry-after": String(this.retryAfterSeconds) },
      );
      return;
    }
    if (fault === "unavailable") {
      res.writeHead(503, { "content-type": "text/html" }).end("<h1>Service Unavailable</h1>");
      return;
    }
    const refusal = fault === "unauthorized" ? "Consumer key is invalid." : this.#authenticate(req, url, site);
    if (refusal === ANONYMOUS) {
      // No credentials at all: WooCommerce lets the request through unauthenticated and the route refuses it.
      sendJson(res, 401, {
        code: "woocommerce_rest_cannot_view",
        message: "Sorry, you cannot list resources.",
        data: { status: 401 },
      });
      return;
    }
    if (refusal) {
      sendJson(res, 401, { code: "woocommerce_rest_authentication_error", message: refusal, data: { status: 401 } });
      return;
    }
    const body = parseRequestBody(raw, req.headers["content-type"]) as Record<string, unknown> | undefined;
    const { status, json, headers } = this.#route(site, method, route, url.searchParams, body ?? {});
    sendJson(res, status, json, headers);
  }

  /** Why WooCommerce would refuse the request's credentials, or undefined when it accepts them. */
  #authenticate(req: http.IncomingMessage, url: URL, site: StandInSite): string | undefined {
    const authorization = site.stripsAuthorization ? undefined : req.headers.authorization;
    const params = url.searchParams;
    const basic = authorization?.startsWith("Basic ")
      ? Buffer.from(authorization.slice(6), "base64").toString().split(":")
      : params.has("consumer_key")
        ? [params.get("consumer_key"), params.get("consumer_secret")]
        : undefined;
    if (basic) {
      const [key, secret] = basic;
      if (key !== site.consumerKey) return "Consumer key is invalid.";
      return secret === site.consumerSecret ? undefined : "Consumer secret is invalid.";
    }
    const key = params.get("oauth_consumer_key");
    if (!key) return ANONYMOUS;
    if (key !== site.consumerKey) return "Consumer key is invalid.";
    const method = params.get("oauth_signature_method");
    if (method !== "HMAC-SHA1" && method !== "HMAC-SHA256") return "Invalid signature - signature method is invalid.";
    for (const required of ["oauth_timestamp", "oauth_nonce", "oauth_signature"]) {
      if (!params.get(required)) return `Missing OAuth parameter ${required}`;
    }
    const algorithm = method === "HMAC-SHA1" ? "sha1" : "sha256";
    const expected = expectedSignature(req.method ?? "GET", url, site.consumerSecret, algorithm);
    if (params.get("oauth_signature") !== expected) return "Invalid signature - provided signature does not match.";
    const nonce = `${key}:${params.get("oauth_timestamp")}:${params.get("oauth_nonce")}`;
    if (this.#nonces.has(nonce)) return "Invalid nonce - nonce has already been used.";
    this.#nonces.add(nonce);
    return undefined;
  }

  #route(
    site: StandInSite,
    method: string,
    route: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Answer {
    const notFound = () =>
      answer(404, {
        code: "woocommerce_rest_shop_order_invalid_id",
        message: "Invalid ID.",
        data: { status: 404 },
      });
    if (method === "GET" && route === "orders") return this.#list(site, query);
    if (method === "GET" && route === "settings/products/woocommerce_weight_unit") {
      return answer(200, { id: "woocommerce_weight_unit", label: "Weight unit", value: site.weightUnit });
    }
    if (method === "GET" && route === "products") {
      const ids = (query.get("include") ?? "").split(",").map(Number);
      return answer(
        200,
        site.products.filter((p) => ids.includes(p.id)).map(({ variations: _v, ...product }) => product),
      );
    }
    const variation = /^products\/(\d+)\/variations\/(\d+)$/.exec(route);
    if (method === "GET" && variation) {
      const found = site.products
        .find((p) => p.id === Number(variation[1]))
        ?.variations.find((v) => v.id === Number(variation[2]));
      return found ? answer(200, found) : notFound();
    }
    const orderRoute = /^orders\/(\d+)(?:\/notes(?:\/(\d+))?)?$/.exec(route);
    const order = orderRoute ? site.orders.find((o) => o.id === Number(orderRoute[1])) : undefined;
    if (!orderRoute || !order) return notFound();
    const notes = route.includes("/notes");
    if (!notes && method === "GET") return answer(200, this.#present(order));
    if (!notes && method === "PUT") {
      if (typeof body.status === "string") order.status = body.status;
      this.#touch(order);
      return answer(200, this.#present(order));
    }
    if (notes && method === "POST" && !orderRoute[2]) {
      if (typeof body.note !== "string" || body.note === "") {
        return answer(400, {
          code: "rest_missing_callback_param",
          message: "Missing parameter(s): note",
          data: { status: 400 },
        });
      }
      const note = {
        id: this.#nextId++,
        note: body.note,
        customer_note: body.customer_note === true,
        date_created_gmt: wooTime(this.now),
      };
      order.notes.push(note);
      return answer(201, note);
    }
    if (notes && method === "DELETE" && orderRoute[2]) {
      const note = order.notes.find((n) => n.id === Number(orderRoute[2]));
      if (!note) {
        return answer(404, {
          code: "woocommerce_rest_invalid_id",
          message: "Invalid resource ID.",
          data: { status: 404 },
        });
      }
      if (query.get("force") !== "true") {
        return answer(501, {
          code: "woocommerce_rest_trash_not_supported",
          message: "Webhooks do not support trashing.",
          data: { status: 501 },
        });
      }
      order.notes.splice(order.notes.indexOf(note), 1);
      return answer(200, note);
    }
    return notFound();
  }

  /** A change moves the order's modification time to the stand-in's `now`. */
  #touch(order: StandInOrder): void {
    order.date_modified = wooTime(this.now);
    order.date_modified_gmt = wooTime(this.now);
  }

  #list(site: StandInSite, query: URLSearchParams): Answer {
    const perPage = Number(query.get("per_page") ?? 10);
    const page = Number(query.get("page") ?? 1);
    // The list route's own argument schema, as WordPress checks it before the route runs.
    const invalid = Object.entries(LIST_ARGUMENTS).find(([name, valid]) => query.has(name) && !valid(query.get(name)));
    if (invalid || !Number.isInteger(page) || page < 1) {
      const name = invalid?.[0] ?? "page";
      return answer(400, {
        code: "rest_invalid_param",
        message: `Invalid parameter(s): ${name}`,
        data: { status: 400 },
      });
    }
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return answer(400, {
        code: "rest_invalid_param",
        message: "Invalid parameter(s): per_page",
        data: { status: 400, params: { per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)" } },
      });
    }
    const orderby = query.get("orderby") ?? "date";
    const field = { date: "date_created_gmt", modified: "date_modified_gmt", id: "id" }[orderby] as
      | "date_created_gmt"
      | "date_modified_gmt"
      | "id"
      | undefined;
    if (!field) {
      return answer(400, {
        code: "rest_invalid_param",
        message: "Invalid parameter(s): orderby",
        data: { status: 400 },
      });
    }
    const after = query.get("modified_after");
    // Without dates_are_gmt the filter is in the site's zone; the stand-in's zone is UTC.
    const afterMs = after ? Date.parse(/Z$|[+-]\d\d:\d\d$/.test(after) ? after : `${after}Z`) : undefined;
    const matching = site.orders
      .filter((o) => afterMs === undefined || Date.parse(`${o.date_modified_gmt}Z`) > afterMs)
      .sort((a, b) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id - b.id));
    if (query.get("order") !== "asc") matching.reverse();
    const totalPages = Math.ceil(matching.length / perPage);
    const shown = matching.slice((page - 1) * perPage, page * perPage).map((o) => this.#present(o));
    return answer(200, shown, { "x-wp-total": String(matching.length), "x-wp-totalpages": String(totalPages) });
  }
}
