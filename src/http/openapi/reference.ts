import { type ExampleOptions, exampleOf, type SchemaNode } from "./example-values.js";
import { rateShipment, shipmentToBuy, VISA } from "./fixtures.js";

/** What the document says of one operation beyond its route schema. */
interface OperationReference {
  description: string;
  /** Statuses the operation answers beyond those of its route schema (and the ones every route shares). */
  statuses?: number[];
  /** A request body that works against the sandbox; without it one is made from the schema. */
  requestExample?: unknown;
}

/** A carrier or a part of Porter can be down while the operation runs: 503 with `Retry-After`. */
const OUTAGE = 503;

/**
 * One entry per operation, keyed by method and path (the `/customers/{customer_id}` form of a
 * route shares its plain form's entry). A test fails when a route has no entry.
 */
export const OPERATIONS: Record<string, OperationReference> = {
  "POST /store_webhooks/:order_store_id": {
    description:
      "Where Shopify and WooCommerce deliver their order webhooks. The body is checked against the platform's signature with the store's webhook secret and never against an API key; a valid delivery queues a sync of the store (docs/orders.md).",
  },
  "POST /dashboard/session": {
    description:
      "Signs in to the dashboard: sets the `porter_session` cookie (`HttpOnly; Secure; SameSite=Strict`) and answers the session with its CSRF token. Failed attempts are limited per email address and per client address (429 `session.too_many_attempts` with `Retry-After`); docs/dashboard.md.",
    requestExample: { email: "ops@example.com", password: "correct horse battery staple" },
  },
  "POST /dashboard/session/link": {
    description:
      "Signs in with the token of a one-time link printed by `porter users sign-in-link --user ID` (works once, for 15 minutes); sets the session cookie as a password sign-in does.",
    requestExample: { token: "mJ3v1T0bQe9aE2Zr7xW4kYl8nP5sC6dU0fH1gI2jK3L" },
  },
  "GET /dashboard/session": {
    description:
      "The session the cookie names: its user, the account it acts for, its mode and the CSRF token that every POST, PUT, PATCH and DELETE made with the cookie must send as `X-CSRF-Token`.",
  },
  "PUT /dashboard/session": {
    description:
      "Switches the session between test and production, and its acting account between the user's own and one of its child accounts (another id answers 404 `customer.not_found`). Needs `X-CSRF-Token`.",
    requestExample: { mode: "production" },
  },
  "DELETE /dashboard/session": {
    description: "Signs out: the session is deleted and its cookie cleared. Needs `X-CSRF-Token`.",
  },
  "GET /test/ping": { description: "Answers `pong` when the key is good: the first call to try (README.md)." },
  "GET /customers": {
    description:
      "The child accounts of the caller's account, with their first user and template data (eHub's customers).",
  },
  "POST /customers": {
    description:
      "Creates a child account and its first API user; the answer carries that user's keys, shown only here. A child account cannot create children of its own.",
  },
  "GET /customers/:id": { description: "One child account; another account's id answers 404 `customer.not_found`." },
  "GET /users": {
    description: "The users of the caller's account and their keys, masked to their last four characters.",
  },
  "POST /users": {
    description:
      "Adds a user to the caller's account with the roles given. A user with the `API` role gets a key of each mode, returned in this answer only (`api_keys`); an email address another user has answers 409 `user.email_taken`.",
    requestExample: { user: { email: "packer@example.com", first_name: "Pat", roles: ["API"] } },
  },
  "PUT /users/:id": {
    description:
      "Replaces a user's roles. Losing `API` revokes the user's keys at once; gaining it issues a key of each mode, returned in this answer only. An account keeps at least one Primary or Owner: a change that would leave none answers 422 `user.last_administrator`.",
    requestExample: { user: { roles: ["API", "Billing"] } },
  },
  "POST /users/:id/keys/rotate": {
    description:
      "Issues a new key of the calling key's mode for the user and revokes the old one at once. The operator's CLI (`porter keys rotate --user ID`) rotates both modes.",
  },
  "GET /services": {
    description:
      "The carrier services with eHub's service ids and codes, the package types each takes, and which of them the account's carrier connections enable (docs/carriers.md).",
  },
  "GET /services/:service_id/zones": {
    description: "The postal zone from each given origin ZIP code to one destination, as the service prices them.",
  },
  "GET /status": { description: "Whether each connected carrier's APIs are online, degraded or offline, and why." },
  "POST /pickups/availability": {
    description: "Says whether a pickup can be booked on a day at an address, and if not, why and the next day it can.",
    statuses: [OUTAGE],
  },
  "POST /pickups": {
    description:
      "Books a pickup of bought shipments (and batches) with the carrier that sold their labels (docs/batches-and-pickups.md).",
    statuses: [OUTAGE],
  },
  "GET /pickups": { description: "Pickups by day and status, newest first." },
  "GET /pickups/:id": { description: "One pickup with its shipments and confirmation number." },
  "DELETE /pickups/:id": {
    description: "Cancels a pickup with the carrier; a pickup whose day has passed answers 409.",
    statuses: [OUTAGE],
  },
  "GET /payment_methods": {
    description: "The account's cards and bank accounts; numbers are shown by their last four digits.",
  },
  "POST /payment_methods": {
    description:
      "Adds a card (Luhn-checked, brand from the number, expiry MMYY) or a bank account (ABA-checked routing number); the card's code is checked and never stored (docs/payments.md).",
    requestExample: { payment_method: { ...VISA, default_payment_method: true } },
  },
  "GET /payment_methods/:id": { description: "One payment method, its number shown by its last four digits." },
  "PUT /payment_methods/:id": {
    description: "Makes a payment method the default, or updates its name, expiry or billing address.",
  },
  "DELETE /payment_methods/:id": {
    description: "Deletes a payment method that is not the default and has no charge in flight.",
  },
  "GET /meter": {
    description: "The postage balance, refunds still held and the automatic refill settings (docs/payments.md).",
  },
  "PUT /meter": {
    description:
      "Sets automatic refill: when a label would leave the balance under `refill_trigger_balance`, `refill_amount` is charged to the default payment method first. Both null turn it off.",
    requestExample: { meter: { refill_trigger_balance: 20, refill_amount: 100 } },
  },
  "GET /account/tracking_page": {
    description:
      "The settings of the account's public tracking pages (`public_tracking_url` on each shipment): the logo shown beside the account's name (docs/tracking.md).",
  },
  "PUT /account/tracking_page": {
    description:
      "Sets the logo of the account's public tracking pages: an https URL (the page's Content-Security-Policy allows images from its origin alone), or null for none.",
    requestExample: { tracking_page: { logo_url: "https://acme.example/logo.png" } },
  },
  "POST /meter/refill": {
    description: "Charges a payment method (the default unless named) and adds the amount to the balance.",
    requestExample: { amount: 50 },
  },
  "GET /reports/meter_transaction": {
    description:
      "Every meter movement (label purchases, refunds, adjustments, refills) between two times, as JSON pages or CSV (docs/reports.md).",
  },
  "GET /reports/meter_transaction/spend": {
    description:
      "The meter transaction report's label spend (purchases and adjustments, less refunds) summed by carrier and UTC week, Monday start, by the database however long the ledger: the dashboard's chart (docs/reports.md).",
  },
  "GET /reports/shipment_adjustments": {
    description:
      "The USPS adjustments of labels whose parcels were measured different from what they declared (docs/reports.md).",
  },
  "POST /rates": {
    description:
      "Prices a shipment with every enabled service of the connected carriers (or those named), cheapest first, with delivery dates; a service that cannot carry it is left out and `warnings` say why.",
    statuses: [OUTAGE],
    requestExample: rateShipment(),
  },
  "GET /shipping/validate_address": {
    description: "Checks an address and answers its standardized form, or why it cannot be delivered to.",
    statuses: [OUTAGE],
  },
  "GET /carrier_accounts": {
    description: "The carrier accounts connected in the key's mode; credentials are never returned.",
  },
  "POST /carrier_accounts": {
    description:
      "Connects a carrier: the sandbox's by its code alone, or a real carrier account with its API credentials, which are checked with the carrier and sealed at rest (docs/carriers.md).",
    statuses: [OUTAGE],
  },
  "DELETE /carrier_accounts/:id": {
    description: "Disconnects a carrier account; labels bought through it stay readable.",
  },
  "POST /shipments/ship": {
    description:
      "Buys the labels of a shipment: the rate is charged to the meter (402 `meter.insufficient_funds` when the balance and automatic refill do not cover it) and the answer links each parcel's label. Send an `Idempotency-Key` header to retry safely (docs/shipments.md). Beyond eHub: `is_return: true` buys the shipment's return label instead (from `to_location` back to `return_location` or `from_location`; `return_type` `print` is charged now, `scan_based` at the carrier's first scan), and `with_return: true` buys the outbound and its return together, the return in `return_shipment`; a return the carrier does not sell is 422 `shipment.return_unavailable`.",
    statuses: [402, OUTAGE],
    requestExample: { shipment: shipmentToBuy({ label_format: "pdf", label_size: "4x6", with_return: false }) },
  },
  "POST /shipments/ship_multiple": {
    description:
      "Buys up to ten shipments in one request; each answer item is a shipment or the error body of the one that failed.",
    statuses: [402, OUTAGE],
    requestExample: {
      shipments: [shipmentToBuy(), shipmentToBuy({ parcels: [{ length: 6, width: 4, height: 2, weight: 8 }] })],
    },
  },
  "GET /shipments/:id": { description: "One shipment with its parcels, label files, costs and tracking events." },
  "GET /shipments": {
    description: "The key's mode's shipments, newest first, filtered by date, status or tracking number.",
  },
  "PUT /shipments/:id/cancel": {
    description:
      "Voids the labels with the carrier and refunds the meter (USPS holds voided postage 30 days). Refused once the carrier has the parcel or its void window closed.",
    statuses: [OUTAGE],
  },
  "GET /shipments/:id/customs_form": {
    description: "The customs declaration (CN 22 or CN 23) of a shipment that crosses a customs border, as a PDF.",
  },
  "GET /shipments/:id/label_preview": {
    description:
      "A parcel's label as a PNG for a screen: ZPL and EPL2 labels (the carrier's or Porter's) drawn as a Zebra printer would, PNG, JPEG, GIF and TIFF labels re-encoded. PDF labels have no preview.",
  },
  "POST /shipments/batches": {
    description: "Manifests bought shipments of one carrier: USPS SCAN forms, DHL eCommerce manifests, FedEx's close.",
    statuses: [OUTAGE],
  },
  "GET /shipments/batches": { description: "Batches created between two dates." },
  "POST /shipments/batches/daily": {
    description: "Manifests every shipment of a ship date not yet in a batch, one batch per carrier connection.",
    statuses: [OUTAGE],
  },
  "GET /shipments/batches/:id": { description: "One batch; `bol_url` links the carrier's document once it exists." },
  "GET /subscriptions": { description: "The webhook subscriptions of the key's mode (docs/webhooks.md)." },
  "POST /subscriptions": {
    description:
      "Subscribes an HTTPS URL to tracking or payment events; messages are signed (Standard Webhooks) with the secret shown in full only in this answer.",
  },
  "GET /subscriptions/:id": { description: "One webhook subscription, its secret masked." },
  "PUT /subscriptions/:id": {
    description:
      "Changes the URL or authentication, re-enables a subscription, or replays its events since `rewind_to_date`.",
  },
  "DELETE /subscriptions/:id": { description: "Deletes a webhook subscription; nothing more is sent to it." },
  "GET /subscriptions/:id/deliveries": {
    description: "What was sent to the subscription, when, and what the receiver answered, newest first.",
  },
  "POST /subscriptions/:id/deliveries/:delivery_id/retry": { description: "Sends one delivery's message again now." },
  "GET /events": {
    description: "The events webhooks deliver, read by cursor: for a receiver that was down, or instead of webhooks.",
  },
  "POST /shipments/:id/tracking_events": {
    description: "Adds a custom tracking event to a shipment of a GDE service (codes 80, 81, 82).",
  },
  "POST /tracking_events": { description: "Adds a custom tracking event to several GDE shipments at once." },
  "POST /sandbox/shipments/:id/advance": {
    description:
      "Test keys only: moves a sandbox shipment along its carrier timeline now, as the clock would (docs/tracking.md).",
  },
  "POST /sandbox/shipments/:id/adjust": {
    description:
      "Test keys only: has USPS measure a parcel of a sandbox shipment and adjust its postage (docs/reports.md).",
  },
  "GET /order_stores": { description: "The order stores of the key's mode (docs/orders.md)." },
  "POST /order_stores": {
    description:
      "Creates a custom store, whose orders come through the API, or connects a Shopify or WooCommerce store, whose orders Porter imports.",
  },
  "GET /order_stores/:id": { description: "One order store; its credentials are never returned." },
  "PUT /order_stores/:id": { description: "Renames a store or replaces its credentials." },
  "DELETE /order_stores/:id": { description: "Deletes an order store and its orders." },
  "GET /order_stores/:id/sync": {
    description: "When the store was last synced and, if the sync failed, the platform's words.",
  },
  "POST /order_stores/:id/sync": { description: "Queues an import of the platform store's new and changed orders." },
  "GET /order_stores/:order_store_id/orders": { description: "A store's orders by shipment status." },
  "POST /order_stores/:order_store_id/orders": { description: "Creates orders in a custom store." },
  "GET /order_stores/:order_store_id/orders/:order_number": { description: "One order with its items and shipments." },
  "PUT /order_stores/:order_store_id/orders/:order_number": {
    description: "Changes fields of a custom store's order.",
  },
  "POST /order_stores/:order_store_id/orders/:order_number/shipments": {
    description:
      "Records a shipment of an order (a label bought here or elsewhere) and marks the order shipped, or partly shipped; a platform store hears of it too.",
  },
  "POST /order_stores/:order_store_id/orders/:order_number/shipments/cancel": {
    description: "Cancels the order's latest recorded shipment (not its label); the platform store hears of it too.",
  },
  "POST /order_stores/:order_store_id/orders/:order_number/shipment": {
    description: "eHub's singular form of recording a shipment of an order.",
  },
  "POST /order_stores/:order_store_id/orders/:order_number/shipment/cancel": {
    description: "eHub's singular form of cancelling an order's latest shipment.",
  },
};

/** `/api/v2/customers/:customer_id/shipments` → `/shipments`: the child form shares the entry. */
export function operationKey(method: string, url: string): string {
  const path = url.replace(/^\/api\/v2/, "").replace(/^\/customers\/:customer_id(?=\/)/, "");
  return `${method.toUpperCase()} ${path}`;
}

/** Bodies Porter reads in every operation that takes one (src/http/plugins/body-parsers.ts). */
export const BODY_TYPES = ["application/json", "application/xml", "application/x-www-form-urlencoded"];

const ERROR_STATUS_DESCRIPTIONS: Record<number, string> = {
  400: "The request does not match the operation's schema, or its body cannot be read (`request.invalid`, `request.malformed_body` …)",
  401: "The API key is missing, malformed, unknown or revoked (`errors.insufficient_scope`)",
  402: "The meter's balance does not cover the label and no refill covered it, or the refill was declined (`meter.insufficient_funds`, `meter.payment_declined`)",
  403: "The key's user lacks the permission (`errors.forbidden`), or the operation is not open to this key",
  404: "A record the request names does not exist in the caller's account and mode",
  409: "The record's state does not allow it, or an `Idempotency-Key` is in use",
  413: "The body is larger than `BODY_LIMIT_BYTES` (`request.too_large`)",
  422: "The request is well-formed but cannot be done; `error_code` says why (docs/errors.md)",
  429: "The API key has too many requests in flight; retry after `Retry-After` seconds (`errors.too_many_requests`)",
  500: "`parcel.missing_parcels` (status kept for eHub compatibility), or a fault on Porter's side",
  503: "A carrier or a part of Porter is down or did not answer; nothing took effect; retry after `Retry-After` seconds (`carrier.unavailable`, `errors.unavailable`)",
};

/** Statuses every route that needs an API key can answer. */
const AUTHENTICATED_STATUSES = [401, 403, 429];
/** Statuses every route that reads a body can answer. */
const BODY_STATUSES = [400, 413];

/** Properties the validator fills in from their `default` are not required of the caller. */
export function withoutDefaultedRequired(schema: SchemaNode): SchemaNode {
  if (Array.isArray(schema)) return schema.map((item) => withoutDefaultedRequired(item)) as unknown as SchemaNode;
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = typeof value === "object" && value !== null ? withoutDefaultedRequired(value as SchemaNode) : value;
  }
  const properties = copy.properties as Record<string, SchemaNode> | undefined;
  if (Array.isArray(copy.required) && properties) {
    copy.required = copy.required.filter((name: string) => properties[name]?.default === undefined);
    if ((copy.required as string[]).length === 0) delete copy.required;
  }
  return copy;
}

/** A schema that is only a reference loses its siblings when it is resolved: it is wrapped instead. */
const withExample = (schema: SchemaNode, value: unknown): SchemaNode =>
  typeof schema.$ref === "string" ? { allOf: [schema], examples: [value] } : { ...schema, examples: [value] };

const successStatus = (responses: Record<string, unknown>) =>
  Object.keys(responses)
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];

interface RouteToDocument {
  schema?: SchemaNode;
  url: string;
  route: { method: string | string[]; config?: { permission?: unknown } };
  openapiObject: { components?: { schemas?: Record<string, SchemaNode> } };
}

/**
 * `@fastify/swagger`'s transform: what the document shows of a route, never what validates it. It
 * adds the description, the statuses every authenticated or body-reading route can answer, the
 * body formats Porter reads, and an example request and answer.
 */
export function documentRoute({ schema, url, route, openapiObject }: RouteToDocument): { schema?: SchemaNode } {
  if (!schema || schema.hide) return { schema };
  const method = Array.isArray(route.method) ? (route.method[0] ?? "GET") : route.method;
  const reference = OPERATIONS[operationKey(method, url)];
  const components = openapiObject.components?.schemas ?? {};
  const resolve = (ref: string) => components[ref.split("/").at(-1) ?? ref];
  const example = (node: SchemaNode, requiredOnly: boolean) =>
    exampleOf(node, { resolve, requiredOnly } satisfies ExampleOptions);

  const responses = { ...((schema.response ?? {}) as Record<string, SchemaNode>) };
  const statuses = [
    ...(route.config?.permission !== undefined ? AUTHENTICATED_STATUSES : []),
    ...(schema.body ? BODY_STATUSES : []),
    // A malformed id or query value is refused by the schema.
    ...(schema.params || schema.querystring ? [400] : []),
    // The child form answers `customer.not_found` for an account that is not the caller's child.
    ...(url.includes("/:customer_id/") ? [404] : []),
    ...(reference?.statuses ?? []),
  ];
  for (const status of statuses) responses[status] ??= { $ref: "ErrorBody" };
  for (const [status, response] of Object.entries(responses)) {
    const description = ERROR_STATUS_DESCRIPTIONS[Number(status)];
    if (description && response.$ref === "ErrorBody") responses[status] = { ...response, description };
  }
  const success = successStatus(responses);
  const answer = success ? responses[success] : undefined;
  if (success && answer && answer.type !== "null") {
    responses[success] = withExample(answer, example(answer, false));
  }

  const documented: SchemaNode = { ...schema, response: responses };
  if (reference) {
    documented.description = schema.description
      ? `${reference.description}\n\n${schema.description}`
      : reference.description;
  }
  if (schema.body) {
    const body = withoutDefaultedRequired(schema.body as SchemaNode);
    documented.body = withExample(body, reference?.requestExample ?? example(body, true));
    documented.consumes ??= BODY_TYPES;
  }
  if (schema.querystring) documented.querystring = withoutDefaultedRequired(schema.querystring as SchemaNode);
  return { schema: documented };
}
