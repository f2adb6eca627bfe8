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

/** What an alert says of a failed call: the API's own message, or the browser's. */
export const failureMessage = (failure: unknown) => (failure instanceof ApiError ? failure.message : String(failure));

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
