import { describe, expect, it } from "vitest";
import {
  dhlExpressMod7CheckDigit,
  endsWithCheckDigit,
  fedex12CheckDigit,
  gs1Mod10CheckDigit,
  s10CheckDigit,
  serialField,
  upsCheckDigit,
  uspsMod10CheckDigit,
} from "../../../src/carriers/sandbox/check-digits.js";

type CheckDigit = (payload: string) => number;

/** A valid number the carrier published, reduced to the part its check digit covers (payload + check). */
interface Fixture {
  number: string;
  checked: string;
}

const whole = (number: string): Fixture => ({ number, checked: number });

/** Replaces the digit at `index` by the next one (9 → 0). */
function bumpDigit(value: string, index: number): string {
  const bumped = (Number(value.charAt(index)) + 1) % 10;
  return value.slice(0, index) + bumped + value.slice(index + 1);
}

function describeValidNumbers(algorithm: string, checkDigit: CheckDigit, fixtures: Fixture[]): void {
  describe(`${algorithm}: valid numbers the carriers published`, () => {
    it.each(fixtures)("$number validates", ({ checked }) => {
      expect(endsWithCheckDigit(checked, checkDigit)).toBe(true);
    });

    it.each(fixtures)("$number fails with an altered check digit", ({ checked }) => {
      expect(endsWithCheckDigit(bumpDigit(checked, checked.length - 1), checkDigit)).toBe(false);
    });

    it.each(fixtures)("$number fails with an altered payload digit", ({ checked }) => {
      expect(endsWithCheckDigit(bumpDigit(checked, checked.search(/\d/)), checkDigit)).toBe(false);
    });
  });
}

describe("USPS MOD 10 worked examples (§1.2.A)", () => {
  it("Pub 199 example: 921239123456781234567 → 0", () => {
    expect(uspsMod10CheckDigit("921239123456781234567")).toBe(0);
  });

  it("Ground Advantage example: 940010910425053290858 → 7", () => {
    expect(uspsMod10CheckDigit("940010910425053290858")).toBe(7);
  });
});

describeValidNumbers("USPS MOD 10", uspsMod10CheckDigit, [
  whole("9212391234567812345670"),
  whole("9400111206206406260787"),
  whole("9400109104250532908587"),
  whole("9205590109769900012613"),
  whole("92748931507708513018050063"),
  whole("9505511069605048600624"),
  whole("03071790000523483741"),
  whole("9101123456789000000013"),
  // Routing barcodes: the `420`+ZIP prefix lies outside the check digit.
  { number: "420787459400111206206406260787", checked: "9400111206206406260787" },
  { number: "4201002334249200190132607600833457", checked: "9200190132607600833457" },
  // FedEx Ground Economy: the check is computed on the 22-digit form.
  whole("9261299998820821171811"),
  { number: "61299998820821171811", checked: "9261299998820821171811" },
  // DHL eCommerce domestic leg.
  { number: "420902459261290336128704042634", checked: "9261290336128704042634" },
]);

describe("UPU S10 MOD 11 worked examples (§1.2.B)", () => {
  it("EZ 00001216 → 2", () => {
    expect(s10CheckDigit("00001216")).toBe(2);
  });

  it("RB 12345678 → 5", () => {
    expect(s10CheckDigit("12345678")).toBe(5);
  });

  it("maps a remainder of 0 to 5 and a remainder of 1 to 0", () => {
    expect(s10CheckDigit("00000000")).toBe(5);
    // 0·8+0·6+0·4+0·2+0·3+0·5+0·9+8·7 = 56 = 5·11 + 1
    expect(s10CheckDigit("00000008")).toBe(0);
  });

  it("refuses a serial that is not 8 digits", () => {
    expect(() => s10CheckDigit("1234567")).toThrow(RangeError);
  });
});

describeValidNumbers(
  "S10 MOD 11",
  s10CheckDigit,
  ["EZ000012162US", "MM000043788US", "RB123456785US"].map((number) => ({ number, checked: number.slice(2, 11) })),
);

describe("UPS MOD 10 worked example (§1.2.C)", () => {
  it("1Z 999AA1 01 2345678 → 4", () => {
    expect(upsCheckDigit("999AA1012345678")).toBe(4);
  });

  it("maps letters as (ASCII − 3) mod 10", () => {
    // A single character sits in an odd position, so it counts once.
    expect(upsCheckDigit("A")).toBe(8); // A = 2
    expect(upsCheckDigit("I")).toBe(0); // I = 0
    expect(upsCheckDigit("Z")).toBe(3); // Z = 7
  });

  it("rejects the UPS documentation sample that does not pass its own check", () => {
    expect(endsWithCheckDigit("12345E0205271688", upsCheckDigit)).toBe(false);
    expect(upsCheckDigit("12345E020527168")).toBe(6);
  });
});

describeValidNumbers("UPS MOD 10", upsCheckDigit, [
  ...["1Z999AA10123456784", "1Z5R89390357567127", "1ZXX3150YW44070023"].map((number) => ({
    number,
    checked: number.slice(2),
  })),
  ...["K2479825491", "J4603636537", "V0490119172"].map((number) => ({ number, checked: number.slice(1) })),
]);

describe("FedEx 1-3-7 MOD 11 worked example (§1.2.D)", () => {
  it("98657878885 → 5", () => {
    expect(fedex12CheckDigit("98657878885")).toBe(5);
  });

  it("turns a remainder of 10 into 0", () => {
    // 1·1 (rightmost weight 1) + 3·3 = 10
    expect(fedex12CheckDigit("00000000031")).toBe(0);
  });

  it("cannot tell remainders 10 and 0 apart, so some single-digit errors pass (a property of the algorithm)", () => {
    expect(fedex12CheckDigit("77663251751")).toBe(0);
    expect(fedex12CheckDigit("77663251752")).toBe(0);
  });
});

describeValidNumbers("FedEx 1-3-7 MOD 11", fedex12CheckDigit, [
  whole("986578788855"),
  whole("477179081230"),
  whole("799531274483"),
  // 34-digit barcodes end with the 12-digit number.
  { number: "1001921334250001000300779017972697", checked: "779017972697" },
  { number: "9622001900000000000000776632517510", checked: "776632517510" },
]);

describe("GS1 MOD 10 worked examples (§1.2.E, F)", () => {
  it("FedEx Ground 04144176022896 → 4", () => {
    expect(gs1Mod10CheckDigit("04144176022896")).toBe(4);
  });

  it("FedEx 96 barcode shipper + package 98765431234567 → 2", () => {
    expect(gs1Mod10CheckDigit("98765431234567")).toBe(2);
  });

  it("SSCC-18 (00) 0 0012345 000000002 → 7", () => {
    expect(gs1Mod10CheckDigit("00012345000000002")).toBe(7);
  });
});

describeValidNumbers("GS1 MOD 10", gs1Mod10CheckDigit, [
  whole("041441760228964"),
  whole("568283610012000"),
  { number: "9611020987654312345672", checked: "987654312345672" },
]);

describe("DHL Express MOD 7 worked example (§1.2.G)", () => {
  it("331881002 → 5", () => {
    expect(dhlExpressMod7CheckDigit("331881002")).toBe(5);
  });
});

describeValidNumbers("DHL Express MOD 7", dhlExpressMod7CheckDigit, [
  whole("3318810025"),
  whole("8487135506"),
  whole("1099255990"),
]);

describe("malformed payloads", () => {
  it.each<[string, CheckDigit, string]>([
    ["USPS MOD 10", uspsMod10CheckDigit, "94001X"],
    ["GS1 MOD 10", gs1Mod10CheckDigit, ""],
    ["UPS MOD 10", upsCheckDigit, "999aa1"],
    ["FedEx 1-3-7", fedex12CheckDigit, "9865787888"],
    ["DHL MOD 7", dhlExpressMod7CheckDigit, "33 1881002"],
  ])("%s throws a RangeError", (_algorithm, checkDigit, payload) => {
    expect(() => checkDigit(payload)).toThrow(RangeError);
  });
});

describe("serialField", () => {
  it("zero-pads the serial to the field width", () => {
    expect(serialField(42, 7)).toBe("0000042");
    expect(serialField(9_999_999, 7)).toBe("9999999");
  });

  it.each([-1, 1.5, 10_000_000, Number.NaN])("refuses %s for a 7-digit field", (serial) => {
    expect(() => serialField(serial, 7)).toThrow(RangeError);
  });
});
