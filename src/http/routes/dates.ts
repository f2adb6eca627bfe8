import { DomainError } from "../../domain/errors.js";

const invalid = (field: string, value: string) =>
  new DomainError(
    "request.invalid",
    `${field} "${value}" is not a date; use YYYY-MM-DD, DD-MM-YYYY or ISO 8601 (YYYY-MM-DDThh:mm:ssZ).`,
  );

/**
 * eHub's date forms: `YYYY-MM-DD`, `DD-MM-YYYY`, `YYYY-MM-DD hh:mm:ss [AM|PM]`
 * and ISO 8601. A time without an offset is UTC. Returns the instant.
 */
export function parseInstant(field: string, value: string): Date {
  const text = value.trim();
  let match = /^(\d{2})-(\d{2})-(\d{4})(.*)$/.exec(text);
  const normalized = match ? `${match[3]}-${match[2]}-${match[1]}${match[4]}` : text;
  match = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM|am|pm)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
    normalized,
  );
  let iso: string;
  if (match) {
    let hour = Number(match[2]);
    const meridiem = match[5]?.toUpperCase();
    if (meridiem === "PM" && hour < 12) hour += 12;
    if (meridiem === "AM" && hour === 12) hour = 0;
    iso = `${match[1]}T${String(hour).padStart(2, "0")}:${match[3]}:${match[4] ?? "00"}${match[6] ?? "Z"}`;
  } else if (/^\d{4}-\d{2}-\d{2}$/.test(normalized)) {
    iso = `${normalized}T00:00:00Z`;
  } else {
    iso = normalized;
  }
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(iso)) throw invalid(field, value);
  if (date.toISOString().slice(0, 10) !== iso.slice(0, 10) && !/[+-]\d{2}:?\d{2}$/.test(iso))
    throw invalid(field, value);
  return date;
}

/** A calendar date (YYYY-MM-DD) from any of the accepted forms, taken as written. */
export function parseCalendarDate(field: string, value: string): string {
  const text = value.trim();
  const dayFirst = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  const day = dayFirst ? `${dayFirst[3]}-${dayFirst[2]}-${dayFirst[1]}` : text.slice(0, 10);
  const date = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw invalid(field, value);
  }
  return day;
}
