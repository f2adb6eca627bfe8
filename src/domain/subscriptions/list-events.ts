import { type EventRow, readAccountEvents } from "../../events/events.repository.js";
import type { EventStream } from "../../events/outbox.js";
import type { AccountScope, DomainServices } from "../services.js";

/** The account's events after a cursor, oldest first: how a receiver that was down catches up. */
export function listEvents(
  services: DomainServices,
  scope: AccountScope,
  after: number,
  limit: number,
  stream?: EventStream,
): Promise<EventRow[]> {
  return readAccountEvents(services.db, scope, after, limit, stream);
}
