import type { CarrierAddress } from "../../carrier.js";
import { zipParts } from "./usps-products.js";
import type { UspsAddressQuery, UspsAddressResponse } from "./usps-wire.js";

/** The `GET /addresses/v3/address` query for an address: street and state, with the city and ZIP given. */
export function addressQuery(address: CarrierAddress): UspsAddressQuery {
  const { ZIPCode, ZIPPlus4 } = zipParts(address.postal_code);
  return {
    ...(address.company?.trim() ? { firm: address.company.trim() } : {}),
    streetAddress: address.address1.trim(),
    ...(address.address2?.trim() ? { secondaryAddress: address.address2.trim() } : {}),
    ...(address.city.trim() ? { city: address.city.trim() } : {}),
    state: address.state.trim().toUpperCase(),
    ...(/^\d{5}$/.test(ZIPCode) ? { ZIPCode } : {}),
    ...(ZIPPlus4 ? { ZIPPlus4 } : {}),
  };
}

/** The query as URL search parameters. */
export function addressSearch(query: UspsAddressQuery): string {
  return new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  ).toString();
}

export interface UspsAddressVerdict {
  valid: boolean;
  /** Why the address is invalid or needs more, in USPS's words. */
  reasons: string[];
  /** The address as USPS standardizes it (the caller's other fields kept). */
  address: CarrierAddress;
  /** USPS's business flag turned around; null when USPS does not say. */
  residential: boolean | null;
}

const DPV_WORDS: Record<string, string> = {
  D: "USPS confirmed the building but the apartment or suite number is missing",
  S: "USPS confirmed the building but not the apartment or suite number given",
  N: "USPS could not confirm this address as a delivery point",
};

/**
 * USPS's answer as a verdict: an address USPS matched is valid unless its delivery point could
 * not be confirmed at all (DPV `N`); a missing or unconfirmed unit is a reason, not a refusal.
 */
export function addressVerdict(input: CarrierAddress, answer: UspsAddressResponse): UspsAddressVerdict {
  const found = answer.address ?? {};
  const dpv = answer.additionalInfo?.DPVConfirmation;
  const reasons = [
    ...(dpv && DPV_WORDS[dpv] ? [DPV_WORDS[dpv]] : []),
    ...(answer.corrections ?? []).map((c) => c.text).filter((t): t is string => Boolean(t)),
    ...(answer.warnings ?? []),
  ];
  const zip = found.ZIPCode ? `${found.ZIPCode}${found.ZIPPlus4 ? `-${found.ZIPPlus4}` : ""}` : input.postal_code;
  const business = answer.additionalInfo?.business;
  return {
    valid: dpv !== "N",
    reasons,
    address: {
      ...input,
      company: answer.firm ?? input.company ?? null,
      address1: found.streetAddress ?? input.address1,
      address2: found.secondaryAddress ?? input.address2 ?? null,
      city: found.city ?? input.city,
      state: found.state ?? input.state,
      postal_code: zip,
      country: "US",
    },
    residential: business === "Y" ? false : business === "N" ? true : null,
  };
}
