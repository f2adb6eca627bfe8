import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { LabelContent } from "../../../src/labels/label.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { labelRequest } from "./label-requests.js";
import { readPdf } from "./label-tools.js";

/** A solid black 40 × 40 PNG, as a caller's logo. */
async function blackSquare(): Promise<string> {
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#000" } })
    .png()
    .toBuffer();
  return png.toString("base64");
}

describe("label_text1 and label_text2", () => {
  const references = { labelText1: "ORDER 1001", labelText2: "Gift wrap" };

  it.each(["usps", "ups", "fed_ex", "dhl_ecommerce", "dhl_express"] as const)("%s prints both", async (carrier) => {
    const zpl = (await renderLabel(labelRequest(carrier, { ...references, format: "zpl" }))).bytes.toString("utf8");
    expect(zpl).toContain("ORDER 1001");
    expect(zpl).toContain("Gift wrap");
    const epl = (await renderLabel(labelRequest(carrier, { ...references, format: "epl2" }))).bytes.toString("latin1");
    expect(epl).toContain('"ORDER 1001"');
    const { text } = readPdf((await renderLabel(labelRequest(carrier, { ...references, format: "pdf" }))).bytes);
    expect(text).toContain("ORDER 1001");
  });
});

describe("label_contents", () => {
  it("prints a text at its x/y", async () => {
    const contents: LabelContent[] = [{ type: "text", text: "FRAGILE", x: 2, y: 3.5, height: 0.25 }];
    const zpl = (await renderLabel(labelRequest("usps", { contents, format: "zpl" }))).bytes.toString("utf8");
    // 2 in and 3.5 in at 203 dpi.
    expect(zpl).toMatch(/\^FO406,711\^A0N,\d+,\d+\^FB\d+,1,\d+,L\^FH\^FDFRAGILE\^FS/);
    const { text } = readPdf((await renderLabel(labelRequest("usps", { contents, format: "pdf" }))).bytes);
    expect(text).toContain("FRAGILE");
  });

  it("places an image in its box in every family of formats", async () => {
    const contents: LabelContent[] = [
      { type: "image", base64Image: await blackSquare(), x: 3, y: 3, width: 0.5, height: 0.5 },
    ];
    const png = await renderLabel(labelRequest("usps", { contents, format: "png" }));
    const { data, info } = await sharp(png.bytes).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const pixel = (xIn: number, yIn: number) => data[Math.round(yIn * 203) * info.width + Math.round(xIn * 203)];
    expect(pixel(3.25, 3.25)).toBeLessThan(64);
    expect(pixel(3.25, 2.9)).toBeGreaterThan(192);

    const zpl = (await renderLabel(labelRequest("usps", { contents, format: "zpl" }))).bytes.toString("utf8");
    expect(zpl).toMatch(/\^FO609,609\^GFA,\d+,\d+,13,[0-9A-F]+\^FS/);
    const epl = (await renderLabel(labelRequest("usps", { contents, format: "epl2" }))).bytes;
    expect(epl.includes(Buffer.from("GW609,609,13,102,"))).toBe(true);
    const pdf = await renderLabel(labelRequest("usps", { contents, format: "pdf" }));
    expect(pdf.bytes.toString("latin1")).toContain("/Subtype /Image");
  });

  it("on a sheet, is placed relative to the label, not the page", async () => {
    const contents: LabelContent[] = [{ type: "text", text: "FRAGILE", x: 1, y: 1 }];
    const zpl = (await renderLabel(labelRequest("ups", { contents, size: "8.5x11", format: "zpl" }))).bytes.toString(
      "utf8",
    );
    // The label sits 1/4 inch in from the sheet's corner: 1.25 in = 254 dots.
    expect(zpl).toContain("^FO254,254^");
  });

  it("rejects an image that cannot be decoded", async () => {
    const contents: LabelContent[] = [{ type: "image", base64Image: "bm90IGFuIGltYWdl", x: 1, y: 1 }];
    await expect(renderLabel(labelRequest("usps", { contents, format: "png" }))).rejects.toThrow(
      /label_contents image/,
    );
    await expect(renderLabel(labelRequest("usps", { contents, format: "pdf" }))).rejects.toThrow(
      /label_contents image/,
    );
  });
});
