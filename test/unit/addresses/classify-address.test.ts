import { describe, expect, it } from "vitest";
import { classifyAddress } from "../../../src/domain/addresses/classify-address.js";

describe("classifyAddress", () => {
  it("classifies a plain street address as residential", () => {
    expect(classifyAddress({ address1: "220 S STATE ST", address2: "APT 4" })).toBe("residential");
  });

  it("classifies an address with a company name as commercial", () => {
    expect(classifyAddress({ company: "Acme", address1: "220 S STATE ST" })).toBe("commercial");
  });

  it("accepts null fields, as stored addresses have them", () => {
    expect(classifyAddress({ company: null, address1: "220 S STATE ST", address2: null })).toBe("residential");
  });

  it("ignores a blank company name", () => {
    expect(classifyAddress({ company: "  ", address1: "220 S STATE ST" })).toBe("residential");
  });

  it.each(["STE 400", "Suite 400", "FL 3", "Bldg C", "Dept 12", "OFC", "Room 101", "Hangar 7", "Lobby"])(
    "classifies the business unit %s on address2 as commercial",
    (address2) => {
      expect(classifyAddress({ address1: "100 MAIN ST", address2 })).toBe("commercial");
    },
  );

  it("finds a business unit on address3", () => {
    expect(classifyAddress({ address1: "100 MAIN ST", address3: "FL 2" })).toBe("commercial");
  });

  it("finds a business unit written after the street on address1", () => {
    expect(classifyAddress({ address1: "123 North Main Avenue Suite 400" })).toBe("commercial");
  });

  it.each(["12 Post Office Rd", "5 Suite St", "100 Building Ln"])(
    "does not read the street name %s as a unit",
    (address1) => {
      expect(classifyAddress({ address1 })).toBe("residential");
    },
  );

  it.each(["APT 4", "UNIT B", "TRLR 12", "LOT 5", "REAR"])("keeps the home unit %s residential", (address2) => {
    expect(classifyAddress({ address1: "100 MAIN ST", address2 })).toBe("residential");
  });

  it("classifies a PO BOX as commercial only in a business context", () => {
    expect(classifyAddress({ address1: "PO BOX 123" })).toBe("residential");
    expect(classifyAddress({ company: "Acme", address1: "PO BOX 123" })).toBe("commercial");
  });
});
