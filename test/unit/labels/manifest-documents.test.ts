import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { electronicFileNumber } from "../../../src/carriers/usps/manifest.js";
import { impbTrackingNumber, isValidImpb } from "../../../src/carriers/usps/tracking-number.js";
import {
  type ManifestDocument,
  type ManifestRow,
  manifestPdf,
} from "../../../src/labels/manifest/manifest-document.js";

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

async function* rows(count: number): AsyncIterable<ManifestRow> {
  for (let i = 1; i <= count; i++)
    yield { trackingNumber: trackingNumber(i), countedAs: "USPS Ground Advantage", shipmentId: i };
}

async function render(document: ManifestDocument, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of manifestPdf(document, rows(count))) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The text shown by every content stream of the file, in order. */
function shownText(pdf: Buffer): string {
  const text: string[] = [];
  const latin = pdf.toString("latin1");
  for (const match of latin.matchAll(/\/Filter \/FlateDecode \/Length (\d+) >>\nstream\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const content = inflateSync(pdf.subarray(start, start + Number(match[1]))).toString("latin1");
    for (const shown of content.matchAll(/\((.*?)\) Tj/g)) text.push(shown[1] as string);
  }
  return text.join("\n");
}

describe("manifest documents", () => {
  it("gives the SCAN form an electronic file number with the PIC's check digit", () => {
    expect(electronicFileNumber(42)).toMatch(/^94750999000001\d{8}$/);
    expect(isValidImpb(electronicFileNumber(42))).toBe(true);
  });

  it("lists every tracking number of a SCAN form over as many pages as needed, page n of N", async () => {
    const pdf = await render(scanForm(1000), 1000);
    const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(pdf.toString("latin1"))?.[1]);
    expect(pages).toBeGreaterThan(5);
    const text = shownText(pdf);
    expect(text).toContain("SCAN Form – Shipment Confirmation Acceptance Notice".replace("–", "\x96"));
    expect(text).toContain("PS Form 5630");
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain("TEST DOCUMENT");
    for (const serial of [1, 500, 1000]) {
      expect(text).toContain(
        trackingNumber(serial)
          .match(/.{1,4}/g)
          ?.join(" "),
      );
    }
    expect(pdf.subarray(-6).toString()).toBe("%%EOF\n");
  });

  it("draws a DHL eCommerce manifest with the manifest id on every page", async () => {
    const pdf = await render(
      { ...scanForm(300), kind: "dhl-ecommerce-manifest", documentNumber: "53999990000000007" },
      300,
    );
    const text = shownText(pdf);
    expect(text).toContain("DHL eCommerce \x96 Manifest");
    expect(text).toContain("53999990000000007-1");
    expect(text).toContain("53999990000000007-2");
  });
});
