/**
 * Postal-code formats of the main destination countries. Outside the US this is a format check
 * only: the sandbox has no postal database for other countries, so a well-formed code that does
 * not exist still passes. Codes are compared upper case with surrounding spaces trimmed.
 */

/** ISO 3166-1 alpha-2, the 249 officially assigned codes (XK for Kosovo is user-assigned, not listed). */
const ISO_COUNTRY_CODES: ReadonlySet<string> = new Set(
  [
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ",
    "BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ",
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ",
    "DE DJ DK DM DO DZ",
    "EC EE EG EH ER ES ET",
    "FI FJ FK FM FO FR",
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY",
    "HK HM HN HR HT HU",
    "ID IE IL IM IN IO IQ IR IS IT",
    "JE JM JO JP",
    "KE KG KH KI KM KN KP KR KW KY KZ",
    "LA LB LC LI LK LR LS LT LU LV LY",
    "MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ",
    "NA NC NE NF NG NI NL NO NP NR NU NZ",
    "OM",
    "PA PE PF PG PH PK PL PM PN PR PS PT PW PY",
    "QA",
    "RE RO RS RU RW",
    "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ",
    "TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ",
    "UA UG UM US UY UZ",
    "VA VC VE VG VI VN VU",
    "WF WS",
    "YE YT",
    "ZA ZM ZW",
  ].flatMap((row) => row.split(" ")),
);

const US_ZIP = /^\d{5}(-\d{4})?$/;
const UK_POSTCODE = /^([A-Z]{1,2}\d[A-Z\d]?) ?\d[ABD-HJLNP-UW-Z]{2}$/;
const FIVE_DIGITS = /^\d{5}$/;
const FOUR_DIGITS = /^\d{4}$/;
const SIX_DIGITS = /^\d{6}$/;

/** Country → its postal-code format, from each postal operator's published format. */
const POSTAL_CODE_FORMATS: Readonly<Record<string, RegExp>> = {
  US: US_ZIP,
  // US territories with their own ISO code use ZIP codes too.
  PR: US_ZIP,
  VI: US_ZIP,
  GU: US_ZIP,
  AS: US_ZIP,
  MP: US_ZIP,
  CA: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/,
  MX: FIVE_DIGITS,
  GB: UK_POSTCODE,
  // Crown dependencies use UK-style postcodes (GY, JE, IM districts).
  GG: UK_POSTCODE,
  JE: UK_POSTCODE,
  IM: UK_POSTCODE,
  DE: FIVE_DIGITS,
  FR: FIVE_DIGITS,
  AU: FOUR_DIGITS,
  JP: /^\d{3}-?\d{4}$/,
  CN: SIX_DIGITS,
  IN: /^[1-9]\d{2} ?\d{3}$/,
  BR: /^\d{5}-?\d{3}$/,
  IT: FIVE_DIGITS,
  ES: /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/,
  // SA, SD and SS are not issued as Dutch letter pairs.
  NL: /^[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}$/,
  SE: /^\d{3} ?\d{2}$/,
  CH: FOUR_DIGITS,
  KR: FIVE_DIGITS,
  AT: FOUR_DIGITS,
  BE: FOUR_DIGITS,
  DK: FOUR_DIGITS,
  NO: FOUR_DIGITS,
  FI: FIVE_DIGITS,
  PL: /^\d{2}-\d{3}$/,
  PT: /^\d{4}-\d{3}$/,
  CZ: /^\d{3} ?\d{2}$/,
  SK: /^\d{3} ?\d{2}$/,
  GR: /^\d{3} ?\d{2}$/,
  HU: FOUR_DIGITS,
  RO: SIX_DIGITS,
  IL: /^\d{7}$/,
  TR: FIVE_DIGITS,
  RU: SIX_DIGITS,
  SG: SIX_DIGITS,
  NZ: FOUR_DIGITS,
  ZA: FOUR_DIGITS,
  TW: /^\d{3}(\d{2,3})?$/,
  TH: FIVE_DIGITS,
  MY: FIVE_DIGITS,
  ID: FIVE_DIGITS,
  PH: FOUR_DIGITS,
  VN: SIX_DIGITS,
  // Argentina's CPA (C1425ABC) or the older four-digit code.
  AR: /^([A-HJ-NP-Z]\d{4}[A-Z]{3}|\d{4})$/,
  CL: /^\d{7}$/,
  CO: SIX_DIGITS,
  // Eircodes are optional on Irish mail, so an empty code is valid too (see below).
  IE: /^([AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}$/,
};

/**
 * Countries whose mail has no postal codes. Carriers ignore the field, and shipping forms often
 * force a placeholder such as "000000", so any value, empty included, is accepted.
 */
const COUNTRIES_WITHOUT_POSTAL_CODES: ReadonlySet<string> = new Set([
  "AE",
  "AG",
  "AO",
  "AW",
  "BS",
  "BZ",
  "CW",
  "FJ",
  "GD",
  "GY",
  "HK",
  "KI",
  "KN",
  "MO",
  "QA",
  "SB",
  "SR",
  "TV",
  "VU",
  "YE",
  "ZW",
]);

/** Countries where sending no postal code is acceptable; a code that is given must still be well formed. */
const OPTIONAL_POSTAL_CODES: ReadonlySet<string> = new Set(["IE"]);

/** A plausible code for a country without a format here: 2 to 10 letters, digits, spaces or hyphens. */
const ANY_POSTAL_CODE = /^[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]$/;

export function isKnownCountry(code: string): boolean {
  return ISO_COUNTRY_CODES.has(code.trim().toUpperCase());
}

/**
 * Whether `postalCode` is well formed for `country` (ISO 3166-1 alpha-2). Unknown countries are
 * never valid; countries without a listed format get the generic `ANY_POSTAL_CODE` check.
 */
export function isValidPostalCode(country: string, postalCode: string): boolean {
  const countryCode = country.trim().toUpperCase();
  const code = postalCode.trim().toUpperCase();
  if (!ISO_COUNTRY_CODES.has(countryCode)) return false;
  if (COUNTRIES_WITHOUT_POSTAL_CODES.has(countryCode)) return true;
  if (code === "") return OPTIONAL_POSTAL_CODES.has(countryCode);
  return (POSTAL_CODE_FORMATS[countryCode] ?? ANY_POSTAL_CODE).test(code);
}
