import { isUsDomestic } from "../../carriers/sandbox/us-domestic.js";
import { classifyAddress } from "./classify-address.js";
import { isKnownCountry, isValidPostalCode } from "./postal-codes.js";
import { type AddressInput, type StandardizedAddress, standardizeUsAddress } from "./standardize-address.js";

/**
 * US addresses (and territories written as US) are standardized against the ZIP data the USPS
 * way; elsewhere only the country and the format of its postal code can be checked.
 */
export function validateAddress(input: AddressInput): StandardizedAddress {
  const country = input.country.trim().toUpperCase();
  if (country === "US") return standardizeUsAddress({ ...input, country });
  const reasons: string[] = [];
  if (!isKnownCountry(country)) reasons.push(`${input.country} is not an ISO 3166-1 country code`);
  else if (!isValidPostalCode(country, input.postal_code)) {
    reasons.push(`${input.postal_code} is not a valid postal code for ${country}`);
  }
  if (isUsDomestic(country)) {
    // A territory by its own ISO code: check it as a US address, keep the caller's country.
    const asUs = standardizeUsAddress({ ...input, country: "US" });
    return { ...asUs, address: { ...asUs.address, country }, hasUpdate: asUs.hasUpdate || country !== input.country };
  }
  return {
    isValid: reasons.length === 0,
    reasons,
    address: { ...input, country, residential: classifyAddress(input) === "residential" },
    hasUpdate: country !== input.country,
  };
}
