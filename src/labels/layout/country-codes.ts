/**
 * ISO 3166-1 numeric codes of common destinations, for the UPS MaxiCode primary message (which
 * wants the numeric code). Unlisted countries print 000 ⚠: the MaxiCode still scans, but a real
 * UPS sorter would route the parcel by its address instead.
 */
const NUMERIC_COUNTRY_CODES: Record<string, string> = {
  US: "840",
  CA: "124",
  MX: "484",
  PR: "630",
  GB: "826",
  IE: "372",
  DE: "276",
  FR: "250",
  NL: "528",
  BE: "056",
  LU: "442",
  ES: "724",
  PT: "620",
  IT: "380",
  AT: "040",
  CH: "756",
  DK: "208",
  SE: "752",
  NO: "578",
  FI: "246",
  PL: "616",
  CZ: "203",
  AU: "036",
  NZ: "554",
  JP: "392",
  KR: "410",
  CN: "156",
  HK: "344",
  SG: "702",
  TW: "158",
  IN: "356",
  IL: "376",
  AE: "784",
  BR: "076",
  AR: "032",
  CL: "152",
  CO: "170",
  ZA: "710",
};

export function numericCountryCode(alpha2: string): string {
  return NUMERIC_COUNTRY_CODES[alpha2.toUpperCase()] ?? "000";
}

const REGION_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
/** Where the common English name does not read as a postal one. */
const POSTAL_NAMES: Record<string, string> = {
  CD: "CONGO, DEMOCRATIC REPUBLIC OF THE",
  CG: "CONGO, REPUBLIC OF THE",
};

/**
 * A country as the last line of an address prints it (UPU S42): its English name in capitals,
 * `CA` → `CANADA`. Qualifiers the short name carries are dropped (`Hong Kong SAR China`,
 * `Myanmar (Burma)`); an unknown code prints as given.
 */
export function countryName(alpha2: string): string {
  const code = alpha2.trim().toUpperCase();
  const postal = POSTAL_NAMES[code];
  if (postal) return postal;
  const name = /^[A-Z]{2}$/.test(code) ? REGION_NAMES.of(code) : undefined;
  if (!name || name === "Unknown Region") return code;
  return name
    .replace(/\s*\(.*\)$/, "")
    .replace(/ SAR China$/, "")
    .toUpperCase();
}
