import { findCarrier, findService } from "../../carriers/registry.js";
import { isUsDomestic } from "../../carriers/sandbox/us-domestic.js";
import { ZoneLookupError } from "../../carriers/sandbox/zones.js";
import { DomainError, notFound } from "../errors.js";

export interface ZoneQuestion {
  serviceId: number;
  fromCountry: string;
  fromPostalCodes: readonly string[];
  toCountry: string;
  toPostalCode: string;
}

/** The zone from each origin postal code to one destination, as the service's carrier counts zones. */
export function findZones(question: ZoneQuestion): { postalCode: string; zone: string }[] {
  const service = findService(question.serviceId);
  if (!service) throw notFound("service", question.serviceId);
  const carrier = findCarrier(service.carrierCode);
  if (!carrier) throw notFound("service", question.serviceId);
  for (const country of [question.fromCountry, question.toCountry]) {
    if (!isUsDomestic(country)) {
      throw new DomainError("zone.unsupported_country", `Zones are measured between US postal codes, not ${country}.`);
    }
  }
  try {
    return question.fromPostalCodes.map((postalCode) => ({
      postalCode,
      zone: carrier.zone(postalCode, question.toPostalCode),
    }));
  } catch (error) {
    if (error instanceof ZoneLookupError) {
      throw new DomainError("zone.invalid_postal_code", `${error.postalCode} is not a known US ZIP code.`);
    }
    throw error;
  }
}
