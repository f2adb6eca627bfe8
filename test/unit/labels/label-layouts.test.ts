import { describe, expect, it } from "vitest";
import { maxiCodeSecondaryMessage } from "../../../src/labels/barcodes/matrix-symbol.js";
import type { DrawingItem, LabelDrawing, MaxiCodeItem, TextItem } from "../../../src/labels/drawing.js";
import { LABEL_SIZES, type LabelRequest, type LabelSize } from "../../../src/labels/label.js";
import { labelFrame } from "../../../src/labels/label-frame.js";
import { layoutLabel } from "../../../src/labels/layout/layout-label.js";
import { labelRequest, REQUESTS, USPS_PIC } from "./label-requests.js";

function drawing(request: LabelRequest, size: LabelSize = "4x6"): LabelDrawing {
  return layoutLabel(request, labelFrame(size));
}

function texts(items: readonly DrawingItem[]): string[] {
  return items.filter((item): item is TextItem => item.kind === "text").flatMap((item) => item.lines);
}

function bottom(item: DrawingItem): number {
  return item.y + (item.kind === "text" ? item.lines.length * item.lineHeight : item.height);
}

describe("carrier layouts", () => {
  const carriers = Object.keys(REQUESTS) as Array<keyof typeof REQUESTS>;

  it.each(LABEL_SIZES)("%s: every carrier's label stays inside the label area", (size) => {
    const frame = labelFrame(size);
    for (const carrier of carriers) {
      const long = { labelText1: "REFERENCE ONE", labelText2: "REFERENCE TWO", testMode: true };
      const { items } = layoutLabel(labelRequest(carrier, long), frame);
      // The sheet's cut line is the one item around, not inside, the label area.
      const inside = items.filter((item) => !(frame.sheet && item.kind === "box" && item.x < frame.originXIn));
      for (const item of inside) {
        expect(item.x, `${carrier} ${item.kind}`).toBeGreaterThanOrEqual(frame.originXIn - 1e-9);
        expect(item.y, `${carrier} ${item.kind}`).toBeGreaterThanOrEqual(frame.originYIn - 1e-9);
        expect(item.x + item.width, `${carrier} ${item.kind}`).toBeLessThanOrEqual(
          frame.originXIn + frame.area.widthIn + 1e-9,
        );
        expect(bottom(item), `${carrier} ${item.kind}`).toBeLessThanOrEqual(
          frame.originYIn + frame.area.heightIn + 1e-9,
        );
      }
    }
  });

  it("USPS: service icon letter, banner, endorsement and IMpb (GS1-128 of 420 + ZIP, then the PIC)", () => {
    const { items } = drawing(REQUESTS.usps);
    const lines = texts(items);
    expect(lines).toContain("P");
    expect(lines).toContain("USPS PRIORITY MAIL");
    expect(lines).toContain("RETURN SERVICE REQUESTED");
    expect(lines).toContain("USPS TRACKING # EP");
    expect(lines).toContain(USPS_PIC.match(/.{1,4}/g)?.join(" "));
    const barcode = items.find((item) => item.kind === "linear-barcode");
    expect(barcode).toMatchObject({ symbology: "gs1-128", elements: ["42094043", USPS_PIC] });
    expect(items.some((item) => item.kind === "matrix-code" && item.symbology === "datamatrix")).toBe(true);
  });

  it.each([
    ["usps_express", "E", "USPS PRIORITY MAIL EXPRESS"],
    ["usps_ground_advantage", "G", "USPS GROUND ADVANTAGE"],
    ["usps_first_class", "F", "USPS FIRST-CLASS"],
  ])("USPS %s: icon %s and banner %s", (serviceCode, letter, banner) => {
    const lines = texts(drawing(labelRequest("usps", { serviceCode })).items);
    expect(lines).toContain(letter);
    expect(lines).toContain(banner);
  });

  it("USPS Media Mail prints a solid square icon", () => {
    const { items } = drawing(labelRequest("usps", { serviceCode: "usps_media_mail", serviceName: "USPS Media Mail" }));
    expect(items[0]).toMatchObject({ kind: "rect", x: 0, y: 0, width: 1, height: 1 });
  });

  it("UPS: MaxiCode mode 2 with ZIP+4, country 840 and class 001, within the symbol's capacity", () => {
    const maxiCode = drawing(REQUESTS.ups).items.find((item): item is MaxiCodeItem => item.kind === "matrix-code");
    expect(maxiCode?.message).toMatchObject({
      mode: 2,
      postalCode: "940430000",
      countryCode: "840",
      serviceClass: "001",
    });
    expect(maxiCode?.message.fields[0]).toBe(REQUESTS.ups.trackingNumber);
    expect(maxiCodeSecondaryMessage(maxiCode?.message.fields ?? []).length).toBeLessThanOrEqual(84);
  });

  it("UPS: MaxiCode mode 3 abroad, with the alphanumeric postal code", () => {
    const to = { ...REQUESTS.ups.to, country: "CA", state: "ON", city: "Toronto", postalCode: "M5V 3L9" };
    const maxiCode = drawing(labelRequest("ups", { to })).items.find(
      (item): item is MaxiCodeItem => item.kind === "matrix-code",
    );
    expect(maxiCode?.message).toMatchObject({ mode: 3, postalCode: "M5V3L9", countryCode: "124" });
  });

  it("UPS: service banner, service-level box and the spaced 1Z", () => {
    const lines = texts(drawing(REQUESTS.ups).items);
    expect(lines).toContain("UPS NEXT DAY AIR");
    expect(lines).toContain("1");
    expect(lines).toContain("TRACKING #: 1Z 999 AA1 01 1234 5674");
    expect(lines).toContain("1 OF 1");
  });

  it("FedEx: TRK# grouped 4-4-4, a PDF417, and the Code 128 of the tracking number", () => {
    const { items } = drawing(REQUESTS.fed_ex);
    expect(texts(items)).toContain("0000 1234 5670");
    expect(items.some((item) => item.kind === "matrix-code" && item.symbology === "pdf417")).toBe(true);
    expect(items.find((item) => item.kind === "linear-barcode")).toMatchObject({
      symbology: "code128",
      data: "000012345670",
    });
  });

  it("DHL eCommerce domestic: the postal layout with a DHL header", () => {
    const { items } = drawing(REQUESTS.dhl_ecommerce);
    const lines = texts(items);
    expect(lines).toContain("DHL");
    expect(lines).toContain("DHL ECOMMERCE");
    expect(lines).toContain("USPS TRACKING # EP");
    expect(items.find((item) => item.kind === "linear-barcode")).toMatchObject({ symbology: "gs1-128" });
  });

  it("USPS abroad: the S10 number as Code 128 under the same banner", () => {
    const to = { ...REQUESTS.usps.to, country: "CA", state: "ON", city: "Toronto", postalCode: "M5V 3L9" };
    const request = labelRequest("usps", {
      serviceCode: "usps_intl_priority",
      trackingNumber: "CP000012345US",
      barcodeData: undefined,
      to,
    });
    const { items } = drawing(request);
    expect(texts(items)).toContain("USPS PRIORITY MAIL INTERNATIONAL");
    expect(items.find((item) => item.kind === "linear-barcode")).toMatchObject({
      symbology: "code128",
      data: "CP000012345US",
    });
  });

  it("DHL eCommerce abroad: the DHL layout with the package id as Code 128", () => {
    const request = labelRequest("dhl_ecommerce", { trackingNumber: "GM9999990001234567", barcodeData: undefined });
    const { items } = drawing(request);
    expect(texts(items)).toContain("DHL ECOMMERCE");
    expect(texts(items)).toContain("PACKAGE ID GM99 9999 0001 2345 67");
    expect(items.find((item) => item.kind === "linear-barcode")).toMatchObject({ data: "GM9999990001234567" });
  });

  it("DHL Express: product code and waybill", () => {
    const lines = texts(drawing(REQUESTS.dhl_express).items);
    expect(lines).toContain("DHL EXPRESS");
    expect(lines).toContain("P");
    expect(lines).toContain("WAYBILL 00 1234 5675");
  });

  it("test labels lay VOID over the tracking barcode's bars", () => {
    const { items } = drawing(labelRequest("ups", { testMode: true }));
    const barcode = items.filter((item) => item.kind === "linear-barcode").at(-1);
    const overlay = items.find((item) => item.kind === "void-overlay");
    expect(overlay).toMatchObject({ text: "VOID", y: barcode?.y, height: barcode?.height });
    expect(overlay!.x).toBeGreaterThan(barcode!.x);
    expect(overlay!.x + overlay!.width).toBeLessThan(barcode!.x + barcode!.width);
    expect(drawing(REQUESTS.ups).items.some((item) => item.kind === "void-overlay")).toBe(false);
  });

  it("compact stock leaves out secondary lines", () => {
    expect(texts(drawing(REQUESTS.ups).items)).toContain("DWT: 10,8,6");
    expect(texts(drawing(REQUESTS.ups, "2 5/16x4").items)).not.toContain("DWT: 10,8,6");
  });

  it("sheets put the label 1/4 inch in from the corner and draw a cut line", () => {
    const sheet = drawing(REQUESTS.usps, "8.5x11");
    const thermal = drawing(REQUESTS.usps);
    expect(sheet.widthIn).toBe(8.5);
    expect(sheet.items[0]!.x - thermal.items[0]!.x).toBeCloseTo(0.25);
    expect(sheet.items.at(-1)).toMatchObject({ kind: "box" });
  });
});
