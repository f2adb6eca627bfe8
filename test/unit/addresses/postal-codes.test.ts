import { describe, expect, it } from "vitest";
import { isKnownCountry, isValidPostalCode } from "../../../src/domain/addresses/postal-codes.js";

/** Country → well-formed codes and malformed codes. */
const SAMPLES: Record<string, [valid: string[], invalid: string[]]> = {
  US: [
    ["84111", "84111-1234"],
    ["8411", "84111-12", "841111234", "ABCDE"],
  ],
  CA: [
    ["K1A 0B1", "k1a0b1", "M5V 3L9"],
    ["K1A 0B", "D1A 0B1", "12345"],
  ],
  MX: [["06600"], ["0660", "066000"]],
  GB: [
    ["SW1A 1AA", "M1 1AE", "B33 8TH", "EC1A1BB", "DN55 1PT"],
    ["SW1A 1A", "1AA SW1", "SW1A 1CA"],
  ],
  DE: [["10115"], ["1011", "D-10115"]],
  FR: [["75008"], ["7500", "750080"]],
  AU: [["2000"], ["200", "20000"]],
  JP: [
    ["100-0001", "1000001"],
    ["100-001", "1000-001"],
  ],
  CN: [["100000"], ["10000"]],
  IN: [
    ["110001", "110 001"],
    ["011001", "11001"],
  ],
  BR: [
    ["01310-100", "01310100"],
    ["01310-10", "0131-0100"],
  ],
  IT: [["00118"], ["0011"]],
  ES: [
    ["28013", "52001"],
    ["53001", "00100"],
  ],
  NL: [
    ["1012 JS", "1012JS"],
    ["0123 AB", "1012 SA", "1012"],
  ],
  SE: [["114 55", "11455"], ["1145"]],
  CH: [["8001"], ["80010"]],
  KR: [["03051"], ["030510"]],
  AT: [["1010"], ["101"]],
  BE: [["1000"], ["10000"]],
  DK: [["1050"], ["105"]],
  NO: [["0150"], ["01500"]],
  FI: [["00100"], ["0010"]],
  PL: [["00-950"], ["00950"]],
  PT: [["1000-001"], ["1000"]],
  CZ: [["110 00", "11000"], ["1100"]],
  IL: [["6100000"], ["61000"]],
  SG: [["018956"], ["18956"]],
  NZ: [["6011"], ["601"]],
  ZA: [["0001"], ["00001"]],
  RU: [["101000"], ["10100"]],
  AR: [["C1425ABC", "1425"], ["C1425AB"]],
  IE: [
    ["D02 AF30", "A65F4E2", "D6W 1234", ""],
    ["B12 3456", "D02"],
  ],
};

describe("isValidPostalCode", () => {
  it("knows the formats of at least 25 countries", () => {
    expect(Object.keys(SAMPLES).length).toBeGreaterThanOrEqual(25);
  });

  describe.each(Object.entries(SAMPLES))("%s", (country, [valid, invalid]) => {
    it.each(valid)("accepts %j", (code) => {
      expect(isValidPostalCode(country, code)).toBe(true);
    });
    it.each(invalid)("rejects %j", (code) => {
      expect(isValidPostalCode(country, code)).toBe(false);
    });
  });

  it("requires a code where the country has postal codes", () => {
    expect(isValidPostalCode("US", "")).toBe(false);
    expect(isValidPostalCode("DE", "  ")).toBe(false);
  });

  it("accepts anything for countries without postal codes", () => {
    expect(isValidPostalCode("HK", "")).toBe(true);
    expect(isValidPostalCode("AE", "00000")).toBe(true);
  });

  it("checks only the shape for known countries without a listed format", () => {
    expect(isValidPostalCode("EG", "11511")).toBe(true);
    expect(isValidPostalCode("EG", "")).toBe(false);
    expect(isValidPostalCode("EG", "115!1")).toBe(false);
  });

  it("ignores case and surrounding spaces of country and code", () => {
    expect(isValidPostalCode(" ca ", " k1a 0b1 ")).toBe(true);
  });

  it("rejects every code for an unknown country", () => {
    expect(isValidPostalCode("XX", "12345")).toBe(false);
  });
});

describe("isKnownCountry", () => {
  it.each(["US", "gb", "AX", "SS", "BQ"])("knows %s", (code) => {
    expect(isKnownCountry(code)).toBe(true);
  });

  it.each(["XX", "UK", "USA", "", "XK"])("does not know %j", (code) => {
    expect(isKnownCountry(code)).toBe(false);
  });
});
