import type { ColumnType, Generated } from "kysely";

/**
 * Table shapes shared by both engines. Timestamps are ISO 8601 UTC text (sortable, identical on
 * SQLite and PostgreSQL); booleans are 0/1 integers; structured values are JSON text.
 */
export interface AccountTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  email: string | null;
  phone: string | null;
  external_id: string | null;
  created_at: string;
  /** JSON of the customer template's fields that are no secret, null when none were given. */
  template_data: ColumnType<string | null, string | null | undefined, string | null>;
  /** An https URL of the logo the account's public tracking pages show; null: none. */
  tracking_page_logo_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** Auto-refill: below this balance (after a label) the default method is charged `refill_amount_cents`. */
  refill_trigger_cents: ColumnType<number | null, number | null | undefined, number | null>;
  refill_amount_cents: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UserTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  /** Comma-separated role names, e.g. `Owner,API`. */
  roles: string;
  created_at: string;
  /** `scrypt$N$r$p$salt$hash` (src/domain/accounts/passwords.ts); null: the user cannot sign in with one. */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DashboardSessionTable {
  id: Generated<number>;
  /** SHA-256 of the session id the cookie carries, hex; the id itself is never stored. */
  id_hash: string;
  user_id: number;
  acting_account_id: number;
  mode: "test" | "production";
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

export interface SignInLinkTable {
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ApiKeyTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  mode: "test" | "production";
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  key_hash: string;
  /** The visible start (`pk_test_`) and the last four characters, for masked display. */
  prefix: string;
  last4: string;
  created_at: string;
  revoked_at: string | null;
}

export interface IdempotencyKeyTable {
  account_id: number;
  mode: string;
  /** The user whose key made the request: a stored answer is replayed to that user only. */
  user_id: number;
  idempotency_key: string;
  /** Keyed fingerprint (HMAC) of method, path and body, so a body's secrets leave no plain hash. */
  request_hash: string;
  /** Stable across takeovers: what the request started (a purchase) is found again by it. */
  request_id: string;
  state: "in_progress" | "done";
  /** The process working on it (null once done); it renews `lease_until` while it lives. */
  holder: string | null;
  /** One per run of the request, so a late finish of a taken-over run changes nothing. */
  attempt: string;
  lease_until: string;
  response_status: number | null;
  /** The answer as stored; secrets it carried (API keys) are replaced by a shown-once marker. */
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface JobTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  state: "queued" | "running" | "done" | "failed";
  attempts: number;
  max_attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface CarrierAccountTable {
  id: Generated<number>;
  account_id: number;
  carrier_code: string;
  mode: "test" | "production";
  description: string | null;
  /** AES-256-GCM sealed JSON of the carrier credentials. */
  credentials_ciphertext: string;
  /** JSON array of service ids; null means every service of the carrier. */
  enabled_service_ids: string | null;
  created_at: string;
  disconnected_at: string | null;
}

/** The operator's word on a carrier API (rate, label, manifest, tracking, pickup); absent = online. */
export interface CarrierServiceStatusTable {
  carrier_code: string;
  api_service: string;
  status: "online" | "degraded" | "offline";
  message: string | null;
  updated_at: string;
}

export interface ShipmentTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  /** Not writable by an update: a status changes only through `moveShipment`, guarded by the lifecycle table. */
  status: ColumnType<string, string, never>;
  /** Why a shipment failed or was voided, in words. */
  status_reason: string | null;
  carrier_code: string;
  /** The connection that sold the labels; null for shipments bought before connections were recorded. */
  carrier_account_id: number | null;
  service_id: number;
  service_code: string;
  order_id: string | null;
  account_reference: string | null;
  /** JSON of the address as sent (after normalisation). */
  to_location: string;
  from_location: string;
  return_location: string | null;
  /** YYYY-MM-DD in the carrier's time zone. */
  ship_date: string;
  label_format: string;
  label_size: string;
  label_text1: string | null;
  label_text2: string | null;
  rate_cents: number;
  /** JSON array of cost lines for the whole shipment. */
  cost_details: string;
  zone: string | null;
  delivery_days: number | null;
  delivery_date: string | null;
  delivery_guaranteed: number;
  batch_id: number | null;
  shipped_at: string | null;
  /** When the carrier took the shipment onto a manifest (its batch's document, or the daily close-out). */
  manifested_at: string | null;
  cancel_requested_at: string | null;
  /** Journey time the sandbox's advance control moved this shipment's tracking ahead by. */
  tracking_shift_ms: ColumnType<number, number | undefined, number>;
  /** The 128-bit random token of the shipment's public tracking page; null for shipments from before it. */
  public_tracking_token: ColumnType<string | null, string | null | undefined, never>;
  /** The ending the advance control forced on the sandbox journey, if any. */
  tracking_outcome: string | null;
  /** A return label's payment: `print` (at purchase) or `scan_based` (at the first scan); null when outbound. */
  return_type: ColumnType<"print" | "scan_based" | null, "print" | "scan_based" | null | undefined, never>;
  /** The outbound shipment a return label was bought with (`with_return`), if any. */
  outbound_shipment_id: ColumnType<number | null, number | null | undefined, never>;
  /** When tracking is next read from the carrier; null once it has stopped. */
  tracking_refresh_at: string | null;
  /** The idempotent request that bought it (unique), so a retry after a crash finds it. */
  request_key: string | null;
  /** File name of the customs document the carrier made (DHL Express's commercial invoice), if any. */
  customs_document_file: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

/** Shipments per account, mode and status; written only by the triggers of migration 0035. */
export interface ShipmentCountTable {
  account_id: ColumnType<number, never, never>;
  mode: ColumnType<"test" | "production", never, never>;
  status: ColumnType<string, never, never>;
  n: ColumnType<number | string, never, never>;
}

export interface ParcelTable {
  id: Generated<number>;
  shipment_id: number;
  position: number;
  length: number;
  width: number;
  height: number;
  weight: number;
  package_type: string;
  name: string | null;
  status: string;
  tracking_number: string | null;
  /** What the main barcode encodes when it is not the tracking number (USPS 420+ZIP+PIC). */
  barcode_data: string | null;
  cost_cents: number;
  cost_details: string;
  /** JSON array of the parcel items as sent. */
  parcel_items: string;
  customs_data: string | null;
  service_options: string;
  /** The carrier's expected delivery day (YYYY-MM-DD). */
  estimated_delivery_date: string | null;
  /** When the carrier reported it delivered. */
  delivered_at: string | null;
  /** When the carrier last answered about it. */
  tracking_updated_at: string | null;
  /** Since when the carrier has not answered; null while it does. */
  tracking_stale_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface LabelTable {
  id: Generated<number>;
  parcel_id: number;
  shipment_id: number;
  format: string;
  size: string;
  dpi: number;
  width_in: number;
  height_in: number;
  content_type: string;
  /** `<128-bit random token>.<ext>`: the public, unguessable file name. */
  file_name: string;
  status: "active" | "voided";
  created_at: string;
}

/** The postage meter: signed amounts; held entries (refunds on hold) count once posted. */
export interface MeterEntryTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  /** `refill_return`: a refill's bank payment came back (ACH return), taking the refill back. */
  kind: "label_purchase" | "refund" | "adjustment" | "payment" | "refill" | "refill_return";
  amount_cents: number;
  shipment_id: number | null;
  description: string;
  /** `rejected`: a declined refill recorded before payment transactions kept them; never in the balance. */
  status: "posted" | "held" | "rejected";
  available_at: string;
  created_at: string;
  /** The method a refill charged. */
  payment_method_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The gateway's reference for the charge behind a refill. */
  gateway_reference: ColumnType<string | null, string | null | undefined, string | null>;
  /** The payment behind a refill or its return; on a label charge, the automatic refill the purchase made. */
  payment_transaction_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/**
 * A meter's balance kept on one row, changed in the same transaction as every ledger entry that
 * moves it (src/domain/meter/meter.repository.ts): the sums of the meter's posted and held entries.
 */
export interface MeterBalanceTable {
  account_id: number;
  mode: "test" | "production";
  posted_cents: number;
  held_cents: number;
  held_count: number;
}

/**
 * A failure where money moves that needs a repair (src/domain/incidents/money-incidents.ts): open
 * while `repaired_at` is null. `tracking_numbers` is a JSON array; `failure` says what failed.
 */
export interface MoneyIncidentTable {
  id: Generated<number>;
  kind: "labels_not_voided" | "refund_not_recorded" | "job_exhausted";
  account_id: number | null;
  mode: "test" | "production" | null;
  shipment_id: number | null;
  carrier_code: string | null;
  tracking_numbers: string;
  amount_cents: number | null;
  job_id: number | null;
  job_kind: string | null;
  failure: string;
  created_at: string;
  repaired_at: string | null;
  /** How it was repaired, once it was. */
  repair: string | null;
}

/**
 * One charge of a payment method: written `pending` before the gateway is called, then `accepted`
 * or `rejected`; an accepted ACH charge may come back `returned` days later.
 */
export interface PaymentTransactionTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  payment_method_id: number;
  /** `refill`: asked for with POST /meter/refill; `auto_refill`: made by a label purchase. */
  purpose: "refill" | "auto_refill";
  amount_cents: number;
  status: "pending" | "accepted" | "rejected" | "returned";
  /** Sent with the charge: the gateway charges once per key, so a charge retried after a crash is not doubled. */
  charge_key: string;
  gateway_reference: string | null;
  /** The gateway's words for a decline or a return. */
  reason: string | null;
  /** A bank charge can still be returned until then; null for cards. */
  return_check_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A USPS audit of one parcel: what the label said (`ship_*`), what the carrier measured (`adj_*`),
 * the postage of each in cents and the difference charged (positive) or refunded (negative) by its
 * ledger entry. Weights in ounces, sizes in inches.
 */
export interface ShipmentAdjustmentTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  shipment_id: number;
  parcel_id: number;
  meter_entry_id: number;
  /** `audit`: the sandbox carrier's own audit after acceptance; `requested`: the sandbox adjust control. */
  source: "audit" | "requested";
  tracking_number: string | null;
  external_id: string | null;
  shipped_at: string | null;
  from_country: string;
  from_postal_code: string;
  adj_from_postal_code: string;
  to_country: string;
  to_postal_code: string;
  ship_service: string;
  adj_service: string;
  ship_package: string;
  adj_package: string;
  ship_weight: number;
  adj_weight: number;
  ship_length: number;
  adj_length: number;
  ship_width: number;
  adj_width: number;
  ship_height: number;
  adj_height: number;
  ship_meter_cost_cents: number;
  adj_meter_cost_cents: number;
  meter_adj_cents: number;
  created_at: string;
}

/** A card or bank account: never its full number or CVV, only what may be shown and a sealed gateway token. */
export interface PaymentMethodTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  type: "cc" | "ach";
  holder_name: string | null;
  /** Card brand (`visa`, `amex` …) or, for a bank account, the bank's name. */
  brand: string;
  last4: string;
  expiry_month: number | null;
  expiry_year: number | null;
  bank_name: string | null;
  bank_account_type: string | null;
  account_holder_type: string | null;
  /** JSON of the billing address. */
  billing_location: string | null;
  /** The gateway's token for the instrument, sealed. */
  gateway_token: string;
  is_default: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** The outbox stream: append-only; `id` is the cursor subscriptions and the pull API read by. */
export interface EventTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  stream: "shipment_tracking" | "payment_status";
  /** JSON of one item of the webhook `payload` array. */
  payload: string;
  occurred_at: string;
  created_at: string;
}

/** The head of one account's stream in one mode; its row is the appenders' lock. */
export interface EventStreamTable {
  account_id: number;
  mode: "test" | "production";
  stream: "shipment_tracking" | "payment_status";
  last_event_id: number;
}

/** A webhook subscription: a cursor over its account's (and mode's) events of one stream. */
export interface WebhookSubscriptionTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  subscription_type: "shipment_tracking" | "payment_status";
  status: "active" | "error_disabled";
  url: string;
  payload_format: "json";
  auth_type: "hmac" | "http_basic";
  /** AES-256-GCM sealed signing secret; its last four characters for masked display. */
  hmac_secret_sealed: string | null;
  hmac_secret_last4: string | null;
  /** Sealed JSON `{username, password}`. */
  http_basic_sealed: string | null;
  /** Events with a greater id are still to be delivered. */
  cursor_event_id: number;
  /** The batch in flight (kept across retries so a retry re-sends the same message). */
  batch_through_id: number | null;
  batch_message_id: string | null;
  last_pushed_id: number | null;
  last_pushed_at: string | null;
  error_count: number;
  last_response_code: number | null;
  last_response_message: string | null;
  next_attempt_at: string;
  /** The delivering worker's lease: one worker per subscription at a time. */
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** One delivery attempt of a webhook message. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  subscription_id: number;
  /** The Standard Webhooks `webhook-id`: the same for every attempt of one message. */
  message_id: string;
  trigger: "stream" | "manual_retry";
  status: "pending" | "succeeded" | "failed";
  first_event_id: number;
  last_event_id: number;
  event_count: number;
  response_code: number | null;
  response_excerpt: string | null;
  error_message: string | null;
  latency_ms: number | null;
  created_at: string;
  completed_at: string | null;
}

/** One carrier manifest document (a USPS SCAN form, a DHL eCommerce manifest) and its shipments. */
export interface BatchTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  carrier_code: string;
  scope: "domestic" | "international";
  /** `pending` until the carrier's document is generated, then `generated`. */
  /** `refused`: the carrier refused its document for good, and its shipments were released. */
  status: "pending" | "generated" | "refused";
  /** YYYY-MM-DD (Central): the day the pieces are handed to the carrier. */
  mailing_date: string;
  origin_postal_code: string;
  /** The document's own number (USPS: the electronic file number). */
  tracking_number: string | null;
  document_file: string | null;
  /** Every label of the request in one PDF, when `include_merged` asked for it. */
  merged_file: string | null;
  errors: string | null;
  created_at: string;
  generated_at: string | null;
}

export interface PickupTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  carrier_code: string;
  status: "REQUESTED" | "CANCELLED";
  /** JSON of the pickup address. */
  location: string;
  /** YYYY-MM-DD */
  pickup_date: string;
  /** JSON arrays of ids. */
  shipment_ids: string;
  shipment_batch_ids: string;
  /** The carrier's confirmation number. */
  external_id: string;
  location_detail: string | null;
  special_instructions: string | null;
  package_count: number;
  weight_oz: number;
  created_at: string;
  updated_at: string;
  /** JSON of what the carrier needs besides `external_id` to cancel it; null when nothing. */
  carrier_details: string | null;
}

/** A parcel's tracking history: the carrier's events, and custom (GDE) events a client created. */
export interface TrackingEventTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  shipment_id: number;
  parcel_id: number;
  source: "carrier" | "custom";
  /** The carrier's position for the event; null for custom events. */
  sequence: number | null;
  /** The carrier's own code and words, beside the normalized status. */
  code: string;
  secondary_code: string | null;
  description: string;
  status: string;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  event_timestamp: string;
  created_at: string;
}

export interface Database {
  accounts: AccountTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  dashboard_sessions: DashboardSessionTable;
  sign_in_links: SignInLinkTable;
  idempotency_keys: IdempotencyKeyTable;
  jobs: JobTable;
  carrier_accounts: CarrierAccountTable;
  carrier_service_statuses: CarrierServiceStatusTable;
  shipments: ShipmentTable;
  shipment_counts: ShipmentCountTable;
  parcels: ParcelTable;
  labels: LabelTable;
  meter_entries: MeterEntryTable;
  meter_balances: MeterBalanceTable;
  money_incidents: MoneyIncidentTable;
  shipment_adjustments: ShipmentAdjustmentTable;
  payment_methods: PaymentMethodTable;
  payment_transactions: PaymentTransactionTable;
  events: EventTable;
  event_streams: EventStreamTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_deliveries: WebhookDeliveryTable;
  batches: BatchTable;
  pickups: PickupTable;
  tracking_events: TrackingEventTable;
  order_stores: OrderStoreTable;
  orders: OrderTable;
  order_items: OrderItemTable;
  order_shipments: OrderShipmentTable;
  store_webhook_deliveries: StoreWebhookDeliveryTable;
  order_shipment_items: OrderShipmentItemTable;
  carrier_call_counts: CarrierCallCountTable;
}

export interface OrderStoreTable {
  id: Generated<number>;
  account_id: number;
  mode: "test" | "production";
  name: string;
  service_type: "custom" | "shopify" | "woocommerce";
  external_id: string | null;
  /** Sealed JSON of the platform credentials (`{}` for a custom store). */
  credentials_sealed: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** When the last sync that read every page finished. */
  last_synced_at: string | null;
  /** null until the first sync; then queued, running, succeeded or failed. */
  sync_status: string | null;
  /** Why the last sync failed, in the platform's words. */
  sync_error: string | null;
  /** The newest platform update time imported: the next sync reads from there. */
  sync_cursor: string | null;
}

/** Amounts in integer cents; addresses are JSON text. */
export interface OrderTable {
  id: Generated<number>;
  order_store_id: number;
  order_number: string;
  /** The store's own id for the order (eHub's `order_id`). */
  store_order_id: string | null;
  external_id: string | null;
  order_date: string | null;
  payment_status: string | null;
  order_status: string | null;
  shipment_status: string;
  items_total_cents: number | null;
  tax_total_cents: number | null;
  shipping_total_cents: number | null;
  total_cents: number | null;
  /** ISO 4217 code of the amounts' currency (the store's own); null when the platform names none. */
  currency: string | null;
  /** ISO 4217 code of the currency the buyer paid in, only where it differs from `currency`. */
  presentment_currency: string | null;
  notes: string | null;
  tags: string | null;
  billing_address: string | null;
  shipping_address: string | null;
  external_customer_email: string | null;
  external_customer_id: string | null;
  shipping_method: string | null;
  ship_by_date: string | null;
  /** The platform's own last change of an imported order; null for custom orders. */
  platform_updated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderItemTable {
  id: Generated<number>;
  order_id: number;
  position: number;
  item_id: string | null;
  name: string | null;
  accounting_id: string | null;
  accounting_number: string | null;
  variant_name: string | null;
  image_src: string | null;
  external_id: string | null;
  alt_external_id: string | null;
  sku: string | null;
  variant_id: string | null;
  weight_oz: number | null;
  quantity: number | null;
  price_cents: number | null;
  cost_cents: number | null;
}

export interface OrderShipmentTable {
  id: Generated<number>;
  order_id: number;
  carrier: string;
  service: string;
  ship_date: string;
  tracking_number: string;
  weight_oz: number | null;
  shipping_cost_cents: number;
  /** 0/1 */
  notify: number;
  /** The platform's id for the written-back shipment (a Shopify fulfillment). */
  platform_shipment_id: string | null;
  /** The Porter shipment whose label shipped the order, when one did. */
  shipment_id: number | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A platform webhook delivery taken, so a second delivery of it changes nothing. */
export interface StoreWebhookDeliveryTable {
  id: Generated<number>;
  order_store_id: number;
  delivery_id: string;
  topic: string;
  received_at: string;
}

/** An item an order shipment carries; a shipment with none carries the whole order. */
export interface OrderShipmentItemTable {
  id: Generated<number>;
  order_shipment_id: number;
  /** The order item's key (see shipped-items.ts): items are replaced whole when an order changes. */
  item_key: string;
  quantity: number;
}

/** Calls a carrier app made to one API in one minute, shared by every process (see carrier-call-counts.ts). */
export interface CarrierCallCountTable {
  budget: string;
  purpose: string;
  /** Minutes since the epoch (UTC). */
  minute: number;
  calls: number;
}
