/**
 * US address standardization the way USPS Publication 28 writes addresses, for eHub's
 * `validate_address`: upper case, no punctuation, standard abbreviations, and the city and
 * state the ZIP code belongs to. The sandbox has ZIP5 data only, so it never adds a ZIP+4 and cannot
 * tell whether a house number or a missing apartment exists.
 */
import { lookupZip, type ZipLocation } from "../../carriers/sandbox/zones.js";
import { classifyAddress } from "./classify-address.js";
import { DIRECTIONALS, SECONDARY_UNIT_DESIGNATORS, STREET_SUFFIXES, usStateCodeOf } from "./usps-abbreviations.js";

export interface AddressInput {
  address1: string;
  address2?: string;
  address3?: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  company?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  email?: string;
}

export interface StandardizedAddressFields extends AddressInput {
  residential: boolean;
}

export interface StandardizedAddress {
  isValid: boolean;
  /** Why the address is invalid; empty when it is valid. */
  reasons: string[];
  address: StandardizedAddressFields;
  /** True when any returned field differs from the one sent (eHub's `has_update`). */
  hasUpdate: boolean;
}

const COMPARED_FIELDS = [
  "company",
  "first_name",
  "last_name",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "postal_code",
  "country",
  "phone",
  "email",
] as const satisfies readonly (keyof AddressInput)[];

/** Pub 28 §24 to §29: delivery lines without a house number, as written → their standard prefix. */
const NON_STREET_PREFIXES: readonly (readonly [spelling: readonly string[], standard: string])[] = [
  [["PO", "BOX"], "PO BOX"],
  [["P", "O", "BOX"], "PO BOX"],
  [["POST", "OFFICE", "BOX"], "PO BOX"],
  [["POBOX"], "PO BOX"],
  [["RR"], "RR"],
  [["RURAL", "ROUTE"], "RR"],
  [["RURAL", "RTE"], "RR"],
  [["RFD"], "RR"],
  [["HC"], "HC"],
  [["HIGHWAY", "CONTRACT"], "HC"],
];

const GENERAL_DELIVERY = "GENERAL DELIVERY";
const ZIP_FORMAT = /^(\d{5})(?:[ -]?(\d{4}))?$/;

interface SecondaryUnit {
  designator: string;
  range?: string;
}

interface DeliveryLine {
  primary: string;
  /** A secondary unit written after the street on address1, moved to address2. */
  secondary?: string;
  problem?: string;
}

interface LastLine {
  city: string;
  state: string;
  postal_code: string;
  problems: string[];
}

/**
 * Standardizes a US address and says whether it is deliverable as far as the sandbox can tell. An
 * invalid address still comes back with every field that could be standardized. Contact fields
 * (company, names, phone, email) are not postal data and are returned as sent.
 */
export function standardizeUsAddress(input: AddressInput): StandardizedAddress {
  const deliveryLine = standardizeDeliveryLine(input.address1);
  const { problems: lastLineProblems, ...lastLine } = standardizeLastLine(input);
  const country = input.country.trim().toUpperCase();
  const fields: AddressInput = {
    company: input.company,
    first_name: input.first_name,
    last_name: input.last_name,
    address1: deliveryLine.primary,
    address2: joinLines(deliveryLine.secondary, standardizeSecondaryLine(input.address2)),
    address3: standardizeSecondaryLine(input.address3),
    ...lastLine,
    country,
    phone: input.phone,
    email: input.email,
  };
  const reasons = [deliveryLine.problem, ...lastLineProblems, countryProblem(country)].filter(isPresent);
  return {
    isValid: reasons.length === 0,
    reasons,
    address: { ...fields, residential: classifyAddress(fields) === "residential" },
    hasUpdate: differs(input, fields),
  };
}

/**
 * Pub 28 §212: upper case, no punctuation except `#`, the hyphen next to a digit (`123-45`, `4-B`)
 * and the slash of a fraction (`1/2`), accents dropped, single spaces.
 */
function normalizeText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[.'’]/g, "")
    .replace(/#/g, " # ")
    .replace(/(?<!\d)-(?!\d)/g, " ")
    .replace(/(?<!\d)\/|\/(?!\d)/g, " ")
    .replace(/[^A-Z0-9#/ -]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function wordsOf(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === "" ? [] : normalized.split(" ");
}

function standardizeDeliveryLine(address1: string): DeliveryLine {
  const words = wordsOf(address1);
  const nonStreetLine = standardizeNonStreetLine(words);
  if (nonStreetLine !== undefined) return { primary: nonStreetLine };

  const houseNumber = words[0] !== undefined && /\d/.test(words[0]) ? words[0] : undefined;
  const { street, units } = splitOffUnits(houseNumber === undefined ? words : words.slice(1));
  const primary = [houseNumber, ...standardizeStreet(street)].filter(isPresent).join(" ");
  const secondary = units.length > 0 ? formatUnits(units) : undefined;
  return { primary, secondary, problem: deliveryLineProblem(houseNumber, street) };
}

function deliveryLineProblem(houseNumber: string | undefined, street: readonly string[]): string | undefined {
  if (houseNumber === undefined) {
    return "address1 has no house number and is not a PO BOX, rural route or general delivery address";
  }
  return street.length === 0 ? "address1 has no street name" : undefined;
}

/** A PO BOX, rural route, highway contract or general delivery line, standardized; else undefined. */
function standardizeNonStreetLine(words: readonly string[]): string | undefined {
  if (words.join(" ") === GENERAL_DELIVERY) return GENERAL_DELIVERY;
  for (const [spelling, standard] of NON_STREET_PREFIXES) {
    if (!spelling.every((word, index) => words[index] === word)) continue;
    const rest = words.slice(spelling.length);
    // "PO BOX #12": the pound sign adds nothing to a box number.
    if (rest[0] === "#") rest.shift();
    if (rest[0] !== undefined && /\d/.test(rest[0])) return [standard, ...rest].join(" ");
  }
  return undefined;
}

/**
 * Splits the words after the house number into the street and the trailing secondary units
 * ("MAIN STREET APARTMENT 4" → "MAIN STREET" and APT 4). The street keeps at least one word. A unit
 * without a range (REAR, FRONT, …) is taken only after a recognisable street end, so that
 * "RIVER SIDE" stays a street name.
 */
function splitOffUnits(words: readonly string[]): { street: string[]; units: SecondaryUnit[] } {
  for (let start = 1; start < words.length; start++) {
    const street = words.slice(0, start);
    const units = parseUnits(words.slice(start));
    if (units?.[0] !== undefined && (units[0].range !== undefined || endsWithStreetSuffix(street))) {
      return { street, units };
    }
  }
  return { street: [...words], units: [] };
}

function endsWithStreetSuffix(street: readonly string[]): boolean {
  const last = street.at(-1) ?? "";
  return street.length >= 2 && (STREET_SUFFIXES.has(last) || DIRECTIONALS.has(last));
}

/** The words as a sequence of secondary units (`SUITE 400 REAR`), or undefined if they are not one. */
function parseUnits(words: readonly string[]): SecondaryUnit[] | undefined {
  const units: SecondaryUnit[] = [];
  let index = 0;
  while (index < words.length) {
    const designator = SECONDARY_UNIT_DESIGNATORS.get(words[index] ?? "");
    if (designator === undefined) return undefined;
    index += 1;
    // "APT # 4": after a designator the pound sign repeats it; Pub 28 writes "APT 4".
    if (words[index] === "#" && designator.abbreviation !== "#") index += 1;
    const range = words[index];
    if (range !== undefined && isUnitRange(range)) {
      units.push({ designator: designator.abbreviation, range });
      index += 1;
    } else if (designator.requiresRange) {
      return undefined;
    } else {
      units.push({ designator: designator.abbreviation });
    }
  }
  return units.length > 0 ? units : undefined;
}

/** A range cannot be another designator or a street suffix ("12 OLD SUITE RD" has no unit). */
function isUnitRange(word: string): boolean {
  return !SECONDARY_UNIT_DESIGNATORS.has(word) && !STREET_SUFFIXES.has(word);
}

function formatUnits(units: readonly SecondaryUnit[]): string {
  return units.map(({ designator, range }) => (range === undefined ? designator : `${designator} ${range}`)).join(" ");
}

/**
 * Abbreviates the post-directional (last word), the suffix (last word before it) and the
 * pre-directional (first word). Each needs a street name left over, so "NORTH ST" keeps NORTH as
 * the name and "AVENUE N" keeps AVENUE (Pub 28 §233).
 */
function standardizeStreet(words: readonly string[]): string[] {
  const name = [...words];
  const postDirectional = name.length >= 2 ? DIRECTIONALS.get(name.at(-1) ?? "") : undefined;
  if (postDirectional !== undefined) name.pop();
  const suffix = name.length >= 2 ? STREET_SUFFIXES.get(name.at(-1) ?? "") : undefined;
  if (suffix !== undefined) name.pop();
  const preDirectional = name.length >= 2 ? DIRECTIONALS.get(name[0] ?? "") : undefined;
  if (preDirectional !== undefined) name.shift();
  return [preDirectional, ...name, suffix, postDirectional].filter(isPresent);
}

/** address2 or address3: units standardized ("Suite 400" → "STE 400"), any other text normalized. */
function standardizeSecondaryLine(line: string | undefined): string | undefined {
  const words = wordsOf(line ?? "");
  if (words.length === 0) return undefined;
  const units = parseUnits(words);
  return units === undefined ? words.join(" ") : formatUnits(units);
}

function joinLines(...lines: (string | undefined)[]): string | undefined {
  const joined = lines.filter(isPresent).join(" ");
  return joined === "" ? undefined : joined;
}

/**
 * City and state come from the ZIP's record. When the sender's state is a valid one that disagrees
 * with the ZIP, either may be the mistake, so city and state are returned as sent (standardized).
 */
function standardizeLastLine(input: AddressInput): LastLine {
  const givenState = normalizeText(input.state);
  const stateCode = usStateCodeOf(givenState);
  const asSent = { city: normalizeText(input.city), state: stateCode ?? givenState };
  const problems = stateCode === undefined ? [`state "${input.state}" is not a US state or territory code`] : [];

  const postalCode = normalizeZip(input.postal_code);
  if (postalCode === undefined) {
    problems.push(`postal_code "${input.postal_code}" is not a ZIP code (12345 or 12345-6789)`);
    return { ...asSent, postal_code: input.postal_code.trim(), problems };
  }
  const zip = lookupZip(postalCode);
  const zipProblem = zipMismatch(postalCode, zip, stateCode);
  if (zip === undefined || zipProblem !== undefined) {
    return { ...asSent, postal_code: postalCode, problems: [...problems, zipProblem].filter(isPresent) };
  }
  return { city: normalizeText(zip.city), state: zip.state, postal_code: postalCode, problems };
}

function zipMismatch(
  postalCode: string,
  zip: ZipLocation | undefined,
  stateCode: string | undefined,
): string | undefined {
  if (zip === undefined) return `ZIP code ${postalCode} does not exist`;
  if (stateCode !== undefined && stateCode !== zip.state) {
    return `ZIP code ${zip.zip} is in ${zip.state}, not ${stateCode}`;
  }
  return undefined;
}

/** `12345`, or ZIP+4 as `12345-6789` when the sender gave the +4 (with a hyphen, space or neither). */
function normalizeZip(postalCode: string): string | undefined {
  const match = ZIP_FORMAT.exec(postalCode.trim());
  if (match === null) return undefined;
  const [, zip5, plus4] = match;
  return plus4 === undefined ? zip5 : `${zip5}-${plus4}`;
}

function countryProblem(country: string): string | undefined {
  return country === "US" ? undefined : `country "${country}" is not US: USPS standardizes US addresses only`;
}

/** Compares field by field; an absent field and an empty string are the same. */
export function differs(sent: AddressInput, returned: AddressInput): boolean {
  return COMPARED_FIELDS.some((field) => (sent[field] ?? "") !== (returned[field] ?? ""));
}

function isPresent<T>(value: T | undefined): value is T {
  return value !== undefined && value !== "";
}
