/** How addresses read on a label: the destination country by its name, every street line. */
import { describe, expect, it } from "vitest";
import type { CarrierCode } from "../../../src/carriers/catalogue.js";
import { countryName } from "../../../src/labels/layout/country-codes.js";
import { addressLines } from "../../../src/labels/layout/label-values.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { labelRequest, TO } from "./label-requests.js";
import { readPdf } from "./label-tools.js";

const TORONTO = {
  ...TO,
  address1: "290 Bremner Blvd",
  address2: "Floor 3",
  address3: "Attn Receiving Dock 4",
  city: "Toronto",
  state: "ON",
  postalCode: "M5V 3L9",
  country: "CA",
};

describe("address lines", () => {
  it.each([
    ["CA", "CANADA"],
    ["gb", "UNITED KINGDOM"],
    ["HK", "HONG KONG"],
    ["MM", "MYANMAR"],
    ["CD", "CONGO, DEMOCRATIC REPUBLIC OF THE"],
    ["XX", "XX"],
  ])("prints country %s as %s", (code, name) => {
    expect(countryName(code)).toBe(name);
  });

  it("ends a foreign address with its country's name, after every street line", () => {
    expect(addressLines(TORONTO, { uppercase: true, phone: false })).toEqual([
      "JOHN RECEIVER",
      "290 BREMNER BLVD",
      "FLOOR 3",
      "ATTN RECEIVING DOCK 4",
      "TORONTO ON M5V 3L9",
      "CANADA",
    ]);
    // A US address names no country.
    expect(addressLines(TO, { uppercase: true, phone: false }).at(-1)).toBe("MOUNTAIN VIEW CA 94043");
  });

  it.each(["usps", "ups", "fed_ex", "dhl_express"] as CarrierCode[])(
    "%s labels print the destination as CANADA, not CA",
    async (carrier) => {
      const request = labelRequest(carrier, { to: TORONTO, format: "pdf", barcodeData: undefined });
      const { text } = readPdf((await renderLabel(request)).bytes);
      expect(text).toContain("CANADA");
      expect(text).toContain("ATTN RECEIVING DOCK 4");
      expect(text.split("\n")).not.toContain("CA");
    },
  );
});
