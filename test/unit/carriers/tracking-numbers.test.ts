import { describe, expect, it } from "vitest";
import * as dhlEcommerce from "../../../src/carriers/dhl-ecommerce/tracking-number.js";
import * as dhlExpress from "../../../src/carriers/dhl-express/tracking-number.js";
import * as fedex from "../../../src/carriers/fedex/tracking-number.js";
import * as ups from "../../../src/carriers/ups/tracking-number.js";
import * as usps from "../../../src/carriers/usps/tracking-number.js";

const SERIALS = [0, 1, 42, 1_234_567, 9_999_999];

interface GeneratorCase {
  carrier: string;
  generate: (serial: number) => string;
  isValid: (value: string) => boolean;
  shape: RegExp;
}

const generators: GeneratorCase[] = [
  {
    carrier: "USPS domestic (IMpb, Ground Advantage)",
    generate: (serial) => usps.generateTrackingNumber(serial, { scope: "domestic", serviceTypeCode: "001" }),
    isValid: usps.isValidTrackingNumber,
    shape: /^94001999000001\d{8}$/,
  },
  {
    carrier: "USPS international (S10)",
    generate: (serial) => usps.generateTrackingNumber(serial, { scope: "international", serviceIndicator: "LX" }),
    isValid: usps.isValidTrackingNumber,
    shape: /^LX\d{9}US$/,
  },
  {
    carrier: "UPS 1Z",
    generate: (serial) => ups.generateTrackingNumber(serial, { shipperAccount: "999AA1", serviceCode: "03" }),
    isValid: ups.isValidTrackingNumber,
    shape: /^1Z999AA103\d{8}$/,
  },
  {
    carrier: "FedEx Express/Ground",
    generate: (serial) => fedex.generateTrackingNumber(serial),
    isValid: fedex.isValidTrackingNumber,
    shape: /^\d{12}$/,
  },
  {
    carrier: "FedEx Ground Economy (IMpb)",
    generate: (serial) => fedex.generateTrackingNumber(serial, { groundEconomy: true }),
    isValid: fedex.isValidTrackingNumber,
    shape: /^92612\d{17}$/,
  },
  {
    carrier: "DHL Express",
    generate: (serial) => dhlExpress.generateTrackingNumber(serial),
    isValid: dhlExpress.isValidTrackingNumber,
    shape: /^\d{10}$/,
  },
  {
    carrier: "DHL eCommerce package id",
    generate: (serial) => dhlEcommerce.generateTrackingNumber(serial, { scope: "international" }).packageId,
    isValid: dhlEcommerce.isValidTrackingNumber,
    shape: /^GM\d{16}$/,
  },
  {
    carrier: "DHL eCommerce domestic tracking id (IMpb)",
    generate: (serial) => dhlEcommerce.generateTrackingNumber(serial, { scope: "domestic" }).trackingId ?? "",
    isValid: dhlEcommerce.isValidTrackingNumber,
    shape: /^92612\d{17}$/,
  },
];

describe.each(generators)("$carrier", ({ generate, isValid, shape }) => {
  it.each(SERIALS)("serial %i gives a valid number of the carrier's length and prefix", (serial) => {
    const trackingNumber = generate(serial);
    expect(trackingNumber).toMatch(shape);
    expect(isValid(trackingNumber)).toBe(true);
  });

  it("is deterministic and gives every serial its own number", () => {
    const numbers = SERIALS.map(generate);
    expect(SERIALS.map(generate)).toEqual(numbers);
    expect(new Set(numbers).size).toBe(SERIALS.length);
  });

  it("refuses a negative or fractional serial", () => {
    expect(() => generate(-1)).toThrow(RangeError);
    expect(() => generate(2.5)).toThrow(RangeError);
  });
});

describe("USPS", () => {
  it("places the service type code after the 94 channel", () => {
    expect(usps.generateTrackingNumber(7, { scope: "domestic", serviceTypeCode: "055" })).toMatch(/^94055/);
  });

  it("refuses a service type code that is not 3 digits and a lowercase service indicator", () => {
    expect(() => usps.generateTrackingNumber(1, { scope: "domestic", serviceTypeCode: "55" })).toThrow(RangeError);
    expect(() => usps.generateTrackingNumber(1, { scope: "international", serviceIndicator: "lx" })).toThrow(
      RangeError,
    );
  });

  it("refuses serials that do not fit the 7-digit IMpb serial field", () => {
    expect(() => usps.generateTrackingNumber(10_000_000, { scope: "domestic", serviceTypeCode: "001" })).toThrow(
      RangeError,
    );
  });

  it.each([
    "9400111206206406260787",
    "9400109104250532908587",
    "9205590109769900012613",
    "92748931507708513018050063",
    "9505511069605048600624",
    "9212391234567812345670",
    "03071790000523483741",
    "9101123456789000000013",
    "EZ000012162US",
    "MM000043788US",
    "RB123456785US",
  ])("accepts %s", (trackingNumber) => {
    expect(usps.isValidTrackingNumber(trackingNumber)).toBe(true);
  });

  it.each([
    "9400111206206406260788", // wrong check digit
    "EZ000012163US", // wrong check digit
    "EZ000012162GB", // not a USPS S10 number
    "420787459400111206206406260787", // barcode data, not a tracking number
    "1Z999AA10123456784",
  ])("rejects %s", (value) => {
    expect(usps.isValidTrackingNumber(value)).toBe(false);
  });

  describe("impbRoutingBarcodeData", () => {
    const pic = "9400111206206406260787";

    it("prefixes AI 420 and the ZIP5", () => {
      expect(usps.impbRoutingBarcodeData(pic, "78745")).toBe(`42078745${pic}`);
    });

    it("carries a ZIP+4 without its hyphen", () => {
      const data = usps.impbRoutingBarcodeData("9200190132607600833457", "10023-3424");
      expect(data).toBe("4201002334249200190132607600833457");
      expect(data).toHaveLength(34);
    });

    it("refuses a malformed ZIP and a number that is not an IMpb", () => {
      expect(() => usps.impbRoutingBarcodeData(pic, "7874")).toThrow(RangeError);
      expect(() => usps.impbRoutingBarcodeData("EZ000012162US", "78745")).toThrow(RangeError);
    });
  });
});

describe("UPS", () => {
  it("carries the shipper account and service code", () => {
    const trackingNumber = ups.generateTrackingNumber(1_234_567, { shipperAccount: "5R8939", serviceCode: "YW" });
    expect(trackingNumber.slice(0, 10)).toBe("1Z5R8939YW");
    expect(trackingNumber).toHaveLength(18);
  });

  it("refuses a malformed shipper account or service code", () => {
    expect(() => ups.generateTrackingNumber(1, { shipperAccount: "999AA", serviceCode: "03" })).toThrow(RangeError);
    expect(() => ups.generateTrackingNumber(1, { shipperAccount: "999AA1", serviceCode: "3" })).toThrow(RangeError);
  });

  it.each([
    "1Z999AA10123456784",
    "1Z5R89390357567127",
    "1ZXX3150YW44070023",
    "K2479825491",
    "J4603636537",
    "V0490119172",
  ])("accepts %s", (trackingNumber) => {
    expect(ups.isValidTrackingNumber(trackingNumber)).toBe(true);
  });

  it.each(["1Z12345E0205271688", "1Z999AA10123456785", "K2479825492", "986578788855"])("rejects %s", (value) => {
    expect(ups.isValidTrackingNumber(value)).toBe(false);
  });
});

describe("FedEx", () => {
  it.each([
    "986578788855",
    "477179081230",
    "799531274483",
    "041441760228964",
    "568283610012000",
    "9611020987654312345672",
    "1001921334250001000300779017972697",
    "9622001900000000000000776632517510",
    "9261299998820821171811",
    "61299998820821171811",
  ])("accepts %s", (trackingNumber) => {
    expect(fedex.isValidTrackingNumber(trackingNumber)).toBe(true);
  });

  it.each(["986578788856", "041441760228965", "9611020987654312345673", "61299998820821171812", "1Z999AA10123456784"])(
    "rejects %s",
    (value) => {
      expect(fedex.isValidTrackingNumber(value)).toBe(false);
    },
  );
});

describe("DHL Express", () => {
  it.each(["3318810025", "8487135506", "1099255990"])("accepts %s", (trackingNumber) => {
    expect(dhlExpress.isValidTrackingNumber(trackingNumber)).toBe(true);
  });

  it.each(["3318810026", "331881002", "JJD0099999999"])("rejects %s", (value) => {
    expect(dhlExpress.isValidTrackingNumber(value)).toBe(false);
  });

  it("refuses serials beyond the 9-digit field", () => {
    expect(() => dhlExpress.generateTrackingNumber(1_000_000_000)).toThrow(RangeError);
  });
});

describe("DHL eCommerce", () => {
  it("issues a USPS IMpb only for domestic packages", () => {
    const domestic = dhlEcommerce.generateTrackingNumber(5, { scope: "domestic" });
    const international = dhlEcommerce.generateTrackingNumber(5, { scope: "international" });
    expect(domestic.packageId).toBe(international.packageId);
    expect(domestic.trackingId && usps.isValidTrackingNumber(domestic.trackingId)).toBe(true);
    expect(international.trackingId).toBeNull();
  });

  it("uses a Mailer ID of its own, so its IMpb differs from FedEx Ground Economy's for the same serial", () => {
    expect(dhlEcommerce.generateTrackingNumber(5, { scope: "domestic" }).trackingId).not.toBe(
      fedex.generateTrackingNumber(5, { groundEconomy: true }),
    );
  });

  it.each(["GM2951173225174494", "GM295117494011169042", "9261290336128704042634", "420902459261290336128704042634"])(
    "accepts %s",
    (trackingNumber) => {
      expect(dhlEcommerce.isValidTrackingNumber(trackingNumber)).toBe(true);
    },
  );

  it.each(["GM123", "9261290336128704042635", "420902459261290336128704042635"])("rejects %s", (value) => {
    expect(dhlEcommerce.isValidTrackingNumber(value)).toBe(false);
  });
});
