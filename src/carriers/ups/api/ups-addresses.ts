import type { CarrierAddress } from "../../carrier.js";
import { many } from "./ups-charges.js";
import type { UpsAddressKeyFormat, UpsXavRequest, UpsXavResponse } from "./ups-wire.js";

/** Street-level validation with classification (XAV request option 3). */
export const XAV_VALIDATE_AND_CLASSIFY = "3";

/** A Porter address as UPS's AddressKeyFormat; ZIP+4 split into its two parts. */
export function xavRequest(address: CarrierAddress): UpsXavRequest {
  const country = address.country.trim().toUpperCase();
  const postal = address.postal_code.trim();
  const zip = /^(\d{5})-?(\d{4})?$/.exec(postal);
  const consignee = address.company?.trim() || [address.first_name, address.last_name].filter(Boolean).join(" ");
  return {
    XAVRequest: {
      AddressKeyFormat: {
        ...(consignee ? { ConsigneeName: consignee.slice(0, 40) } : {}),
        AddressLine: [address.address1, address.address2].filter((l): l is string => Boolean(l?.trim())),
        PoliticalDivision2: address.city.trim(),
        PoliticalDivision1: address.state.trim().toUpperCase(),
        ...((country === "US" || country === "PR") && zip
          ? { PostcodePrimaryLow: zip[1]!, ...(zip[2] ? { PostcodeExtendedLow: zip[2] } : {}) }
          : { PostcodePrimaryLow: postal }),
        CountryCode: country,
      },
    },
  };
}

/** What UPS said of an address: whether it is deliverable as given, its standard form, and whether it is a home. */
export interface UpsAddressVerdict {
  valid: boolean;
  /** UPS's reasons in words, when the address is not valid as given. */
  reasons: string[];
  /** UPS's best candidate (the address as sent when UPS has none). */
  address: CarrierAddress;
  /** true residential, false commercial, null when UPS could not classify it. */
  residential: boolean | null;
}

function classification(code: string | undefined): boolean | null {
  if (code === "2") return true;
  if (code === "1") return false;
  return null;
}

function fromKeyFormat(key: UpsAddressKeyFormat, original: CarrierAddress): CarrierAddress {
  const lines = key.AddressLine ?? [];
  const zip = key.PostcodePrimaryLow
    ? `${key.PostcodePrimaryLow}${key.PostcodeExtendedLow ? `-${key.PostcodeExtendedLow}` : ""}`
    : original.postal_code;
  return {
    ...original,
    address1: lines[0] ?? original.address1,
    address2: lines[1] ?? null,
    city: key.PoliticalDivision2 ?? original.city,
    state: key.PoliticalDivision1 ?? original.state,
    postal_code: zip,
    country: key.CountryCode ?? original.country,
  };
}

/**
 * XAV's answer as a verdict: valid when UPS found a match (`ValidAddressIndicator`); ambiguous
 * (several candidates) or no candidates is invalid, with the reason. Throws when unreadable.
 */
export function addressVerdict(answer: unknown, original: CarrierAddress): UpsAddressVerdict {
  const xav = (answer as Partial<UpsXavResponse> | null)?.XAVResponse;
  if (!xav?.Response) throw new TypeError("no XAVResponse in the Address Validation answer");
  const candidates = many(xav.Candidate);
  const first = candidates[0];
  const residential = classification(first?.AddressClassification?.Code ?? xav.AddressClassification?.Code);
  const address = first ? fromKeyFormat(first.AddressKeyFormat, original) : original;
  if (xav.ValidAddressIndicator !== undefined && first) return { valid: true, reasons: [], address, residential };
  const reasons =
    xav.AmbiguousAddressIndicator !== undefined
      ? [`UPS found ${candidates.length} addresses that could be meant; the first is suggested.`]
      : ["UPS found no address that matches."];
  return { valid: false, reasons, address, residential };
}
