import { describe, expect, it } from "vitest";
import type { MaxiCodeItem } from "../../../src/labels/drawing.js";
import type { LabelRequest } from "../../../src/labels/label.js";
import { labelFrame } from "../../../src/labels/label-frame.js";
import { layoutLabel } from "../../../src/labels/layout/layout-label.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { DHL_ECOMMERCE_PIC, DHL_WAYBILL, FEDEX_NUMBER, labelRequest, UPS_1Z, USPS_PIC } from "./label-requests.js";
import { type InchBox, scanImage, scanPdf } from "./label-tools.js";

const RS = "\x1e";
const GS = "\x1d";
const EOT = "\x04";
/** 420 + the destination ZIP, FNC1, then the PIC: the IMpb as ZXing reads it. */
const impb = (pic: string) => ({ symbology: "GS1-128", text: `42094043${GS}${pic}` });
/** The postage DataMatrix in the USPS indicia: the IMpb data, ship date, origin ZIP and postage in cents. */
const indicia = (pic: string) => ({ symbology: "DataMatrix", text: `42094043${pic}|2025-11-25|78701|935` });
/** The UPS postal barcode beside the MaxiCode. */
const UPS_POSTAL = { symbology: "GS1-128", text: "42094043" };
const UPS_TRACKING = { symbology: "Code 128", text: UPS_1Z };
/** The UPS structured carrier message: ZIP+4, country, class, 1Z, SCAC, shipper, pickup day, n/m, lbs, street, city, state. */
const UPS_MAXICODE = {
  symbology: "MaxiCode",
  text: `[)>${RS}01${GS}96940430000${GS}840${GS}001${GS}${[
    UPS_1Z,
    "UPSN",
    "999AA1",
    "329",
    "",
    "1/1",
    "3",
    "Y",
    // Shortened so that the secondary message fits the symbol.
    "1600 AMPH",
    "MOUNTAIN VIEW",
    "CA",
  ].join(GS)}${RS}${EOT}`,
};
/** FedEx's PDF417: ZIP, country, service type, tracking number, … then the recipient (ANSI MH10.8.3 format 01). */
const FEDEX_PDF417 = {
  symbology: "PDF417",
  text: `[)>${RS}01${GS}${[
    "0294043",
    "840",
    "01",
    FEDEX_NUMBER,
    "FDEB",
    "78701",
    "329",
    "",
    "1/1",
    "2.19LB",
    "N",
    "1600 AMPHITHEATRE PKWY",
    "MOUNTAIN VIEW",
    "CA",
    "JOHN RECEIVER",
  ].join(GS)}${RS}${EOT}`,
};

/** Where the layout puts the UPS MaxiCode, which ZXing reads only once it is cropped to. */
function maxiCodeBox(request: LabelRequest): InchBox {
  const item = layoutLabel(request, labelFrame(request.size)).items.find(
    (candidate): candidate is MaxiCodeItem => candidate.kind === "matrix-code" && candidate.symbology === "maxicode",
  );
  if (!item) throw new Error("the label has no MaxiCode");
  return item;
}

describe("label barcodes scan back (ZXing)", () => {
  it("USPS PNG: the IMpb reads 420 + destination ZIP, FNC1, the tracking number; the indicia DataMatrix too", async () => {
    const symbols = await scanImage((await renderLabel(labelRequest("usps"))).bytes);
    expect(symbols).toEqual([indicia(USPS_PIC), impb(USPS_PIC)]);
  });

  it("UPS PNG: the 1Z barcode reads exactly the tracking number, beside the postal barcode", async () => {
    const symbols = await scanImage((await renderLabel(labelRequest("ups"))).bytes);
    expect(symbols).toEqual([UPS_TRACKING, UPS_POSTAL]);
  });

  it("UPS PNG and PDF: the MaxiCode carries the structured carrier message", async () => {
    const request = labelRequest("ups");
    expect(await scanImage((await renderLabel(request)).bytes, maxiCodeBox(request))).toEqual([UPS_MAXICODE]);
    const pdf = labelRequest("ups", { format: "pdf" });
    expect(await scanPdf((await renderLabel(pdf)).bytes, maxiCodeBox(pdf))).toEqual([UPS_MAXICODE]);
  });

  it("FedEx PDF, rasterised at 300 dpi: the Code 128 reads exactly the tracking number, the PDF417 the shipment", async () => {
    const symbols = await scanPdf((await renderLabel(labelRequest("fed_ex", { format: "pdf" }))).bytes);
    expect(symbols).toEqual([{ symbology: "Code 128", text: FEDEX_NUMBER }, FEDEX_PDF417]);
  });

  it("FedEx PNG: the same two symbols", async () => {
    const symbols = await scanImage((await renderLabel(labelRequest("fed_ex"))).bytes);
    expect(symbols).toEqual([{ symbology: "Code 128", text: FEDEX_NUMBER }, FEDEX_PDF417]);
  });

  it("USPS PDF, rasterised at 300 dpi: the IMpb and the indicia DataMatrix", async () => {
    const symbols = await scanPdf((await renderLabel(labelRequest("usps", { format: "pdf" }))).bytes);
    expect(symbols).toEqual([indicia(USPS_PIC), impb(USPS_PIC)]);
  });

  it("UPS PDF: the 1Z barcode reads exactly the tracking number", async () => {
    const symbols = await scanPdf((await renderLabel(labelRequest("ups", { format: "pdf" }))).bytes);
    expect(symbols).toEqual([UPS_TRACKING, UPS_POSTAL]);
  });

  it("DHL: the eCommerce IMpb and the Express waybill, each with its DataMatrix", async () => {
    const ecommerce = await scanImage((await renderLabel(labelRequest("dhl_ecommerce"))).bytes);
    expect(ecommerce).toEqual([indicia(DHL_ECOMMERCE_PIC), impb(DHL_ECOMMERCE_PIC)]);
    const request = labelRequest("dhl_express");
    const express = await scanImage((await renderLabel(request)).bytes);
    expect(express).toEqual([
      { symbology: "Code 128", text: DHL_WAYBILL },
      { symbology: "DataMatrix", text: `${DHL_WAYBILL}|SW1A 1AA|GB|${request.serviceCode}` },
    ]);
  });

  it("1-bit TIFF at 203 dpi still scans", async () => {
    const tiff = await renderLabel(labelRequest("usps", { format: "tiff" }));
    expect(await scanImage(tiff.bytes)).toEqual([indicia(USPS_PIC), impb(USPS_PIC)]);
  });
});
