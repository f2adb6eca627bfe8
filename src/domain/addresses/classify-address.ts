import { SECONDARY_UNIT_DESIGNATORS, STREET_SUFFIXES } from "./usps-abbreviations.js";

export type AddressClass = "residential" | "commercial";

/** Nullable fields too, so that raw request and stored addresses can be classified as they are. */
export interface ClassifiableAddress {
  company?: string | null;
  address1: string;
  address2?: string | null;
  address3?: string | null;
}

/** Secondary units that mark offices and business premises rather than homes. */
const BUSINESS_UNITS: ReadonlySet<string> = new Set(["STE", "FL", "BLDG", "DEPT", "OFC", "RM", "HNGR", "LBBY"]);

/**
 * The sandbox's residential/commercial classifier. Real carriers answer from their delivery-point
 * databases (USPS RDI, UPS and FedEx address data); the sandbox has none, so it applies a fixed rule
 * that gives the same answer for the same address every time:
 *
 * - a company name → commercial;
 * - a business unit designator (STE, FL, BLDG, DEPT, OFC, RM, HNGR, LBBY, spelled out or not) on
 *   address2 or address3, or after the street on address1 → commercial;
 * - anything else → residential.
 *
 * A PO BOX counts as commercial only in a business context, which is a company name or a business
 * unit on the same address; the rules above already cover both, so a box alone stays residential
 * (most boxes are rented by households).
 */
export function classifyAddress(address: ClassifiableAddress): AddressClass {
  const commercial =
    hasCompany(address) ||
    hasBusinessUnit(wordsOf(address.address1), 2) ||
    [address.address2, address.address3].some((line) => hasBusinessUnit(wordsOf(line), 0));
  return commercial ? "commercial" : "residential";
}

function hasCompany(address: ClassifiableAddress): boolean {
  return (address.company ?? "").trim() !== "";
}

function wordsOf(line: string | null | undefined): string[] {
  return (line ?? "")
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
}

/**
 * A business designator at or after `firstIndex` that is followed by a range or ends the line. On
 * address1, `firstIndex` 2 skips the house number and the first street word, and a following street
 * suffix means the word is part of the street name ("12 POST OFFICE RD"), not a unit.
 */
function hasBusinessUnit(words: readonly string[], firstIndex: number): boolean {
  return words.some((word, index) => {
    if (index < firstIndex) return false;
    const designator = SECONDARY_UNIT_DESIGNATORS.get(word);
    if (!designator || !BUSINESS_UNITS.has(designator.abbreviation)) return false;
    const next = words[index + 1];
    return next === undefined || !STREET_SUFFIXES.has(next);
  });
}
