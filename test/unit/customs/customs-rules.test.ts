import { describe, expect, it } from "vitest";
import { formatUsd } from "../../../src/carriers/customs-terms.js";
import {
  type CustomsData,
  type CustomsItem,
  type CustomsLocation,
  customsFormKind,
  customsRequirement,
  declaredValueCents,
  isEelExemption,
  isHsTariffCode,
  isItn,
  normalizeContentType,
  normalizeNonDelivery,
  parcelContentType,
  parcelDeclaredValueCents,
  parcelNonDelivery,
  usdToCents,
  validateCustoms,
} from "../../../src/domain/customs/customs-rules.js";

const SALT_LAKE: CustomsLocation = { country: "US", state: "UT", postalCode: "84111", city: "Salt Lake City" };

function customsData(overrides: Partial<CustomsData> = {}): CustomsData {
  return {
    contentType: "merchandise",
    noDelivery: "return",
    hsTariffCode: "6109.10.0012",
    eelPfc: "NOEEI 30.37(a)",
    valueCents: null,
    ...overrides,
  };
}

function item(overrides: Partial<CustomsItem> = {}): CustomsItem {
  return {
    name: "T-shirt",
    description: "Cotton T-shirt",
    quantity: 1,
    weightOz: 6,
    priceCents: 1999,
    countryOfOrigin: "US",
    customsData: customsData(),
    ...overrides,
  };
}

/** A single-item parcel worth `usd` (one unit at that price), as the wire would send it. */
function parcelWorth(usd: number, eelPfc: string) {
  return [{ items: [item({ priceCents: usdToCents(usd), customsData: customsData({ eelPfc }) })] }];
}

describe("customsRequirement", () => {
  it("needs nothing between the states and DC", () => {
    const washington = { country: "us", state: "DC", postalCode: "20001" };
    expect(customsRequirement(SALT_LAKE, washington)).toBe("none");
    expect(customsRequirement(SALT_LAKE, { country: "US", state: "HI", postalCode: "96813" })).toBe("none");
  });

  it.each([
    ["Puerto Rico as its ISO country", { country: "PR", state: "PR", postalCode: "00901" }],
    ["Puerto Rico as country US and state PR", { country: "US", state: "PR", postalCode: "00901" }],
    ["Puerto Rico by name", { country: "US", state: "Puerto Rico", postalCode: "00901" }],
    ["Guam", { country: "GU", state: "GU", postalCode: "96910" }],
    ["the Virgin Islands as a US state", { country: "US", state: "VI", postalCode: "00802" }],
    ["the Marshall Islands", { country: "MH", state: "MH", postalCode: "96960" }],
  ])("treats %s as a territory", (_name, to) => {
    expect(customsRequirement(SALT_LAKE, to)).toBe("territory");
  });

  it.each([
    ["state AE", { country: "US", state: "AE", postalCode: "09021", city: "APO" }],
    ["state AP", { country: "US", state: "AP", postalCode: "96601", city: "FPO" }],
    ["city APO with a mistyped state", { country: "US", state: "NY", postalCode: "10001", city: "apo" }],
    ["a DPO ZIP without city", { country: "US", state: "AA", postalCode: "34002" }],
  ])("treats %s as military", (_name, to) => {
    expect(customsRequirement(SALT_LAKE, to)).toBe("military");
  });

  it("treats any other country as international, in either direction", () => {
    const london = { country: "GB", state: "", postalCode: "W1U 4EG" };
    expect(customsRequirement(SALT_LAKE, london)).toBe("international");
    expect(customsRequirement(london, SALT_LAKE)).toBe("international");
  });

  it("lets a foreign end outrank a military one", () => {
    const apo = { country: "US", state: "AE", postalCode: "09021", city: "APO" };
    expect(customsRequirement({ country: "DE", state: "", postalCode: "10115" }, apo)).toBe("international");
  });
});

describe("usdToCents", () => {
  it.each([
    [0.1, 10],
    [0.2, 20],
    [19.99, 1999],
    [2500, 250_000],
    [2500.01, 250_001],
    [1.005, 101],
    [1.15, 115],
    [0, 0],
    [1e-7, 0],
  ])("%s USD is %s cents", (usd, cents) => {
    expect(usdToCents(usd)).toBe(cents);
  });

  it("refuses what is not an amount", () => {
    expect(() => usdToCents(Number.NaN)).toThrow(RangeError);
    expect(() => usdToCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("declared value", () => {
  it("uses price × quantity when a price is given, ahead of the customs value", () => {
    const shirt = item({ priceCents: 1999, quantity: 3, customsData: customsData({ valueCents: 5000 }) });
    expect(declaredValueCents(shirt)).toBe(5997);
  });

  it("falls back to customs value × quantity without a price (eHub's 159.00 × 50 example)", () => {
    const bulk = item({ priceCents: null, quantity: 50, customsData: customsData({ valueCents: usdToCents(159.0) }) });
    expect(declaredValueCents(bulk)).toBe(795_000);
  });

  it("falls back to the customs value for a zero price, as eHub's truthy check does", () => {
    const freebie = item({ priceCents: 0, quantity: 2, customsData: customsData({ valueCents: 250 }) });
    expect(declaredValueCents(freebie)).toBe(500);
  });

  it("adds 0.10 and 0.20 to exactly 0.30, where floats give 0.30000000000000004", () => {
    const items = [item({ priceCents: usdToCents(0.1) }), item({ priceCents: usdToCents(0.2) })];
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(parcelDeclaredValueCents(items)).toBe(30);
  });

  it("multiplies 0.10 by 3 exactly", () => {
    expect(declaredValueCents(item({ priceCents: usdToCents(0.1), quantity: 3 }))).toBe(30);
  });

  it("formats cents the way the forms print dollars", () => {
    expect(formatUsd(250_001)).toBe("2,500.01");
    expect(formatUsd(5)).toBe("0.05");
    expect(formatUsd(123_456_789)).toBe("1,234,567.89");
  });
});

describe("validateCustoms: international", () => {
  it("accepts a complete declaration", () => {
    expect(validateCustoms("international", [{ items: [item()] }])).toEqual([]);
  });

  it("needs nothing for a domestic shipment", () => {
    expect(validateCustoms("none", [{ items: [] }])).toEqual([]);
  });

  it("names the exact path of a missing eel_pfc", () => {
    const items = [item(), item({ customsData: customsData({ eelPfc: null }) })];
    expect(validateCustoms("international", [{ items }])).toEqual([
      {
        path: "parcels[0].parcel_items[1].customs_data.eel_pfc",
        message: "eel_pfc is required on every item of an international shipment",
      },
    ]);
  });

  it("reports an item without customs_data at its eel_pfc", () => {
    const problems = validateCustoms("international", [{ items: [item()] }, { items: [item({ customsData: null })] }]);
    expect(problems.map((problem) => problem.path)).toEqual(["parcels[1].parcel_items[0].customs_data.eel_pfc"]);
  });

  it("accepts an exemption code at exactly 2,500.00", () => {
    expect(validateCustoms("international", parcelWorth(2500.0, "NOEEI 30.37(a)"))).toEqual([]);
  });

  it("requires an ITN at 2,500.01", () => {
    const problems = validateCustoms("international", parcelWorth(2500.01, "NOEEI 30.37(a)"));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toBe("parcels[0].parcel_items[0].customs_data.eel_pfc");
    expect(problems[0]?.message).toContain("2,500.01");
    expect(validateCustoms("international", parcelWorth(2500.01, "AES X20120502123456"))).toEqual([]);
  });

  it("sums the parcel's items against the threshold, not each item alone", () => {
    const half = () => item({ priceCents: 125_001, customsData: customsData({ eelPfc: "NOEEI 30.37(a)" }) });
    const problems = validateCustoms("international", [{ items: [half(), half()] }]);
    expect(problems.map((problem) => problem.path)).toEqual([
      "parcels[0].parcel_items[0].customs_data.eel_pfc",
      "parcels[0].parcel_items[1].customs_data.eel_pfc",
    ]);
  });

  it("refuses an eel_pfc that is neither an exemption nor an ITN", () => {
    const problems = validateCustoms("international", parcelWorth(10, "EXEMPT"));
    expect(problems.map((problem) => problem.path)).toEqual(["parcels[0].parcel_items[0].customs_data.eel_pfc"]);
  });
});

describe("validateCustoms: territories and APO/FPO/DPO", () => {
  it("accepts an HS code alone", () => {
    const items = [item({ customsData: customsData({ eelPfc: null }) })];
    expect(validateCustoms("territory", [{ items }])).toEqual([]);
    expect(validateCustoms("military", [{ items }])).toEqual([]);
  });

  it("accepts an eel_pfc alone", () => {
    const items = [item({ customsData: customsData({ hsTariffCode: null }) })];
    expect(validateCustoms("territory", [{ items }])).toEqual([]);
  });

  it("asks for one of the two when both are missing", () => {
    const items = [item({ customsData: customsData({ hsTariffCode: " ", eelPfc: null }) })];
    const problems = validateCustoms("military", [{ items }]);
    expect(problems.map((problem) => problem.path)).toEqual(["parcels[0].parcel_items[0].customs_data.hs_tariff_code"]);
  });

  it("does not apply the ITN threshold", () => {
    expect(validateCustoms("territory", parcelWorth(9000, "NOEEI 30.37(a)"))).toEqual([]);
  });
});

describe("validateCustoms: item fields", () => {
  const pathsOf = (overrides: Partial<CustomsItem>) =>
    validateCustoms("international", [{ items: [item(overrides)] }]).map((problem) => problem.path);

  it.each(["61", "6109-10", "6109..10", "610910001234567", ".610910"])("refuses the HS code %s", (code) => {
    expect(pathsOf({ customsData: customsData({ hsTariffCode: code }) })).toEqual([
      "parcels[0].parcel_items[0].customs_data.hs_tariff_code",
    ]);
  });

  it("requires at least one item per parcel", () => {
    expect(validateCustoms("international", [{ items: [] }])).toEqual([
      { path: "parcels[0].parcel_items", message: "customs needs at least one parcel item" },
    ]);
  });

  it("allows at most 30 items per parcel", () => {
    const problems = validateCustoms("international", [{ items: Array.from({ length: 31 }, () => item()) }]);
    expect(problems.map((problem) => problem.path)).toEqual(["parcels[0].parcel_items"]);
  });

  it.each(["None", "n/a", "NULL", "Gift", " merchandise "])("refuses the description %j", (description) => {
    expect(pathsOf({ description })).toEqual(["parcels[0].parcel_items[0].description"]);
  });

  it("accepts a description that only contains a refused word", () => {
    expect(pathsOf({ description: "Gift box of tea" })).toEqual([]);
  });

  it("falls back to the item name and blames it", () => {
    expect(pathsOf({ description: null, name: "Wrist Band" })).toEqual([]);
    expect(pathsOf({ description: null, name: "Gift" })).toEqual(["parcels[0].parcel_items[0].name"]);
    expect(pathsOf({ description: "", name: null })).toEqual(["parcels[0].parcel_items[0].description"]);
  });

  // A 10 ¢ price keeps 9,999 units under the ITN threshold.
  it.each([0, 10_000, 1.5, -1])("refuses the quantity %s", (quantity) => {
    expect(pathsOf({ quantity, priceCents: 10 })).toEqual(["parcels[0].parcel_items[0].quantity"]);
  });

  it("accepts quantities 1 and 9999", () => {
    expect(pathsOf({ quantity: 1, priceCents: 10 })).toEqual([]);
    expect(pathsOf({ quantity: 9999, priceCents: 10 })).toEqual([]);
  });

  it("needs a price or a customs value", () => {
    expect(pathsOf({ priceCents: null })).toEqual(["parcels[0].parcel_items[0].customs_data.value"]);
    expect(pathsOf({ priceCents: null, customsData: customsData({ valueCents: 1000 }) })).toEqual([]);
  });

  it.each(["Merchandise", "GIFT", "document", "Documents", "sample", "commercial_sample", "Commercial Sample"])(
    "accepts the content type %s",
    (contentType) => {
      expect(pathsOf({ customsData: customsData({ contentType }) })).toEqual([]);
    },
  );

  it("refuses an unknown content type", () => {
    expect(pathsOf({ customsData: customsData({ contentType: "stuff" }) })).toEqual([
      "parcels[0].parcel_items[0].customs_data.content_type",
    ]);
  });

  it.each(["return", "RETURN", "return_to_sender", "abandon", "treat_as_abandoned", "redirect"])(
    "accepts the non-delivery option %s",
    (noDelivery) => {
      expect(pathsOf({ customsData: customsData({ noDelivery }) })).toEqual([]);
    },
  );

  it("refuses an unknown non-delivery option", () => {
    expect(pathsOf({ customsData: customsData({ noDelivery: "destroy" }) })).toEqual([
      "parcels[0].parcel_items[0].customs_data.no_delivery",
    ]);
  });

  it("keeps one content type per parcel", () => {
    const items = [item(), item({ customsData: customsData({ contentType: "gift" }) })];
    const problems = validateCustoms("international", [{ items }]);
    expect(problems.map((problem) => problem.path)).toEqual(["parcels[0].parcel_items[1].customs_data.content_type"]);
  });
});

describe("code formats and parcel choices", () => {
  it.each(["AES X20120502123456", "aes x20120502123456", "AES  X20120502123456", "AES ITN: X20120502123456"])(
    "reads %j as an ITN",
    (code) => {
      expect(isItn(code)).toBe(true);
    },
  );

  it.each(["X20120502123456", "AES X2012050212345", "NOEEI 30.37(a)"])("does not read %j as an ITN", (code) => {
    expect(isItn(code)).toBe(false);
  });

  it.each(["NOEEI 30.37(a)", "NO EEI 30.37(a)", "NOEEI_30_37_a", "NOEEI 30.36", "NOEEI 30.37(y)(1)"])(
    "reads %j as an EEL exemption",
    (code) => {
      expect(isEelExemption(code)).toBe(true);
    },
  );

  it.each(["610910", "6109.10", "6109.10.0012", "61091000123456", "ABC123"])("reads %s as an HS code", (code) => {
    expect(isHsTariffCode(code)).toBe(true);
  });

  it("normalises spellings", () => {
    expect(normalizeContentType("humanitarian_donations")).toBe("humanitarian_donation");
    expect(normalizeContentType("returned goods")).toBe("returned_goods");
    expect(normalizeNonDelivery("Treat-As-Abandoned")).toBe("abandon");
  });

  it("takes the parcel's category and non-delivery from its first item that says, with defaults", () => {
    const quiet = item({ customsData: customsData({ contentType: null, noDelivery: null }) });
    expect(parcelContentType([quiet, item({ customsData: customsData({ contentType: "Sample" }) })])).toBe(
      "commercial_sample",
    );
    expect(parcelContentType([quiet])).toBe("merchandise");
    expect(parcelNonDelivery([quiet])).toBe("return");
  });
});

describe("customsFormKind", () => {
  it("uses a CN 22 below $400 and a CN 23 from $400 on USPS", () => {
    expect(customsFormKind("international", 39_999, "usps", "usps_intl_first_class_package", 32)).toBe("CN22");
    expect(customsFormKind("international", 40_000, "usps", "usps_intl_first_class_package", 32)).toBe("CN23");
  });

  it("uses a CN 23 for international mail over 4 lb", () => {
    expect(customsFormKind("international", 5000, "usps", "usps_intl_priority", 64)).toBe("CN22");
    expect(customsFormKind("international", 5000, "usps", "usps_intl_priority", 65)).toBe("CN23");
  });

  it("uses a CN 23 for Priority Mail Express International", () => {
    expect(customsFormKind("international", 5000, "usps", "usps_intl_express", 8)).toBe("CN23");
  });

  it("needs no form domestically", () => {
    expect(customsFormKind("none", 90_000, "usps", "usps_priority", 100)).toBeNull();
    expect(customsFormKind("none", 90_000, "ups", "ups_ground", 100)).toBeNull();
  });

  it("uses the CN 23 as the courier carriers' full declaration", () => {
    expect(customsFormKind("international", 100, "ups", "ups_saver", 8)).toBe("CN23");
    expect(customsFormKind("international", 100, "fed_ex", "fedex_intl_priority", 8)).toBe("CN23");
    expect(customsFormKind("international", 100, "dhl_express", "express_worldwide", 8)).toBe("CN23");
  });

  it("asks military mail for a form from 16 oz, or for goods at any weight", () => {
    expect(customsFormKind("military", 1000, "usps", "usps_priority", 15, "documents")).toBeNull();
    expect(customsFormKind("military", 1000, "usps", "usps_priority", 16, "documents")).toBe("CN22");
    expect(customsFormKind("military", 1000, "usps", "usps_priority", 4, "merchandise")).toBe("CN22");
    expect(customsFormKind("military", 1000, "usps", "usps_priority", 4)).toBe("CN22");
    expect(customsFormKind("military", 40_000, "usps", "usps_priority", 320, "gift")).toBe("CN23");
  });
});
