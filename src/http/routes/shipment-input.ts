import { usStateCodeOf } from "../../domain/addresses/usps-abbreviations.js";
import { DomainError } from "../../domain/errors.js";
import type { RateLocationIn } from "./shipment.schemas.js";

export const invalid = (message: string) => new DomainError("request.invalid", message);

/**
 * The address rules a JSON schema cannot say clearly: a recipient needs a first name or a
 * company, and a US address a real two-letter state. Country and state come back upper case.
 */
export function normalizeLocation<Location extends RateLocationIn>(location: Location, path: string): Location {
  if (!location.first_name?.trim() && !location.company?.trim()) {
    throw invalid(`${path} needs first_name or company.`);
  }
  const country = location.country.toUpperCase();
  const state = location.state.trim().toUpperCase();
  if (country === "US" && (state.length !== 2 || usStateCodeOf(state) !== state)) {
    throw invalid(`${path}.state must be the two-letter code of a US state or territory, got "${location.state}".`);
  }
  return { ...location, country, state };
}

/** `include_services` may mix integers and numeric strings. */
export function normalizeServiceIds(ids: readonly (number | string)[] | undefined): number[] | undefined {
  return ids?.map(Number);
}
