import { describe, expect, it } from "vitest";
import { renderLabel } from "../../../src/labels/render-label.js";
import { DHL_ECOMMERCE_PIC, DHL_WAYBILL, FEDEX_NUMBER, labelRequest, UPS_1Z, USPS_PIC } from "./label-requests.js";
import { decodePdfBarcodes, decodeRasterBarcodes } from "./label-tools.js";

describe("linear barcodes scan back (zbarimg)", () => {
  it("USPS PNG: the IMpb reads 420 + destination ZIP + the tracking number", async () => {
    const codes = await decodeRasterBarcodes((await renderLabel(labelRequest("usps"))).bytes, "png");
    expect(codes).toEqual([`42094043${USPS_PIC}`]);
    expect(codes[0]?.endsWith(USPS_PIC)).toBe(true);
  });

  it("UPS PNG: the 1Z barcode reads exactly the tracking number", async () => {
    const codes = await decodeRasterBarcodes((await renderLabel(labelRequest("ups"))).bytes, "png");
    expect(codes).toContain(UPS_1Z);
    // The other linear barcode is the postal code (420 + ZIP).
    expect(codes.filter((code) => code !== UPS_1Z)).toEqual(["42094043"]);
  });

  it("FedEx PDF, rasterised at 300 dpi: the Code 128 reads exactly the tracking number", async () => {
    const codes = await decodePdfBarcodes((await renderLabel(labelRequest("fed_ex", { format: "pdf" }))).bytes);
    expect(codes).toEqual([FEDEX_NUMBER]);
  });

  it("USPS PDF, rasterised at 300 dpi: the IMpb ends with the tracking number", async () => {
    const codes = await decodePdfBarcodes((await renderLabel(labelRequest("usps", { format: "pdf" }))).bytes);
    expect(codes).toEqual([`42094043${USPS_PIC}`]);
  });

  it("UPS PDF: the 1Z barcode reads exactly the tracking number", async () => {
    const codes = await decodePdfBarcodes((await renderLabel(labelRequest("ups", { format: "pdf" }))).bytes);
    expect(codes).toContain(UPS_1Z);
  });

  it("DHL: the eCommerce IMpb and the Express waybill", async () => {
    const ecommerce = await decodeRasterBarcodes((await renderLabel(labelRequest("dhl_ecommerce"))).bytes, "png");
    expect(ecommerce).toEqual([`42094043${DHL_ECOMMERCE_PIC}`]);
    const express = await decodeRasterBarcodes((await renderLabel(labelRequest("dhl_express"))).bytes, "png");
    expect(express).toEqual([DHL_WAYBILL]);
  });

  it("1-bit TIFF at 203 dpi still scans", async () => {
    const tiff = await renderLabel(labelRequest("usps", { format: "tiff" }));
    expect(await decodeRasterBarcodes(tiff.bytes, "tiff")).toEqual([`42094043${USPS_PIC}`]);
  });
});
