import { isDatabaseUnreachable } from "../storage/db.js";
import { FileStoreUnavailable } from "../storage/files/file-store.js";

/**
 * A business outcome the caller must hear about: an unknown id, a forbidden action, a state that
 * does not allow the request. `code` is the stable wire `error_code`; the HTTP layer decides the
 * status from it. Anything that is not a DomainError is a bug or an infrastructure fault.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** For an outcome that passes (a carrier outage): the seconds after which a retry may succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export function notFound(resource: string, id: string | number): DomainError {
  return new DomainError(`${resource}.not_found`, `No ${resource.replaceAll("_", " ")} with id ${id}.`);
}

/**
 * A part of Porter (its database, its file store) failed where money had already moved, after the
 * fact was recorded for repair: the caller hears 503 and may retry, not a 500.
 */
export function partUnavailable(message: string, retryAfterSeconds = 30): DomainError {
  return new DomainError("errors.unavailable", message, retryAfterSeconds);
}

/** Seconds a client waits before retrying a request the database could not serve (a restart takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Seconds a client waits before retrying a request the file store could not serve. */
export const FILE_STORE_RETRY_AFTER_SECONDS = 10;

/**
 * A failure of a part Porter depends on, as the 503 clients retry, or undefined for anything
 * else: a file store that cannot be reached fails reading a label the same way as buying one, and
 * a database that cannot be reached (restarting) fails every request the same way.
 */
export function asPartUnavailable(error: unknown): DomainError | undefined {
  if (error instanceof FileStoreUnavailable) {
    return partUnavailable(
      "Stored files cannot be reached right now; try again shortly.",
      FILE_STORE_RETRY_AFTER_SECONDS,
    );
  }
  if (isDatabaseUnreachable(error)) {
    return partUnavailable(
      "The database cannot be reached right now; try again shortly.",
      DATABASE_RETRY_AFTER_SECONDS,
    );
  }
  return undefined;
}
