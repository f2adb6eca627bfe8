import type { Config } from "./config.js";
import type { DomainServices } from "./domain/services.js";
import type { Db } from "./storage/db.js";

/** Everything a process is built from; tests build it with their own clock and database. */
export interface AppServices extends DomainServices {
  config: Config;
  database: Db;
}
