import { describe, expect, it } from "vitest";
import {
  type CustomsFormInput,
  type CustomsFormLine,
  renderCustomsForm,
} from "../../../src/labels/customs-form/render-customs-form.js";
import { readPdf } from "../labels/label-tools.js";

const ITN = "AES X20120502123456";

function line(overrides: Partial<CustomsFormLine> = {}): CustomsFormLine {
  return {
    description: "Cotton T-shirt",
    quantity: 2,
    weightOz: 12,
    valueCents: 3998,
    hsTariffCode: "6109.10.0012",
    countryOfOrigin: "US",
    ...overrides,
  };
}

function form(overrides: Partial<CustomsFormInput> = {}): CustomsFormInput {
  return {
    kind: "CN22",
    carrierCode: "usps",
    reference: "LZ123456785US",
    sender: {
      name: "Ada Lovelace",
      company: "Analytical Engines LLC",
      lines: ["220 S State St", "Salt Lake City UT 84111"],
    },
    addressee: {
      name: "Charles Babbage",
      company: null,
      lines: ["1 Dorset Street", "London W1U 4EG", "United Kingdom"],
    },
    items: [line()],
    totalWeightOz: 14,
    totalValueCents: 3998,
    contentType: "merchandise",
    nonDelivery: "return",
    eelPfc: ITN,
    date: "2025-06-01",
    ...overrides,
  };
}

describe("renderCustomsForm", () => {
  it("draws a CN 22 with the USPS form number, the item and the ITN", async () => {
    const pdf = await renderCustomsForm(form({ items: [line({ description: "Wool scarf" })] }));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { text } = readPdf(pdf);
    expect(text).toContain("CN 22");
    expect(text).toContain("PS Form 2976");
    expect(text).toContain("Wool scarf");
    expect(text).toContain(ITN);
    expect(text).toContain("LZ123456785US");
    expect(text).toContain("39.98");
  });

  it("draws a CN 23 with thirty lines, totals and the document boxes", async () => {
    const items = Array.from({ length: 30 }, (_, index) => line({ description: `Item number ${index + 1}` }));
    const pdf = await renderCustomsForm(
      form({ kind: "CN23", items, totalValueCents: 119_940, invoiceNumber: "INV-1001", nonDelivery: "abandon" }),
    );
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { text } = readPdf(pdf);
    expect(text).toContain("CN 23");
    expect(text).toContain("PS Form 2976-A");
    expect(text).toContain("Item number 1");
    expect(text).toContain("Item number 30");
    expect(text).toContain("1,199.40");
    expect(text).toContain("INV-1001");
    expect(text).toContain("Treat as abandoned");
    expect(text).toContain(ITN);
    expect(text).toContain("Charles Babbage");
  });

  it("keeps the page count at one", async () => {
    const items = Array.from({ length: 30 }, () => line());
    for (const kind of ["CN22", "CN23"] as const) {
      expect(readPdf(await renderCustomsForm(form({ kind, items }))).pageCount).toBe(1);
    }
  });

  it("leaves out the USPS form number on a courier's CN 23", async () => {
    const { text } = readPdf(await renderCustomsForm(form({ kind: "CN23", carrierCode: "ups" })));
    expect(text).toContain("CN 23");
    expect(text).not.toContain("PS Form");
  });

  it("explains what Other stands for", async () => {
    const { text } = readPdf(await renderCustomsForm(form({ contentType: "humanitarian_donation" })));
    expect(text).toContain("Explanation: Humanitarian donation");
  });

  it("embeds the labels' typeface, so the form prints alike in every viewer", async () => {
    const { fonts, warnings } = readPdf(await renderCustomsForm(form()));
    expect(warnings).toEqual([]);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font.name).toMatch(/^[A-Z]{6}\+Arimo-(Regular|Bold)$/);
      expect(font.embedded).toBe(true);
    }
  });

  it("is the same bytes for the same form", async () => {
    expect((await renderCustomsForm(form())).equals(await renderCustomsForm(form()))).toBe(true);
  });

  it("refuses forms it cannot print whole", async () => {
    await expect(renderCustomsForm(form({ items: [] }))).rejects.toThrow(RangeError);
    await expect(renderCustomsForm(form({ items: Array.from({ length: 31 }, () => line()) }))).rejects.toThrow(
      RangeError,
    );
    await expect(renderCustomsForm(form({ date: "01/06/2025" }))).rejects.toThrow(RangeError);
  });
});
