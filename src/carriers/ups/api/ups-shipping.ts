import type { CarrierAddress } from "../../carrier.js";
import type { RatedParcel, RateQuote, ServiceDefinition } from "../../catalogue.js";
import { quoteFromLines } from "../../sandbox/money.js";
import { chargeLines, many, upsCents } from "./ups-charges.js";
import { upsDimensions, upsPackagingCode, upsParty, upsServiceCode, upsWeight } from "./ups-products.js";
import type { UpsLabelImageFormat, UpsShipmentRequest, UpsShipmentResponse, UpsVoidResponse } from "./ups-wire.js";

/** Porter's label formats UPS makes itself, and UPS's name for each (`LabelImageFormat.Code`). */
const UPS_LABEL_FORMATS: Readonly<Record<string, UpsLabelImageFormat>> = { gif: "GIF", zpl: "ZPL", epl2: "EPL" };

/** The label formats a real UPS connection sells, in Porter's names. */
export const UPS_PORTER_LABEL_FORMATS = Object.keys(UPS_LABEL_FORMATS);

/** UPS's thermal label stock: 4 in wide, 6 or 8 in tall. */
const UPS_LABEL_HEIGHTS: Readonly<Record<string, string>> = { "4x6": "6", "4x8": "8" };

export const UPS_PORTER_LABEL_SIZES = Object.keys(UPS_LABEL_HEIGHTS);

/** The UPS label image format of a Porter label format, or undefined for one UPS does not make. */
export function upsLabelFormat(format: string): UpsLabelImageFormat | undefined {
  return UPS_LABEL_FORMATS[format];
}

/** What UPS calls a file of each of its label formats. */
export const UPS_LABEL_FILES: Readonly<Record<UpsLabelImageFormat, { contentType: string; extension: string }>> = {
  GIF: { contentType: "image/gif", extension: "gif" },
  ZPL: { contentType: "application/zpl", extension: "zpl" },
  EPL: { contentType: "application/epl2", extension: "epl" },
  SPL: { contentType: "application/octet-stream", extension: "spl" },
};

export interface UpsShipParty extends CarrierAddress {
  phone?: string | null;
  email?: string | null;
}

/** One label purchase, as the Shipping request needs it. */
export interface UpsShipInput {
  shipperNumber: string;
  service: ServiceDefinition;
  from: UpsShipParty;
  to: UpsShipParty;
  residential: boolean;
  parcels: readonly (RatedParcel & { reference?: string | null; description?: string | null })[];
  label: { format: UpsLabelImageFormat; size: string };
  /** YYYY-MM-DD; UPS takes up to 7 days ahead. */
  shipDate?: string;
  /** Echoed by UPS, so a purchase can be found in its logs. */
  purchaseKey: string;
  description?: string | null;
}

/** The Shipping request for a purchase: the shipper pays, one `Package` per parcel. */
export function shipRequest(input: UpsShipInput): UpsShipmentRequest {
  const serviceCode = upsServiceCode(input.service);
  if (!serviceCode) throw new RangeError(`${input.service.name} has no UPS service code`);
  const shipper = upsParty(input.from);
  return {
    ShipmentRequest: {
      Request: { RequestOption: "nonvalidate", TransactionReference: { CustomerContext: input.purchaseKey } },
      Shipment: {
        Description: (input.description?.trim() || "Merchandise").slice(0, 50),
        Shipper: { ...shipper, ShipperNumber: input.shipperNumber },
        ShipTo: upsParty(input.to, { residential: input.residential }),
        ShipFrom: shipper,
        PaymentInformation: { ShipmentCharge: [{ Type: "01", BillShipper: { AccountNumber: input.shipperNumber } }] },
        Service: { Code: serviceCode, Description: input.service.name.slice(0, 35) },
        ShipmentRatingOptions: { NegotiatedRatesIndicator: "" },
        ...(input.shipDate ? { ShipmentDate: input.shipDate.replace(/-/g, "") } : {}),
        Package: input.parcels.map((parcel) => {
          const dimensions = upsDimensions(parcel);
          const reference = parcel.reference?.trim();
          return {
            ...(parcel.description?.trim() ? { Description: parcel.description.trim().slice(0, 35) } : {}),
            Packaging: { Code: upsPackagingCode(parcel.packageType) ?? "02" },
            ...(dimensions ? { Dimensions: dimensions } : {}),
            PackageWeight: upsWeight(parcel.weightOz),
            ...(reference ? { ReferenceNumber: [{ Value: reference.slice(0, 35) }] } : {}),
          };
        }),
      },
      LabelSpecification: {
        LabelImageFormat: { Code: input.label.format },
        ...(input.label.format === "GIF" ? { HTTPUserAgent: "Mozilla/4.5" } : {}),
        LabelStockSize: { Height: UPS_LABEL_HEIGHTS[input.label.size] ?? "6", Width: "4" },
      },
    },
  };
}

export interface UpsShippedPackage {
  trackingNumber: string;
  /** The label UPS made, decoded from its base64; undefined when UPS sent none. */
  label?: { bytes: Buffer; format: UpsLabelImageFormat };
}

export interface UpsShipped {
  shipmentId: string;
  packages: UpsShippedPackage[];
  /** What UPS charged, negotiated where it says so; undefined when it named no total. */
  quote?: RateQuote;
}

/** The Shipping answer: one tracking number (and label) per package, in the order sent. Throws when unreadable. */
export function shippedPackages(answer: unknown, baseDescription: string): UpsShipped {
  const results = (answer as Partial<UpsShipmentResponse> | null)?.ShipmentResponse?.ShipmentResults;
  if (!results) throw new TypeError("no ShipmentResults in the Shipping answer");
  const packages = many(results.PackageResults).map((result) => {
    if (typeof result?.TrackingNumber !== "string" || result.TrackingNumber.trim() === "") {
      throw new TypeError("a package without a tracking number in the Shipping answer");
    }
    const image = result.ShippingLabel?.GraphicImage;
    const format = result.ShippingLabel?.ImageFormat?.Code?.toUpperCase() as UpsLabelImageFormat | undefined;
    return {
      trackingNumber: result.TrackingNumber.trim(),
      ...(image && format && format in UPS_LABEL_FILES
        ? { label: { bytes: Buffer.from(image, "base64"), format } }
        : {}),
    };
  });
  if (packages.length === 0) throw new TypeError("no PackageResults in the Shipping answer");
  const charges = results.ShipmentCharges;
  const totalCents = upsCents(
    results.NegotiatedRateCharges?.TotalCharge?.MonetaryValue ?? charges?.TotalCharges?.MonetaryValue,
  );
  const itemized = [
    ...many(charges?.ItemizedCharges),
    ...many(results.PackageResults).flatMap((p) => many(p.ItemizedCharges)),
  ];
  return {
    shipmentId: results.ShipmentIdentificationNumber ?? packages[0]!.trackingNumber,
    packages,
    ...(Number.isFinite(totalCents) && totalCents >= 0
      ? { quote: quoteFromLines(chargeLines(totalCents, itemized, baseDescription), 0) }
      : {}),
  };
}

/**
 * The Void answer: the tracking numbers UPS did not void (package status 0). A summary status
 * other than 1 with no package results counts every asked number as not voided. Throws when
 * unreadable.
 */
export function notVoided(answer: unknown, trackingNumbers: readonly string[]): string[] {
  const result = (answer as Partial<UpsVoidResponse> | null)?.VoidShipmentResponse;
  if (!result?.SummaryResult?.Status) throw new TypeError("no SummaryResult in the Void answer");
  const packages = many(result.PackageLevelResults);
  if (packages.length > 0) {
    return packages.filter((p) => p.Status?.Code !== "1").map((p) => p.TrackingNumber);
  }
  return result.SummaryResult.Status.Code === "1" ? [] : [...trackingNumbers];
}
