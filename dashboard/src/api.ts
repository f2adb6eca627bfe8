/** The dashboard's calls: the same /api/v2 routes as API keys, authenticated by the session cookie. */

export type Permission = "shipping" | "billing" | "administration";

export interface Session {
  user: { id: number; email: string; roles: string[] };
  permissions: Permission[];
  account: { id: number; name: string; parent_id: number | null };
  own_account: { id: number; name: string };
  mode: "test" | "production";
  csrf_token: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = "";

/** Every change made with the session carries its CSRF token (docs/dashboard.md). */
export function rememberSession(session: Session): Session {
  csrfToken = session.csrf_token;
  return session;
}

export interface Answer<T> {
  body: T;
  headers: Headers;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET") headers["x-csrf-token"] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new ApiError(
      response.status,
      parsed?.error_code ?? "unknown",
      parsed?.error_message ?? `The server answered ${response.status}.`,
    );
  }
  return { body: parsed as T, headers: response.headers };
}

export const api = {
  get: async <T>(path: string) => (await call<T>("GET", path)).body,
  send: async <T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown) =>
    (await call<T>(method, path, body)).body,
};

export interface Address {
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  address1: string;
  address2?: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  phone?: string | null;
  email?: string | null;
}

export interface TrackingEvent {
  tracking_event_id: number;
  event_date: string;
  status: string;
  description: string | null;
  city: string | null;
  state: string | null;
}

export interface Parcel {
  id: number;
  tracking_number: string | null;
  status: string;
  weight: number;
  length: number;
  width: number;
  height: number;
  postage_label: { image_url: string | null; file_format: string; status: string } | null;
}

export interface Shipment {
  id: number;
  status: string;
  tracking_number: string | null;
  order_id: number | string | null;
  created_at: string;
  ship_date: string | null;
  to_location: Address;
  from_location: Address;
  parcels: Parcel[];
  shipping_service: { service: string; carrier_code: string; rate: number; delivery_date: string | null } | null;
  tracking_info: {
    status: string;
    estimated_delivery_date: string | null;
    delivery_date: string | null;
    tracking_events: TrackingEvent[];
  } | null;
  payment: { amount: number; currency: string; payment_method_id: number | null } | null;
}

export interface ServiceRate {
  service: string;
  service_id: number;
  carrier_code: string;
  rate: number;
  delivery_days: number | null;
}

export const money = (amount: number | null | undefined) =>
  amount === null || amount === undefined ? "—" : `$${amount.toFixed(2)}`;

/** A file URL of the API as a path on this origin: the page's policy loads and frames nothing from another. */
export const sameOriginPath = (url: string) => new URL(url, window.location.href).pathname;

const carrierDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" });
/** Today as carriers date labels and pickups, US Central (docs/batches-and-pickups.md), as YYYY-MM-DD. */
export const carrierToday = () => carrierDay.format(new Date());

/** What a page shows of a failed call: the API's error_message, or the browser's own words. */
export const failureMessage = (failure: unknown) => (failure instanceof ApiError ? failure.message : String(failure));

export interface OrderStore {
  id: number;
  name: string;
  service_type: string;
}

export interface StoreSync {
  order_store_id: number;
  status: string | null;
  error: string | null;
  last_synced_at: string | null;
}

/** An order item as the retrieve answer shows it (the list answer has quantities as text). */
export interface OrderItem {
  id: number;
  name: string | null;
  sku: string | null;
  quantity: number | string | null;
  shipped_quantity: number;
  remaining_quantity: number;
}

export interface Order {
  id: number;
  order_number: string;
  order_store_name: string;
  order_date: string | null;
  payment_status: string | null;
  shipment_status: string;
  total: string | null;
  currency: string | null;
  items: OrderItem[];
  shipping_address: Address;
  warnings: string[];
  shipments: {
    id: number;
    carrier: string;
    service: string;
    ship_date: string;
    tracking_number: string;
    shipping_cost: string | null;
    parcels: { parcel_items: { id: string; name: string | null; quantity: number }[] }[];
  }[];
}

/** A time as the API gives it (UTC), to the second. */
export const utcTime = (iso: string | null) => (iso ? `${iso.slice(0, 19).replace("T", " ")} UTC` : "—");

export interface PaymentMethod {
  id: number;
  type: "cc" | "ach";
  account_number: string;
  brand: string;
  expiry_month: number | null;
  expiry_year: number | null;
  default_payment_method: boolean;
}

/** A method as the pages name it: its brand (or bank) and the last four digits, never more. */
export const methodName = (method: PaymentMethod) => `${method.brand} ending ${method.account_number}`;
