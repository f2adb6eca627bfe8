import { describe, expect, it } from "vitest";
import { retryAfterMs } from "../../../src/carriers/api-client/carrier-http-client.js";
import { findService } from "../../../src/carriers/registry.js";
import { quoteFromBaseRates } from "../../../src/carriers/usps/api/usps-api-carrier.js";
import { uspsErrorWords } from "../../../src/carriers/usps/api/usps-client.js";
import { uspsCredentials } from "../../../src/carriers/usps/api/usps-credentials.js";
import { feeKind } from "../../../src/carriers/usps/api/usps-labels.js";
import {
  baseRatesQuery,
  dollarsToCents,
  processingCategory,
  uspsProduct,
} from "../../../src/carriers/usps/api/usps-products.js";
import { uspsBodyRefusals } from "../../contracts/usps-rules.js";

const box = (
  overrides: Partial<{
    lengthIn: number;
    widthIn: number;
    heightIn: number;
    weightOz: number;
    packageType: string;
  }> = {},
) => ({
  lengthIn: 10,
  widthIn: 8,
  heightIn: 4,
  weightOz: 24,
  packageType: "parcel",
  ...overrides,
});
const service = (id: number) => findService(id)!;

describe("Porter's USPS services as USPS products", () => {
  it.each([
    [1172, "USPS_GROUND_ADVANTAGE", "SP"],
    [684, "PRIORITY_MAIL", "SP"],
    [685, "PRIORITY_MAIL_EXPRESS", "PA"],
    [686, "PARCEL_SELECT", "SP"],
    [688, "MEDIA_MAIL", "SP"],
    [687, "LIBRARY_MAIL", "SP"],
  ])("service %i in a parcel is %s, rate indicator %s", (id, mailClass, rateIndicator) => {
    expect(uspsProduct(service(id), box())).toEqual({ mailClass, rateIndicator, processingCategory: "MACHINABLE" });
  });

  it("prices Flat Rate packaging by its own rate indicator", () => {
    expect(uspsProduct(service(684), box({ packageType: "flat_rate_envelope" }))).toMatchObject({
      rateIndicator: "FE",
    });
    expect(uspsProduct(service(684), box({ packageType: "medium_flat_rate_box" }))).toMatchObject({
      rateIndicator: "FB",
    });
    expect(uspsProduct(service(684), box({ packageType: "large_flat_rate_box" }))).toMatchObject({
      rateIndicator: "PL",
    });
    expect(uspsProduct(service(685), box({ packageType: "flat_rate_legal_envelope" }))).toMatchObject({
      mailClass: "PRIORITY_MAIL_EXPRESS",
      rateIndicator: "E6",
    });
  });

  it("refuses, in words, what the USPS API is not asked for yet", () => {
    expect(uspsProduct(service(683), box({ packageType: "letter" }))).toHaveProperty("refusal");
    expect(uspsProduct(service(691), box())).toHaveProperty("refusal");
    expect(uspsProduct(service(684), box({ packageType: "softpack" }))).toHaveProperty("refusal");
  });

  it("counts a parcel outside the machinable limits as NONSTANDARD", () => {
    expect(processingCategory(box())).toBe("MACHINABLE");
    expect(processingCategory(box({ lengthIn: 0, widthIn: 0, heightIn: 0 }))).toBe("MACHINABLE");
    expect(processingCategory(box({ lengthIn: 23 }))).toBe("NONSTANDARD");
    expect(processingCategory(box({ heightIn: 0.1 }))).toBe("NONSTANDARD");
    expect(processingCategory(box({ weightOz: 26 * 16 }))).toBe("NONSTANDARD");
  });

  it("writes a base-rates query the spec accepts: pounds, five-digit ZIPs, the EPS account", async () => {
    const product = uspsProduct(service(1172), box());
    if ("refusal" in product) throw new Error(product.refusal);
    const query = baseRatesQuery(product, box(), "90035-1234", "84111", "1000405525");
    expect(query).toMatchObject({
      originZIPCode: "90035",
      destinationZIPCode: "84111",
      weight: 1.5,
      priceType: "COMMERCIAL",
      accountType: "EPS",
      accountNumber: "1000405525",
    });
    expect(await uspsBodyRefusals("POST", "/prices/v3/base-rates/search", query)).toEqual([]);
    expect(baseRatesQuery(product, box(), "90035", "84111", undefined)).not.toHaveProperty("accountNumber");
  });
});

describe("USPS answers as quotes", () => {
  it("keeps USPS's total, the fees as lines of their own, in integer cents", () => {
    const quote = quoteFromBaseRates(
      {
        totalBasePrice: 8.65,
        rates: [
          {
            description: "USPS Ground Advantage Nonstandard Single-piece",
            price: 4.65,
            weight: 0.5,
            dimWeight: 0,
            fees: [{ name: "Nonstandard Length > 22", price: 4 }],
            zone: "01",
          },
        ],
      },
      box({ weightOz: 8 }),
    );
    expect(quote.totalCents).toBe(865);
    expect(quote.lines).toEqual([
      { kind: "base", description: "USPS Ground Advantage Nonstandard Single-piece", amountCents: 465 },
      { kind: "nonstandard_length_22", description: "Nonstandard Length > 22", amountCents: 400 },
    ]);
    expect(quote.billableWeightOz).toBe(8);
  });

  it("rounds dollars to whole cents and names fees as kinds", () => {
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(19.999)).toBe(2000);
    expect(feeKind("Signature Confirmation™")).toBe("signature_confirmation");
    expect(feeKind("!!")).toBe("fee");
    expect(feeKind("Insurance > $500")).toBe("insurance");
  });
});

describe("USPS errors, Retry-After and credentials", () => {
  it("reads the carrier's words from either error shape", () => {
    expect(uspsErrorWords({ error: "invalid_client", error_description: "Client authentication failed." })).toBe(
      "Client authentication failed.",
    );
    expect(
      uspsErrorWords({ error: { code: "400", message: "Bad Request", errors: [{ detail: "weight is required." }] } }),
    ).toBe("Bad Request: weight is required.");
    expect(uspsErrorWords("<html>")).toBeUndefined();
  });

  it("reads Retry-After as seconds or as a date", () => {
    const now = new Date("2026-11-26T12:00:00.000Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Thu, 26 Nov 2026 12:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs("soon", now)).toBeUndefined();
  });

  it("takes the OAuth client and the payer's numbers, and names what is wrong", () => {
    expect(uspsCredentials({})).toBeUndefined();
    expect(uspsCredentials({ client_id: "a", client_secret: "b", crid: "123", mid: "456" })).toMatchObject({
      clientId: "a",
      crid: "123",
      mid: "456",
      epsAccount: null,
    });
    expect(() => uspsCredentials({ client_id: "a" })).toThrow(/client_secret/);
    expect(() => uspsCredentials({ client_id: "a", client_secret: "b", crid: "12-3" })).toThrow(/crid/);
  });
});
