import { describe, expect, it } from "vitest";
import { formatZone, groundZone, lookupZip, uspsZone, ZoneLookupError } from "../../../src/carriers/sandbox/zones.js";

function zoneLookupErrorOf(lookup: () => unknown): ZoneLookupError {
  try {
    lookup();
  } catch (error) {
    if (error instanceof ZoneLookupError) return error;
    throw error;
  }
  throw new Error("expected a ZoneLookupError");
}

describe("lookupZip", () => {
  it("finds city, state and coordinates of a ZIP5", () => {
    expect(lookupZip("63116")).toEqual({
      zip: "63116",
      city: "Saint Louis",
      state: "MO",
      latitude: 38.5814,
      longitude: -90.2625,
    });
  });

  it("accepts a ZIP+4 and answers with the ZIP5", () => {
    expect(lookupZip("10001-2345")?.zip).toBe("10001");
  });

  it("gives null coordinates where the data has none (0,0)", () => {
    expect(lookupZip("34001")).toMatchObject({ state: "AA", latitude: null, longitude: null });
  });

  it.each(["1234", "123456", "12345-67", "00000", "A0A"])("returns undefined for %s", (zip) => {
    expect(lookupZip(zip)).toBeUndefined();
  });
});

describe("uspsZone", () => {
  it.each([
    ["10001", "10002", 1], // same ZIP3
    ["63116", "63118", 1], // same ZIP3, the USPS API example
    ["10001", "19103", 2], // New York → Philadelphia, about 80 miles
    ["90035", "10001", 8], // Los Angeles → New York
    ["10001", "90035", 8],
    ["10001", "96910", 9], // Guam
    ["96910", "10001", 9],
    ["90035", "96799", 9], // American Samoa
    ["96813", "90035", 8], // Honolulu → Los Angeles: plain distance
  ])("%s → %s is zone %i", (fromZip, toZip, zone) => {
    expect(uspsZone(fromZip, toZip)).toBe(zone);
  });

  it("accepts ZIP+4 codes", () => {
    expect(uspsZone("90035-1234", "10001-0001")).toBe(8);
  });

  it("zones American Samoa apart from Hawaii although both are ZIP3 967", () => {
    expect(uspsZone("96701", "96799")).toBe(9);
    expect(uspsZone("96701", "96703")).toBe(1);
  });

  it("zones military ZIPs through their mainland gateway", () => {
    expect(uspsZone("10001", "09001")).toBe(1); // AE via New York
    expect(uspsZone("90035", "09001")).toBe(8);
    expect(uspsZone("94105", "96601")).toBe(1); // AP via San Francisco
    expect(uspsZone("33101", "34001")).toBe(1); // AA via Miami, a ZIP without coordinates
  });

  it("is symmetric", () => {
    const zips = ["10001", "19103", "60601", "80202", "99501", "00601", "96910", "09001"];
    for (const fromZip of zips) {
      for (const toZip of zips) expect(uspsZone(fromZip, toZip)).toBe(uspsZone(toZip, fromZip));
    }
  });

  it.each([
    ["1234", "malformed"],
    ["123456", "malformed"],
    ["10001-", "malformed"],
    ["00000", "unknown"],
    ["99999", "unknown"],
  ])("throws a ZoneLookupError naming %s (%s)", (zip, problem) => {
    const asOrigin = zoneLookupErrorOf(() => uspsZone(zip, "10001"));
    expect(asOrigin.postalCode).toBe(zip);
    expect(asOrigin.message).toContain(problem);
    expect(asOrigin.message).toContain(zip);
    expect(zoneLookupErrorOf(() => uspsZone("10001", zip)).postalCode).toBe(zip);
  });
});

describe("groundZone", () => {
  it.each([
    ["10001", "10002", 2], // zone 1 folds into 2
    ["10001", "19103", 2],
    ["90035", "10001", 8],
    ["10001", "96910", 8], // zone 9 folds into 8
  ])("%s → %s is zone %i", (fromZip, toZip, zone) => {
    expect(groundZone(fromZip, toZip)).toBe(zone);
  });

  it("throws ZoneLookupError like uspsZone", () => {
    expect(() => groundZone("1234", "10001")).toThrow(ZoneLookupError);
  });
});

describe("formatZone", () => {
  it("gives the USPS API's 2-character form", () => {
    expect(formatZone(uspsZone("63116", "63118"))).toBe("01");
    expect(formatZone(9)).toBe("09");
  });

  it.each([0, 10, 2.5])("refuses %s", (zone) => {
    expect(() => formatZone(zone)).toThrow(RangeError);
  });
});
