import type { Generated } from "kysely";

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
  idempotency_key: string;
  request_hash: string;
  state: "in_progress" | "done";
  response_status: number | null;
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

export interface Database {
  accounts: AccountTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  idempotency_keys: IdempotencyKeyTable;
  jobs: JobTable;
  carrier_accounts: CarrierAccountTable;
  carrier_service_statuses: CarrierServiceStatusTable;
}
