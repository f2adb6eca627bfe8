import type { LabelFormat } from "../../../labels/label.js";
import type { CarrierAddress } from "../../carrier.js";
import type { RatedParcel, RateQuote, ServiceDefinition } from "../../catalogue.js";
import { quoteFromLines } from "../../sandbox/money.js";
import { chargeLines, many, packageQuotes, upsCents } from "./ups-charges.js";
import { takesInvoiceLineTotal } from "./ups-customs.js";
import {
  upsDimensions,
  upsPackageServiceOptions,
  upsPackagingCode,
  upsParty,
  upsServiceCode,
  upsWeight,
  withAttention,
} from "./ups-products.js";
import type {
  UpsInternationalForms,
  UpsLabelImageFormat,
  UpsMoney,
  UpsShipmentRequest,
  UpsShipmentResponse,
  UpsVoidResponse,
} from "./ups-wire.js";

/**
 * Porter's label formats a real UPS connection sells, and what UPS is asked for each
 * (`LabelImageFormat.Code`). UPS's Shipping makes GIF, ZPL, EPL and SPL only; a PNG or PDF label
 * is UPS's GIF, re-encoded when stored. SPL has no Porter name.
 */
const UPS_LABEL_FORMATS: Readonly<Partial<Record<LabelFormat, UpsLabelImageFormat>>> = {
  gif: "GIF",
  png: "GIF",
  pdf: "GIF",
  zpl: "ZPL",
  epl2: "EPL",
};

/** The label formats a real UPS connection sells, in Porter's names. */
export const UPS_PORTER_LABEL_FORMATS = Object.keys(UPS_LABEL_FORMATS) as LabelFormat[];

/** UPS's thermal label stock: 4 in wide, 6 or 8 in tall. */
const UPS_LABEL_HEIGHTS: Readonly<Record<string, string>> = { "4x6": "6", "4x8": "8" };

export const UPS_PORTER_LABEL_SIZES = Object.keys(UPS_LABEL_HEIGHTS);

/** The UPS label image format of a Porter label format, or undefined for one UPS does not make. */
export function upsLabelFormat(format: string): UpsLabelImageFormat | undefined {
  return UPS_LABEL_FORMATS[format as LabelFormat];
}

const UPS_IMAGE_FORMATS: readonly string[] = ["GIF", "ZPL", "EPL", "SPL"];

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
  /** The commercial invoice UPS makes for a shipment abroad. */
  customs?: { forms: UpsInternationalForms; invoiceLineTotal: UpsMoney };
  /** A return label: `from` is the customer the parcel is collected from, `to` the merchant. */
  returnLabel?: boolean;
}

/**
 * UPS's return product Porter sells: Print Return Label (`ReturnService.Code` 9), whose label
 * comes back in the answer like an outbound one (Shipping.yaml `Shipment_ReturnService`).
 */
export const UPS_PRINT_RETURN_LABEL = { Code: "9", Description: "UPS Print Return Label" } as const;

/** Services UPS does not carry returns on (Shipping.yaml `Service.Code`: 13, 59 among them). */
const NO_RETURN_SERVICE_CODES: readonly string[] = ["13", "59"];

/** Origins whose return shipments carry one package only (Shipping.yaml `Shipment_Package`). */
const ONE_PACKAGE_RETURN_ORIGINS: readonly string[] = ["US", "PR"];

/** Why UPS cannot carry this return shipment, in words; undefined when it can. */
export function upsReturnRefusal(
  service: ServiceDefinition,
  fromCountry: string,
  parcelCount: number,
): string | undefined {
  const code = upsServiceCode(service);
  if (code && NO_RETURN_SERVICE_CODES.includes(code)) return `UPS carries no return shipments on ${service.name}.`;
  if (parcelCount > 1 && ONE_PACKAGE_RETURN_ORIGINS.includes(fromCountry.trim().toUpperCase())) {
    return "UPS return shipments from the US and Puerto Rico carry one parcel; buy a return label per parcel.";
  }
  return undefined;
}

/**
 * The Shipping request for a purchase: the shipper pays, one `Package` per parcel. Every party
 * names a contact (`AttentionName`), which UPS requires of the shipper and the recipient across a
 * border and of the recipient of Next Day Air Early. A return shipment names its return service,
 * the merchant (the account's holder, who pays) as shipper and recipient, and the customer as
 * ShipFrom, which a return requires; each package then carries a description, which it requires
 * too (Shipping.yaml `Shipment_ShipFrom`, `Shipment_Package.Description`).
 */
export function shipRequest(input: UpsShipInput): UpsShipmentRequest {
  const serviceCode = upsServiceCode(input.service);
  if (!serviceCode) throw new RangeError(`${input.service.name} has no UPS service code`);
  const shipFrom = withAttention(upsParty(input.from));
  const shipper = input.returnLabel ? withAttention(upsParty(input.to)) : shipFrom;
  const from = input.from.country.trim().toUpperCase();
  const to = input.to.country.trim().toUpperCase();
  const description = (input.description?.trim() || "Merchandise").slice(0, 50);
  return {
    ShipmentRequest: {
      Request: { RequestOption: "nonvalidate", TransactionReference: { CustomerContext: input.purchaseKey } },
      Shipment: {
        Description: description,
        ...(input.returnLabel ? { ReturnService: { ...UPS_PRINT_RETURN_LABEL } } : {}),
        Shipper: { ...shipper, ShipperNumber: input.shipperNumber },
        ShipTo: withAttention(upsParty(input.to, { residential: input.residential })),
        ShipFrom: shipFrom,
        PaymentInformation: { ShipmentCharge: [{ Type: "01", BillShipper: { AccountNumber: input.shipperNumber } }] },
        Service: { Code: serviceCode, Description: input.service.name.slice(0, 35) },
        ShipmentRatingOptions: { NegotiatedRatesIndicator: "" },
        ...(input.shipDate ? { ShipmentDate: input.shipDate.replace(/-/g, "") } : {}),
        ...(input.customs
          ? {
              ...(takesInvoiceLineTotal(from, to) ? { InvoiceLineTotal: input.customs.invoiceLineTotal } : {}),
              ShipmentServiceOptions: { InternationalForms: input.customs.forms },
            }
          : {}),
        Package: input.parcels.map((parcel) => {
          const dimensions = upsDimensions(parcel);
          const reference = parcel.reference?.trim();
          const packageDescription = parcel.description?.trim() || (input.returnLabel ? description : "");
          return {
            ...(packageDescription ? { Description: packageDescription.slice(0, 35) } : {}),
            Packaging: { Code: upsPackagingCode(parcel.packageType) ?? "02" },
            ...(dimensions ? { Dimensions: dimensions } : {}),
            PackageWeight: upsWeight(parcel.weightOz),
            ...(reference ? { ReferenceNumber: [{ Value: reference.slice(0, 35) }] } : {}),
            ...upsPackageServiceOptions(parcel, "shipping"),
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
  /** The commercial invoice UPS made, decoded from its base64 (a PDF), for a shipment abroad. */
  customsDocument?: Buffer;
  /** What UPS charged, negotiated where it says so, and that split per package; undefined when it named no total. */
  charges?: { quote: RateQuote; packageQuotes: RateQuote[] };
}

const OUNCES_PER_POUND = 16;

/** A parcel's billable weight when UPS names none per package: its own, up to the next pound. */
function poundsUp(weightOz: number): number {
  return Math.ceil(weightOz / OUNCES_PER_POUND) * OUNCES_PER_POUND;
}

/**
 * The Shipping answer: one tracking number (and label) per package, in the order sent, and what
 * UPS charged. Throws when unreadable.
 */
export function shippedPackages(
  answer: unknown,
  baseDescription: string,
  parcelWeightsOz: readonly number[],
): UpsShipped {
  const results = (answer as Partial<UpsShipmentResponse> | null)?.ShipmentResponse?.ShipmentResults;
  if (!results) throw new TypeError("no ShipmentResults in the Shipping answer");
  const packageResults = many(results.PackageResults);
  const packages = packageResults.map((result) => {
    if (typeof result?.TrackingNumber !== "string" || result.TrackingNumber.trim() === "") {
      throw new TypeError("a package without a tracking number in the Shipping answer");
    }
    const image = result.ShippingLabel?.GraphicImage;
    const format = result.ShippingLabel?.ImageFormat?.Code?.toUpperCase() as UpsLabelImageFormat | undefined;
    return {
      trackingNumber: result.TrackingNumber.trim(),
      ...(image && format && UPS_IMAGE_FORMATS.includes(format)
        ? { label: { bytes: Buffer.from(image, "base64"), format } }
        : {}),
    };
  });
  if (packages.length === 0) throw new TypeError("no PackageResults in the Shipping answer");
  const charges = results.ShipmentCharges;
  const totalCents = upsCents(
    results.NegotiatedRateCharges?.TotalCharge?.MonetaryValue ?? charges?.TotalCharges?.MonetaryValue,
  );
  const invoice = results.Form?.Image?.GraphicImage;
  const shipped = {
    shipmentId: results.ShipmentIdentificationNumber ?? packages[0]!.trackingNumber,
    packages,
    ...(invoice ? { customsDocument: Buffer.from(invoice, "base64") } : {}),
  };
  if (!Number.isFinite(totalCents) || totalCents < 0) return shipped;
  const weights = packages.map((_, index) => poundsUp(parcelWeightsOz[index] ?? 0));
  const shipmentItemized = many(charges?.ItemizedCharges);
  const packageItemized = packageResults.map((p) => many(p.ItemizedCharges));
  const billed = Number(results.BillingWeight?.Weight);
  return {
    ...shipped,
    charges: {
      quote: quoteFromLines(
        chargeLines(totalCents, [...shipmentItemized, ...packageItemized.flat()], baseDescription),
        billed > 0 ? Math.round(billed * OUNCES_PER_POUND) : weights.reduce((sum, w) => sum + w, 0),
      ),
      packageQuotes: packageQuotes(totalCents, shipmentItemized, packageItemized, baseDescription, weights),
    },
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
