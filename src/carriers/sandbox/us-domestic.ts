/**
 * Destinations the US carriers treat as domestic: the states, DC, the territories and the
 * Freely Associated States, whether written as country `US` or as their own ISO code
 * (territories and APO/FPO use domestic postal services).
 */
const US_POSTAL_COUNTRIES = new Set(["US", "PR", "VI", "GU", "AS", "MP", "FM", "MH", "PW", "UM"]);

export function isUsDomestic(country: string): boolean {
  return US_POSTAL_COUNTRIES.has(country.toUpperCase());
}
