import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../storage/schema.js";

/** What every use case needs from the outside world; built once per process. */
export interface DomainServices {
  db: Kysely<Database>;
  clock: Clock;
}

/** Whose data a request reads and writes: the acting account and the key's mode. */
export interface AccountScope {
  accountId: number;
  mode: "test" | "production";
}
