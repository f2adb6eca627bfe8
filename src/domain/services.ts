import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../storage/schema.js";
import type { SecretBox } from "../storage/secret-box.js";

/** What every use case needs from the outside world; built once per process. */
export interface DomainServices {
  db: Kysely<Database>;
  clock: Clock;
  /** Seals credentials and other secrets stored in the database. */
  secrets: SecretBox;
}

/** Whose data a request reads and writes: the acting account and the key's mode. */
export interface AccountScope {
  accountId: number;
  mode: "test" | "production";
}
