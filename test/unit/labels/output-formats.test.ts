import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { LabelFormat } from "../../../src/labels/label.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { labelRequest, UPS_1Z, USPS_PIC } from "./label-requests.js";
import { pdfMediaBox } from "./label-tools.js";

const MAGIC: Record<"png" | "jpeg" | "gif" | "tiff", (bytes: Buffer) => boolean> = {
  png: (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  gif: (bytes) => /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString("latin1")),
  tiff: (bytes) => ["II*\0", "MM\0*"].includes(bytes.subarray(0, 4).toString("latin1")),
};

describe("renderLabel: PDF", () => {
  it("is a PDF whose page is the 4x6 label in points", async () => {
    const label = await renderLabel(labelRequest("usps", { format: "pdf" }));
    expect(label.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdfMediaBox(label.bytes)).toEqual([0, 0, 288, 432]);
    expect(label).toMatchObject({ contentType: "application/pdf", extension: "pdf", widthIn: 4, heightIn: 6, dpi: 72 });
  });
});

describe("renderLabel: rasters at the thermal printer's 203 dpi", () => {
  it.each([
    ["png", "image/png", "png"],
    ["jpeg", "image/jpeg", "jpg"],
    ["gif", "image/gif", "gif"],
    ["tiff", "image/tiff", "tiff"],
  ] as const)("%s has its signature and is 812 × 1218 pixels", async (format, contentType, extension) => {
    const label = await renderLabel(labelRequest("ups", { format }));
    expect(MAGIC[format](label.bytes)).toBe(true);
    expect(label).toMatchObject({ contentType, extension, widthIn: 4, heightIn: 6, dpi: 203 });
    const metadata = await sharp(label.bytes).metadata();
    expect([metadata.width, metadata.height]).toEqual([812, 1218]);
    // GIF has no resolution field; the others print at true size.
    if (format !== "gif") expect(metadata.density).toBe(203);
  });
});

describe("renderLabel: ZPL II", () => {
  it("is one ^XA…^XZ format sized in 203 dpi dots with the tracking number in a ^BC barcode", async () => {
    const label = await renderLabel(labelRequest("ups", { format: "zpl" }));
    const zpl = label.bytes.toString("utf8");
    expect(zpl.startsWith("^XA")).toBe(true);
    expect(zpl.endsWith("^XZ")).toBe(true);
    expect(zpl).toContain("^PW812");
    expect(zpl).toContain("^LL1218");
    expect(zpl).toMatch(new RegExp(`\\^BC[^\\n]*\\^FD${UPS_1Z}\\^FS`));
    expect(zpl).toContain("^BD2"); // MaxiCode mode 2 for a US ZIP
    expect(label).toMatchObject({ contentType: "application/zpl", extension: "zpl", dpi: 203 });
  });

  it("encodes the USPS IMpb as GS1-128: subset C, FNC1, 420 + ZIP, FNC1, PIC", async () => {
    const zpl = (await renderLabel(labelRequest("usps", { format: "zpl" }))).bytes.toString("utf8");
    expect(zpl).toContain(`^FD>;>842094043>8${USPS_PIC}^FS`);
    expect(zpl).toContain("^BXN"); // DataMatrix in the indicia
  });

  it("prints FedEx's PDF417 with ^B7", async () => {
    const zpl = (await renderLabel(labelRequest("fed_ex", { format: "zpl" }))).bytes.toString("utf8");
    expect(zpl).toContain("^B7N");
  });
});

describe("renderLabel: EPL2", () => {
  it("clears the buffer first, prints one label last, and bar-codes the tracking number", async () => {
    const label = await renderLabel(labelRequest("ups", { format: "epl2" }));
    const epl = label.bytes.toString("latin1");
    expect(epl.startsWith("N\n")).toBe(true);
    expect(epl.endsWith("P1\n")).toBe(true);
    expect(epl).toContain("q812\n");
    expect(epl).toMatch(new RegExp(`\\nB\\d+,\\d+,0,1,\\d+,\\d+,\\d+,N,"${UPS_1Z}"\\n`));
    expect(label).toMatchObject({ contentType: "application/epl2", extension: "epl", dpi: 203 });
  });

  it("uses UCC/EAN-128 (type 1E) for the USPS IMpb", async () => {
    const epl = (await renderLabel(labelRequest("usps", { format: "epl2" }))).bytes.toString("latin1");
    expect(epl).toMatch(new RegExp(`\\nB\\d+,\\d+,0,1E,\\d+,\\d+,\\d+,N,"42094043${USPS_PIC}"\\n`));
  });
});

describe("renderLabel: every carrier in every format", () => {
  const formats: LabelFormat[] = ["pdf", "png", "jpeg", "gif", "tiff", "zpl", "epl2"];
  it.each(["usps", "ups", "fed_ex", "dhl_ecommerce", "dhl_express"] as const)("%s renders", async (carrier) => {
    for (const format of formats) {
      const label = await renderLabel(labelRequest(carrier, { format, testMode: true }));
      expect(label.bytes.length).toBeGreaterThan(100);
    }
  });
});
