import { describe, expect, it } from "vitest";
import { type AddressInput, standardizeUsAddress } from "../../../src/domain/addresses/standardize-address.js";
import {
  DIRECTIONALS,
  SECONDARY_UNIT_DESIGNATORS,
  STREET_SUFFIXES,
  usStateCodeOf,
} from "../../../src/domain/addresses/usps-abbreviations.js";

const SALT_LAKE: AddressInput = {
  address1: "220 S STATE ST",
  city: "SALT LAKE CITY",
  state: "UT",
  postal_code: "84111",
  country: "US",
};

function standardize(changes: Partial<AddressInput>) {
  return standardizeUsAddress({ ...SALT_LAKE, ...changes });
}

describe("standardizeUsAddress", () => {
  it("standardizes eHub's example the USPS way", () => {
    const result = standardize({ address1: "220 s state street", city: "salt lake city", state: "ut" });
    expect(result).toMatchObject({
      isValid: true,
      reasons: [],
      hasUpdate: true,
      address: { address1: "220 S STATE ST", city: "SALT LAKE CITY", state: "UT", postal_code: "84111", country: "US" },
    });
  });

  it("reports no update for an address that is already standard", () => {
    const result = standardizeUsAddress(SALT_LAKE);
    expect(result.isValid).toBe(true);
    expect(result.hasUpdate).toBe(false);
    expect(result.address).toMatchObject(SALT_LAKE);
  });

  it("treats an absent field and an empty string as the same when looking for updates", () => {
    expect(standardize({ address2: "", address3: "", company: "" }).hasUpdate).toBe(false);
  });

  it("moves a unit written on address1 to address2 and abbreviates directional, suffix and unit", () => {
    const { address } = standardize({ address1: "123 North Main Avenue Suite 400" });
    expect(address.address1).toBe("123 N MAIN AVE");
    expect(address.address2).toBe("STE 400");
  });

  it("puts a unit moved from address1 before the address2 that was sent", () => {
    const { address } = standardize({ address1: "123 Main St Apt 4", address2: "Rear" });
    expect(address).toMatchObject({ address1: "123 MAIN ST", address2: "APT 4 REAR" });
  });

  it.each([
    ["123 Main St #4", "# 4"],
    ["123 Main St Apt #4", "APT 4"],
    ["456 Elm St. Apartment 4-B", "APT 4-B"],
    ["123 Main St Bldg 2 Apt 5", "BLDG 2 APT 5"],
    ["123 Main St Rear", "REAR"],
  ])("splits %s into the street and %s", (address1, address2) => {
    expect(standardize({ address1 }).address.address2).toBe(address2);
  });

  it.each([
    ["1500 Ocean Front Walk", "1500 OCEAN FRONT WALK"],
    ["12 Old Suite Rd", "12 OLD SUITE RD"],
    ["123 River Side", "123 RIVER SIDE"],
  ])("keeps designator words that belong to the street name in %s", (address1, standardized) => {
    const { address } = standardize({ address1 });
    expect(address.address1).toBe(standardized);
    expect(address.address2).toBeUndefined();
  });

  it("standardizes units sent on address2 and address3", () => {
    const { address } = standardize({ address2: "Suite #400", address3: "floor 2" });
    expect(address).toMatchObject({ address2: "STE 400", address3: "FL 2" });
  });

  it.each([
    ["123 North St", "123 NORTH ST"],
    ["100 Avenue N", "100 AVENUE N"],
    ["123 Main Street Northwest", "123 MAIN ST NW"],
    ["123 N 200 W", "123 N 200 W"],
    ["10 Saint John's Boulevard", "10 SAINT JOHNS BLVD"],
    ["123 1/2 Main St.", "123 1/2 MAIN ST"],
    ["123   Smith-Jones   Rd", "123 SMITH JONES RD"],
  ])("writes %s as %s", (address1, standardized) => {
    expect(standardize({ address1 }).address.address1).toBe(standardized);
  });

  it.each([
    ["PO Box 123", "PO BOX 123"],
    ["p.o. box #55", "PO BOX 55"],
    ["Post Office Box 9", "PO BOX 9"],
    ["Rural Route 2 Box 152", "RR 2 BOX 152"],
    ["general delivery", "GENERAL DELIVERY"],
  ])("accepts the delivery line %s without a house number as %s", (address1, standardized) => {
    const result = standardize({ address1 });
    expect(result.isValid).toBe(true);
    expect(result.address.address1).toBe(standardized);
  });

  it("rejects a street line without a house number", () => {
    const result = standardize({ address1: "Main Street" });
    expect(result.isValid).toBe(false);
    expect(result.reasons).toEqual([expect.stringContaining("no house number")]);
    expect(result.address.address1).toBe("MAIN ST");
  });

  it("corrects a misspelled city from the ZIP code", () => {
    const result = standardize({ city: "Salt Lak Cty" });
    expect(result.isValid).toBe(true);
    expect(result.hasUpdate).toBe(true);
    expect(result.address.city).toBe("SALT LAKE CITY");
  });

  it("resolves a spelled-out state name to its code", () => {
    expect(standardize({ state: "Utah" }).address.state).toBe("UT");
  });

  it("rejects a ZIP code in another state and keeps the sent city and state", () => {
    const result = standardize({ state: "NV", city: "Las Vegas" });
    expect(result.isValid).toBe(false);
    expect(result.reasons).toEqual(["ZIP code 84111 is in UT, not NV"]);
    expect(result.address).toMatchObject({ city: "LAS VEGAS", state: "NV" });
  });

  it("rejects a ZIP code that does not exist", () => {
    const result = standardize({ postal_code: "00000" });
    expect(result.isValid).toBe(false);
    expect(result.reasons).toEqual(["ZIP code 00000 does not exist"]);
  });

  it("rejects a postal code that is not a ZIP code", () => {
    const result = standardize({ postal_code: "8411" });
    expect(result.isValid).toBe(false);
    expect(result.address.postal_code).toBe("8411");
  });

  it("rejects a state that is not a US code but still takes city and state from the ZIP", () => {
    const result = standardize({ state: "XX" });
    expect(result.isValid).toBe(false);
    expect(result.reasons).toEqual(['state "XX" is not a US state or territory code']);
    expect(result.address.state).toBe("UT");
  });

  it("rejects a non-US country", () => {
    expect(standardize({ country: "CA" }).isValid).toBe(false);
  });

  it("keeps a ZIP+4 and never invents one", () => {
    expect(standardize({ postal_code: "84111-1234" })).toMatchObject({
      isValid: true,
      hasUpdate: false,
      address: { postal_code: "84111-1234" },
    });
    expect(standardize({ postal_code: "841111234" }).address.postal_code).toBe("84111-1234");
    expect(standardize({ postal_code: "84111" }).address.postal_code).toBe("84111");
  });

  it("accepts territories and strips accents", () => {
    const result = standardize({ address1: "1 Calle Peñuelas", city: "adjuntas", state: "PR", postal_code: "00601" });
    expect(result.isValid).toBe(true);
    expect(result.address).toMatchObject({ address1: "1 CALLE PENUELAS", city: "ADJUNTAS", state: "PR" });
  });

  it("returns contact fields as sent", () => {
    const contact = { company: "Acme, Inc.", first_name: "Ada", last_name: "Lovelace", phone: "801-555-0100" };
    const result = standardize({ ...contact, email: "ada@example.com" });
    expect(result.address).toMatchObject(contact);
    expect(result.hasUpdate).toBe(false);
  });

  it("classifies the standardized address", () => {
    expect(standardize({}).address.residential).toBe(true);
    expect(standardize({ address1: "220 S State St Suite 5" }).address.residential).toBe(false);
  });
});

describe("Publication 28 tables", () => {
  it.each([
    ["STREET", "ST"],
    ["STRT", "ST"],
    ["AV", "AVE"],
    ["AVEN", "AVE"],
    ["BOULEVARD", "BLVD"],
    ["PARKWAY", "PKWY"],
    ["TERRACE", "TER"],
    ["WAY", "WAY"],
    ["SQUARE", "SQ"],
    ["HWY", "HWY"],
  ])("abbreviates the suffix %s as %s", (written, standard) => {
    expect(STREET_SUFFIXES.get(written)).toBe(standard);
  });

  it("covers well over the 60 most common suffixes", () => {
    expect(new Set(STREET_SUFFIXES.values()).size).toBeGreaterThanOrEqual(60);
  });

  it.each([
    ["APARTMENT", "APT", true],
    ["SUITE", "STE", true],
    ["PENTHOUSE", "PH", false],
    ["UPPER", "UPPR", false],
    ["#", "#", true],
  ])("knows the unit designator %s as %s (range required: %s)", (written, abbreviation, requiresRange) => {
    expect(SECONDARY_UNIT_DESIGNATORS.get(written)).toEqual({ abbreviation, requiresRange });
  });

  it("abbreviates directionals", () => {
    expect(DIRECTIONALS.get("SOUTHWEST")).toBe("SW");
    expect(DIRECTIONALS.get("N")).toBe("N");
  });

  it.each([
    ["UT", "UT"],
    ["NEW YORK", "NY"],
    ["DISTRICT OF COLUMBIA", "DC"],
    ["PUERTO RICO", "PR"],
    ["AE", "AE"],
    ["XX", undefined],
    ["CONSTRUCTOR", undefined],
  ])("resolves the state %s to %s", (state, code) => {
    expect(usStateCodeOf(state)).toBe(code);
  });
});
