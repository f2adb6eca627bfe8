/**
 * Every error code Porter answers with, its HTTP status and what it means. The one table the
 * error handler reads; `docs/errors.md` is checked against it by a test.
 */
export interface ErrorKind {
  status: number;
  description: string;
}

export const ERROR_CATALOGUE = {
  "errors.insufficient_scope": {
    status: 401,
    description: "The API key is missing, malformed, unknown or revoked.",
  },
  "errors.forbidden": {
    status: 403,
    description:
      "The key's user lacks the permission the operation needs (docs/security.md, Roles: shipping, billing or administration).",
  },
  "errors.too_many_requests": {
    status: 429,
    description: "The API key already has the maximum number of requests in flight; retry after `Retry-After` seconds.",
  },
  "errors.internal": {
    status: 500,
    description:
      "An unexpected fault on the server. The response carries no detail; the log has it under the request id.",
  },
  "errors.unavailable": {
    status: 503,
    description:
      "A part of Porter (the database, the file store) failed or is not reachable; returned by `/readyz`, by any request while the database cannot be reached (a restart; `Retry-After: 5`), by any request that needs a stored file (`/files/…`, customs forms, inline label images) while the file store cannot be reached, and by a purchase or cancel whose recording failed after the carrier acted (voided, or repaired by a job), with `Retry-After`.",
  },
  "session.invalid_credentials": {
    status: 401,
    description: "Dashboard sign-in: the email address or the password is wrong (which one is not said).",
  },
  "session.invalid_link": {
    status: 401,
    description:
      "Dashboard sign-in: the sign-in link is unknown, already used or expired (links work once, for 15 minutes).",
  },
  "session.too_many_attempts": {
    status: 429,
    description:
      "Dashboard sign-in: too many failed attempts for this email address or from this client address; retry after `Retry-After` seconds (docs/dashboard.md).",
  },
  "session.csrf_failed": {
    status: 403,
    description:
      "A POST, PUT, PATCH or DELETE authenticated by the dashboard's session cookie lacks the session's `X-CSRF-Token` (docs/dashboard.md).",
  },
  "user.invalid_password": {
    status: 422,
    description: "A dashboard password has 12 to 256 characters.",
  },
  "route.not_found": { status: 404, description: "No route has this path." },
  "route.method_not_allowed": {
    status: 405,
    description: "The path exists but not with this HTTP method; `Allow` lists the methods it takes.",
  },
  "request.malformed_body": {
    status: 400,
    description:
      "The body cannot be parsed as its Content-Type says (JSON, XML or form), the Content-Type is not supported, or it does not match the body.",
  },
  "request.invalid": {
    status: 400,
    description:
      "The request does not match the operation's schema; the message names the field path and, for a field with a closed list of values, every value it takes (`shipment.label_format must be one of pdf, png, …`).",
  },
  "request.too_large": { status: 413, description: "The body is larger than `BODY_LIMIT_BYTES`." },
  "request.too_deep": {
    status: 400,
    description:
      "The body nests deeper than 32 levels (JSON objects and arrays, XML elements, or form bracket levels).",
  },
  "request.malformed_url": {
    status: 400,
    description: "The path cannot be decoded (a broken percent-escape or invalid UTF-8).",
  },
  "request.url_too_long": { status: 414, description: "A path segment is longer than 100 characters." },
  "request.headers_too_large": {
    status: 431,
    description: "The request line and headers together are larger than 16 KiB (a long query string counts).",
  },
  "request.malformed": {
    status: 400,
    description:
      "The HTTP message itself cannot be read: a malformed request line or header, or `Content-Length` together with `Transfer-Encoding`.",
  },
  "request.timeout": { status: 408, description: "The client did not send the whole request in time." },
  "idempotency.key_reused": {
    status: 409,
    description: "The `Idempotency-Key` was used before with a different request.",
  },
  "idempotency.in_progress": {
    status: 409,
    description: "A request with this `Idempotency-Key` is still running; retry when it has finished.",
  },
  "account.not_found": { status: 404, description: "No account with this id." },
  "customer.not_found": {
    status: 404,
    description: "No child account with this id belongs to the caller's account.",
  },
  "customer.nesting_not_allowed": {
    status: 403,
    description: "A child account cannot create child accounts of its own.",
  },
  "carrier_account.not_found": {
    status: 404,
    description: "No live carrier account with this id in the caller's account and mode.",
  },
  "carrier_account.unknown_carrier": { status: 422, description: "The carrier code is not one Porter knows." },
  "carrier_account.unknown_service": {
    status: 422,
    description: "An enabled service id does not belong to the carrier being connected.",
  },
  "carrier_account.already_connected": {
    status: 409,
    description: "The carrier is already connected in this mode; disconnect the old connection first.",
  },
  "carrier_account.mode_mismatch": {
    status: 422,
    description: "A carrier account is made in the mode of the key that creates it.",
  },
  "service.not_found": { status: 404, description: "No carrier service has this id." },
  "zone.unsupported_country": {
    status: 400,
    description: "Zones are measured between US postal codes (states, territories, military).",
  },
  "zone.invalid_postal_code": { status: 400, description: "A postal code is malformed or not a known US ZIP code." },
  "parcel.missing_parcels": {
    status: 500,
    description: "A shipment was created without parcels (status 500 kept for eHub compatibility).",
  },
  "shipment.not_found": { status: 404, description: "No shipment with this id in the caller's account and mode." },
  "shipment.service_unavailable": {
    status: 422,
    description: "The service id is unknown, or not enabled through the account's carrier accounts.",
  },
  "shipment.multi_parcel_unsupported": {
    status: 422,
    description: "The service takes one parcel per shipment; the message names the carrier.",
  },
  "shipment.package_type_unavailable": { status: 422, description: "The service does not offer this package type." },
  "shipment.address_line_too_long": {
    status: 422,
    description:
      "An address line (`address1`, `address2` or `address3` of `to_location`, `from_location` or `return_location`) is longer than the 35 characters UPS and FedEx take and print; the message names the field. Move the rest to the next line.",
  },
  "shipment.ship_date_invalid": {
    status: 422,
    description: "The ship date is in the past or further ahead than the carrier allows (USPS: 14 days).",
  },
  "shipment.option_unavailable": {
    status: 422,
    description:
      "A parcel service option does not apply (endorsement outside USPS, several hazmat types in one parcel).",
  },
  "shipment.insurance_unavailable": {
    status: 422,
    description:
      "The parcel's `service_options.insurance.amount` is above the carrier's limit (USPS 5,000.00; UPS, FedEx, DHL Express 50,000.00), or the carrier sells no coverage (DHL eCommerce).",
  },
  "shipment.return_unavailable": {
    status: 422,
    description:
      "The carrier or service sells no return label of this `return_type`: DHL Express returns are `print` only, USPS returns are Ground Advantage, Priority Mail and Priority Mail Express only, DHL eCommerce sells none through Porter.",
  },
  "shipment.label_option_invalid": {
    status: 422,
    description:
      "A label option the format does not support (label_scale with ZPL/EPL2), a label_scale outside 0.5–2, or a label_contents image that cannot be read.",
  },
  "shipment.label_format_unavailable": {
    status: 422,
    description:
      "The carrier of a real connection makes its labels itself and not in this label_format; the message names the formats it makes.",
  },
  "shipment.cancel_window_closed": {
    status: 409,
    description:
      "The carrier no longer accepts a void: USPS after 02:00 Central on the manifest day, test labels after a minute, or the shipment is manifested or already with the carrier. `error_message` is a JSON document, as for every cancel failure (see above).",
  },
  "shipment.already_cancelled": {
    status: 409,
    description:
      "The shipment is already cancel_pending or cancelled. `error_message` is a JSON document, as for every cancel failure (see above).",
  },
  "shipment.purchase_interrupted": {
    status: 409,
    description:
      "A retry with the same `Idempotency-Key` found that the first run stopped mid-purchase (its process died): what the carrier sold was voided and nothing was charged. Buy again with a new key.",
  },
  "shipments.too_many": { status: 400, description: "ship_multiple takes at most 10 shipments." },
  "shipments.invalid": {
    status: 400,
    description: "One shipment of a ship_multiple request is invalid; the message names its index. Nothing was bought.",
  },
  "batch.not_found": { status: 404, description: "No batch with this id in the caller's account and mode." },
  "batch.carrier_not_supported": {
    status: 422,
    description:
      "Only USPS and DHL eCommerce shipments can be batched, and FedEx Ground and Home Delivery shipments bought through a real FedEx connection (FedEx's end-of-day close); UPS and the sandbox FedEx have no manifests.",
  },
  "batch.mixed_carriers": {
    status: 422,
    description:
      "A batch takes the shipments of one carrier, bought through one connection (the sandbox's or a real account's).",
  },
  "batch.shipment_unavailable": {
    status: 409,
    description:
      "A shipment of the request is not one of the account's bought shipments in this mode, is cancelled, or the carrier already has it; the message names it.",
  },
  "batch.already_batched": {
    status: 409,
    description: "A shipment is already in a batch; the message names it and the batch.",
  },
  "batch.already_closed_out": {
    status: 409,
    description: "USPS closed the shipment out at its 02:00 Central close-out, so it cannot be manifested again.",
  },
  "batch.shipment_ineligible": {
    status: 422,
    description:
      "The carrier's manifest cannot take a shipment (an untracked service, another origin ZIP, a label dated after the form, a FedEx Express service or another ship date than the FedEx close's); the message names each with the reason.",
  },
  "pickup.not_found": { status: 404, description: "No pickup with this id in the caller's account and mode." },
  "pickup.carrier_not_supported": {
    status: 422,
    description:
      "The carrier does not pick up through Porter (DHL eCommerce), or does not through this connection; the message names it.",
  },
  "pickup.mixed_carriers": {
    status: 422,
    description: "A pickup is for the shipments of one carrier connection; the message names the carriers.",
  },
  "pickup.unavailable": {
    status: 422,
    description:
      "The carrier does not pick up on that day (USPS: Sundays, federal holidays, same day after 2:00 AM Central; couriers: weekends, same day after their local cut-off; past days) or at that address; the message says why and the next possible day.",
  },
  "pickup.shipment_unavailable": {
    status: 409,
    description: "A shipment of the pickup is cancelled or was never bought; the message names it.",
  },
  "pickup.already_cancelled": { status: 409, description: "The pickup is already cancelled." },
  "pickup.cancel_window_closed": {
    status: 409,
    description: "The pickup's day has passed; it can no longer be cancelled.",
  },
  "carrier.rejected": {
    status: 422,
    description:
      "The carrier refused the request (a purchase, void, pickup, or the credentials of a carrier account being connected); the message carries its words.",
  },
  "carrier.unavailable": {
    status: 503,
    description:
      "The carrier did not answer in time, failed (5xx, throttling, an answer Porter cannot read), or was not called: its calls keep failing, the connection's hourly call budget is spent, or the operator marked its API offline. The request did not take effect; retry after `Retry-After` seconds.",
  },
  "carrier.not_supported": {
    status: 422,
    description:
      "A real carrier connection (one with the carrier's API credentials) cannot do this through Porter yet; the message says what it can do.",
  },
  "carrier_account.credentials_invalid": {
    status: 422,
    description:
      "The credentials are not what the carrier's API needs; the message names the missing or malformed field.",
  },
  "customs.invalid": {
    status: 422,
    description: "Customs data is missing or wrong for the destination; the message names the field path.",
  },
  "label_preview.unavailable": {
    status: 422,
    description: "The label has no image preview: a PDF shows as it is, or its ZPL or EPL2 could not be drawn.",
  },
  "customs_form.not_found": {
    status: 404,
    description: "The shipment crosses no customs border, so it has no customs form.",
  },
  "tracking_event.not_gde": {
    status: 422,
    description:
      "Custom tracking events (codes 80, 81, 82) are accepted only on shipments of GDE services (a service code containing `_gde`).",
  },
  "tracking.not_trackable": {
    status: 409,
    description: "The shipment is cancelled or being cancelled: its label has no tracking.",
  },
  "tracking.complete": {
    status: 409,
    description: "The shipment was delivered or returned; its tracking has no further event to advance to.",
  },
  "tracking.status_unreachable": {
    status: 409,
    description: "The sandbox shipment cannot reach the named status from where its journey is.",
  },
  "sandbox.test_mode_only": { status: 403, description: "Sandbox controls work with test API keys only." },
  "sandbox.real_carrier": {
    status: 422,
    description: "The shipment was bought through a real carrier connection; the sandbox's controls do not move it.",
  },
  "adjustment.carrier_not_supported": {
    status: 422,
    description: "Only USPS parcels get postage adjustments (the sandbox adjust control).",
  },
  "adjustment.unknown_service": { status: 422, description: "`adj_service` is not a USPS service code." },
  "adjustment.not_priced": {
    status: 422,
    description:
      "USPS cannot carry the package as measured (too heavy, too large for the service …); the message says why.",
  },
  "adjustment.no_change": {
    status: 422,
    description: "The package as measured costs what its label paid, so USPS makes no adjustment.",
  },
  "adjustment.already_adjusted": {
    status: 409,
    description: "Every parcel of the shipment has been adjusted already.",
  },
  "parcel.not_found": { status: 404, description: "No parcel with this id in the shipment." },
  "label.not_found": { status: 404, description: "The parcel has no label file to show." },
  "file.not_found": { status: 404, description: "No stored file has this name." },
  "tracking_page.not_found": {
    status: 404,
    description: "No shipment's public tracking page has this token (`public_tracking_url`).",
  },
  "subscription.not_found": {
    status: 404,
    description: "No webhook subscription with this id in the caller's account and mode.",
  },
  "subscription.target_refused": {
    status: 422,
    description:
      "The webhook URL is not HTTPS, carries credentials, or points at a private or reserved network address (allowed only when the operator sets `OUTBOUND_ALLOW_PRIVATE_TARGETS`).",
  },
  "subscription.credentials_missing": {
    status: 422,
    description: "auth_type `http_basic` needs `http_username` and `http_password`.",
  },
  "subscription.type_unchangeable": {
    status: 422,
    description: "A subscription's `subscription_type` cannot change; create another subscription.",
  },
  "subscription.rewind_out_of_range": {
    status: 422,
    description: "`rewind_to_date` must lie between 30 days ago and now.",
  },
  "order_store.not_found": {
    status: 404,
    description: "No order store with this id in the caller's account and mode.",
  },
  "order_store.credentials_missing": {
    status: 422,
    description:
      "A platform store needs its credentials: Shopify `shop_domain` with `client_id` and `client_secret` (or a legacy `access_token`); WooCommerce `site_url`, `consumer_key` and `consumer_secret`.",
  },
  "order_store.credentials_invalid": {
    status: 422,
    description:
      "The platform store's credentials have the wrong shape: a Shopify `shop_domain` that is not the shop's `*.myshopify.com` domain, a WooCommerce `site_url` that is not an http(s) address.",
  },
  "order_store.not_custom": {
    status: 422,
    description: "Orders are created and updated through the API only in `custom` stores.",
  },
  "order_store.no_connector": {
    status: 422,
    description:
      "The store has no platform to sync from: it is a `custom` store, or Porter has no connector for its type yet.",
  },
  "order_store.platform_failed": {
    status: 422,
    description:
      "The store's platform refused the write-back of a shipment or its reversal (refused credentials, a missing permission, nothing left to fulfill) or did not answer; nothing was recorded, and the message carries the platform's words.",
  },
  "order_store.cancel_unsupported": {
    status: 422,
    description: "The store's platform cannot reverse a shipment written back to it; the shipment stays.",
  },
  "store_webhook.unverified": {
    status: 401,
    description:
      "A platform webhook delivery whose signature does not match its body with the store's webhook secret (or the store has no webhook secret).",
  },
  "order.not_found": { status: 404, description: "No order with this order number in the store." },
  "order.amount_too_large": {
    status: 422,
    description: "An order amount (or an item's price × quantity) is above 21,474,836.47, the most Porter stores.",
  },
  "order.not_shipped": { status: 409, description: "The order has no shipment left to cancel." },
  "order.item_not_found": {
    status: 422,
    description: "A shipment names an item (by `id`, `external_id`, `item_id` or `sku`) the order does not have.",
  },
  "order.item_over_shipped": {
    status: 422,
    description: "A shipment carries more of an item than is left of it to ship.",
  },
  "shipment.order_not_found": {
    status: 422,
    description:
      "A label's `order_items` name items of its `order_id`, but no order (or more than one) has that number in the account's order stores of the key's mode; nothing is bought.",
  },
  "order.duplicate_number": { status: 409, description: "The store already has an order with this `order_number`." },
  "payment_method.not_found": {
    status: 404,
    description: "No payment method with this id in the caller's account and mode.",
  },
  "payment_method.field_required": {
    status: 422,
    description:
      "A field the payment method's type needs is missing: `account_number`, `expiry` and `verification_code` for `cc`; `account_number`, `routing_number`, `bank_name`, `bank_account_type` and `account_holder_type` for `ach`.",
  },
  "payment_method.invalid_card_number": {
    status: 422,
    description: "The card number has no known issuer, the wrong length, or fails the Luhn check digit.",
  },
  "payment_method.invalid_expiry": { status: 422, description: "`expiry` is not a month and year as MMYY." },
  "payment_method.card_expired": {
    status: 422,
    description: "The card's expiry month is over.",
  },
  "payment_method.invalid_verification_code": {
    status: 422,
    description: "`verification_code` is not the card's 3 digits (4 for American Express).",
  },
  "payment_method.invalid_routing_number": {
    status: 422,
    description: "`routing_number` is not 9 digits passing the ABA checksum.",
  },
  "payment_method.invalid_account_number": {
    status: 422,
    description: "A bank `account_number` must be 4 to 17 digits.",
  },
  "payment_method.is_default": {
    status: 409,
    description:
      "The default payment method cannot be deleted; make another the default (or set `default_payment_method` false) first.",
  },
  "payment_method.in_use": {
    status: 409,
    description:
      "The payment method has a charge in flight (pending, or a bank charge that can still be returned); delete it once that is settled.",
  },
  "meter.insufficient_funds": {
    status: 402,
    description:
      "The meter's balance does not cover the label and no automatic refill covered it; no label was bought. Refill the meter (or set up automatic refills) and retry.",
  },
  "meter.refill_in_progress": {
    status: 409,
    description: "Another charge for this meter is still being made; retry once it is settled.",
  },
  "meter.invalid_settings": {
    status: 422,
    description:
      "Automatic refill needs both `refill_trigger_balance` and `refill_amount` (or neither), in whole cents; the amount between 1.00 and 10,000.00.",
  },
  "meter.invalid_amount": {
    status: 422,
    description: "A refill's `amount` must be whole cents between 1.00 and 10,000.00 dollars.",
  },
  "meter.no_default_payment_method": {
    status: 409,
    description:
      "Automatic refill charges the default payment method and the account has none: add a payment method (the first becomes the default) or make one the default, then turn automatic refill on.",
  },
  "meter.no_payment_method": {
    status: 409,
    description: "A refill needs a default payment method, or a `payment_method_id`.",
  },
  "meter.payment_declined": {
    status: 402,
    description: "The gateway declined the charge for a refill; the balance is unchanged.",
  },
  "delivery.not_found": { status: 404, description: "No delivery with this id belongs to the subscription." },
  "user.not_found": { status: 404, description: "No user with this id in the caller's account." },
  "user.email_taken": { status: 409, description: "Another user already has this email address." },
  "user.not_api_user": {
    status: 422,
    description: "Only users with the API role hold API keys.",
  },
  "user.last_administrator": {
    status: 422,
    description:
      "The change would leave the account without a user who may administer it (Primary or Owner): give another user one of those roles first.",
  },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function statusOf(code: string): number {
  return (ERROR_CATALOGUE as Record<string, ErrorKind>)[code]?.status ?? 500;
}

export interface ErrorBody {
  status: "error";
  error_code: string;
  error_message: string;
}

export function errorBody(code: string, message: string): ErrorBody {
  return { status: "error", error_code: code, error_message: message };
}
