import { describe, expect, it } from "vitest";
import { renderLabel } from "../../../src/labels/render-label.js";
import { labelRequest } from "./label-requests.js";
import { readPdf } from "./label-tools.js";

describe("test labels", () => {
  it("print VOID across the barcode in ZPL (reversed field) and EPL2 (reversed text)", async () => {
    const zpl = (await renderLabel(labelRequest("usps", { format: "zpl", testMode: true }))).bytes.toString("utf8");
    expect(zpl).toMatch(/\^FR\^FH\^FDVOID\^FS/);
    const epl = (await renderLabel(labelRequest("usps", { format: "epl2", testMode: true }))).bytes.toString("latin1");
    expect(epl).toMatch(/\nA\d+,\d+,0,\d,\d,\d,R,"VOID"\n/);
  });

  it("print VOID as PDF text and the USPS test notice in the postage area", async () => {
    const { text } = readPdf((await renderLabel(labelRequest("usps", { format: "pdf", testMode: true }))).bytes);
    expect(text).toContain("VOID");
    expect(text).toContain("TEST LABEL –");
    expect(text).not.toContain("U.S. POSTAGE PAID");
  });

  it("mark every carrier's test label", async () => {
    for (const carrier of ["ups", "fed_ex", "dhl_ecommerce", "dhl_express"] as const) {
      const zpl = (await renderLabel(labelRequest(carrier, { format: "zpl", testMode: true }))).bytes.toString("utf8");
      expect(zpl, carrier).toContain("^FDVOID^FS");
    }
  });

  it("are absent from production labels, which show the postage paid", async () => {
    const zpl = (await renderLabel(labelRequest("usps", { format: "zpl" }))).bytes.toString("utf8");
    expect(zpl).not.toContain("VOID");
    const { text } = readPdf((await renderLabel(labelRequest("usps", { format: "pdf" }))).bytes);
    expect(text).not.toContain("VOID");
    expect(text).toContain("U.S. POSTAGE PAID");
  });
});
