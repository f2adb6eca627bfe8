import { describe, expect, it } from "vitest";
import { electronicFileNumber } from "../../../src/carriers/usps/manifest.js";
import { impbTrackingNumber, isValidImpb } from "../../../src/carriers/usps/tracking-number.js";
import {
  type ManifestDocument,
  type ManifestRow,
  manifestPdf,
} from "../../../src/labels/manifest/manifest-document.js";
import { mergedPdf } from "../../../src/labels/manifest/merged-labels.js";
import { rasterisePdf, readPdf, resavePdf, scanPdf, scanRaster } from "./label-tools.js";

const MAILER = {
  name: null,
  company: "Acme Fulfillment",
  address1: "1 Main St",
  address2: null,
  city: "Los Angeles",
  state: "CA",
  postalCode: "90035",
  country: "US",
  phone: null,
};

function scanForm(count: number): ManifestDocument {
  return {
    kind: "usps-scan-form",
    documentNumber: electronicFileNumber(42),
    mailingDate: "2026-01-15",
    createdAt: "2026-01-15T15:00:00.000Z",
    mailer: MAILER,
    originPostalCode: "90035",
    international: false,
    testMode: true,
    counts: [{ label: "USPS Ground Advantage", pieces: count }],
    trackingNumberCount: count,
  };
}

const trackingNumber = (serial: number) =>
  impbTrackingNumber(serial, { channel: "94", serviceTypeCode: "001", mailerId: "999000001" });
const grouped = (value: string) => value.match(/.{1,4}/g)?.join(" ") ?? value;

async function* rows(count: number): AsyncIterable<ManifestRow> {
  for (let i = 1; i <= count; i++) {
    yield { trackingNumber: trackingNumber(i), countedAs: "USPS Ground Advantage", shipmentId: i };
  }
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

const render = (document: ManifestDocument, count: number) => collect(manifestPdf(document, rows(count)));

describe("manifest documents", () => {
  it("gives the SCAN form an electronic file number with the PIC's check digit", () => {
    expect(electronicFileNumber(42)).toMatch(/^94750999000001\d{8}$/);
    expect(isValidImpb(electronicFileNumber(42))).toBe(true);
  });

  it("prints the SCAN form's own IMpb barcode: 420 and the entry ZIP, then the electronic file number", async () => {
    const pdf = await render(scanForm(3), 3);
    const symbols = await scanPdf(pdf);
    expect(symbols).toEqual([{ symbology: "GS1-128", text: `42090035\x1d${electronicFileNumber(42)}` }]);
    const { text, warnings } = readPdf(pdf);
    expect(warnings).toEqual([]);
    expect(text).toContain(`ELECTRONIC FILE NUMBER ${grouped(electronicFileNumber(42))}`);
  });

  it("lists every tracking number of a SCAN form over as many pages as needed, page n of N", async () => {
    const pdf = await render(scanForm(1000), 1000);
    const { pageCount, pageSizes, text, warnings } = readPdf(pdf);
    expect(warnings).toEqual([]);
    expect(pageCount).toBeGreaterThan(5);
    expect(pageSizes.every(([w, h]) => w === 612 && h === 792)).toBe(true);
    expect(text).toContain("SCAN Form – Shipment Confirmation Acceptance Notice");
    expect(text).toContain("PS Form 5630");
    expect(text).toContain("Total pieces");
    expect(text).toContain(`Page ${pageCount} of ${pageCount}`);
    expect(text).toContain("TEST DOCUMENT – NOT VALID FOR MAILING");
    for (let serial = 1; serial <= 1000; serial++) expect(text).toContain(grouped(trackingNumber(serial)));
  });

  it("draws a DHL eCommerce manifest with a barcode of the manifest id on every page", async () => {
    const pdf = await render(
      { ...scanForm(150), kind: "dhl-ecommerce-manifest", documentNumber: "53999990000000007" },
      150,
    );
    const { pageCount, text, warnings } = readPdf(pdf);
    expect(warnings).toEqual([]);
    expect(text).toContain("DHL eCommerce – Manifest");
    for (let page = 0; page < pageCount; page++) {
      expect(await scanRaster(rasterisePdf(pdf, 300, page))).toEqual([
        { symbology: "Code 128", text: `53999990000000007-${page + 1}` },
      ]);
    }
  });

  it("draws a FedEx Ground close with its shipping cycle barcoded on every page and every package listed", async () => {
    const fedexNumber = (serial: number) => `7${String(serial).padStart(11, "0")}`;
    async function* fedexRows(): AsyncIterable<ManifestRow> {
      for (let i = 1; i <= 150; i++) {
        yield {
          trackingNumber: fedexNumber(i),
          countedAs: i % 2 ? "FedEx Ground" : "FedEx Home Delivery",
          shipmentId: i,
        };
      }
    }
    const document: ManifestDocument = {
      ...scanForm(150),
      kind: "fedex-ground-close",
      documentNumber: "202611260042",
      counts: [
        { label: "FedEx Ground", pieces: 75 },
        { label: "FedEx Home Delivery", pieces: 75 },
      ],
    };
    const pdf = await collect(manifestPdf(document, fedexRows()));
    const { pageCount, text, warnings } = readPdf(pdf);
    expect(warnings).toEqual([]);
    expect(pageCount).toBeGreaterThan(1);
    expect(text).toContain("FedEx Ground – End-of-Day Close");
    expect(text).toContain("Shipping cycle: 202611260042");
    expect(text).toContain("Ship date: 01/15/2026");
    expect(text).toContain("FedEx Home Delivery");
    for (let serial = 1; serial <= 150; serial++) expect(text).toContain(fedexNumber(serial));
    for (let page = 0; page < pageCount; page++) {
      expect(await scanRaster(rasterisePdf(pdf, 300, page))).toEqual([
        { symbology: "Code 128", text: `202611260042-${page + 1}` },
      ]);
    }
  });

  it("merges documents into one sound PDF, page for page", async () => {
    const form = await render(scanForm(400), 400);
    const formPages = readPdf(form).pageCount;
    async function* documents() {
      yield { fileName: "form.pdf", bytes: form, format: "pdf", widthIn: 8.5, heightIn: 11 };
      yield { fileName: "form.pdf", bytes: form, format: "pdf", widthIn: 8.5, heightIn: 11 };
    }
    const merged = await collect(mergedPdf(documents()));
    const reading = readPdf(merged);
    expect(reading.warnings).toEqual([]);
    expect(reading.pageCount).toBe(2 * formPages);
    expect(reading.text.split("PS Form 5630 – SCAN Form").length).toBeGreaterThan(2);
  });

  it("merges a many-page document another writer saved with object streams, its pages in order", async () => {
    const form = resavePdf(await render(scanForm(400), 400), "compress,objstms");
    const pages = readPdf(form).pageCount;
    expect(pages).toBeGreaterThan(2);
    async function* documents() {
      yield { fileName: "form.pdf", bytes: form, format: "pdf", widthIn: 8.5, heightIn: 11 };
    }
    const reading = readPdf(await collect(mergedPdf(documents())));
    expect(reading.warnings).toEqual([]);
    expect(reading.pageCount).toBe(pages);
    const order = Array.from({ length: pages }, (_, page) => reading.text.indexOf(`Page ${page + 1} of ${pages}`));
    expect(order.every((at, page) => at >= 0 && at > (order[page - 1] ?? -1))).toBe(true);
  });
});
