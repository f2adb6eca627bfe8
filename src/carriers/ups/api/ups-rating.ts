import type { RateRequest } from "../../carrier.js";
import type { RateQuote, ServiceDefinition } from "../../catalogue.js";
import { quoteFromLines } from "../../sandbox/money.js";
import { chargeLines, many, upsCents } from "./ups-charges.js";
import {
  porterService,
  upsDimensions,
  upsPackageServiceOptions,
  upsPackagingCode,
  upsParty,
  upsWeight,
} from "./ups-products.js";
import type { UpsRatedShipment, UpsRateRequest, UpsRateResponse, UpsWeight } from "./ups-wire.js";

/** Rating takes state codes of two characters (Rating.yaml's `StateProvinceCode`), Shipping up to five. */
const RATING_STATE_MAX = 2;

/**
 * The Rating request option: every service at once, with UPS's transit times and delivery dates
 * when the ship date is known (`Shoptimeintransit`), else prices alone (`Shop`).
 */
export function shopOption(request: Pick<RateRequest, "shipDate">): "Shop" | "Shoptimeintransit" {
  return request.shipDate ? "Shoptimeintransit" : "Shop";
}

/**
 * A Rating request for every parcel of the shipment, rated under the connection's shipper number
 * (its negotiated rates where UPS has them). Parcels in packaging UPS does not make are sent as
 * the shipper's own package; the services that cannot take them are refused before asking. With
 * a ship date, it asks for time in transit from that pickup date.
 */
export function rateRequest(request: RateRequest, shipperNumber: string): UpsRateRequest {
  const shipper = upsParty(request.from, { stateMax: RATING_STATE_MAX });
  const totalOz = request.parcels.reduce((sum, parcel) => sum + parcel.weightOz, 0);
  return {
    RateRequest: {
      Request: { RequestOption: shopOption(request), TransactionReference: { CustomerContext: "Porter rating" } },
      Shipment: {
        Shipper: { ...shipper, ShipperNumber: shipperNumber },
        ShipTo: upsParty(request.to, { residential: request.residential, stateMax: RATING_STATE_MAX }),
        ShipFrom: shipper,
        PaymentDetails: { ShipmentCharge: [{ Type: "01", BillShipper: { AccountNumber: shipperNumber } }] },
        ShipmentRatingOptions: { NegotiatedRatesIndicator: "" },
        NumOfPieces: String(request.parcels.length),
        ...(request.shipDate
          ? {
              ShipmentTotalWeight: upsWeight(totalOz),
              DeliveryTimeInformation: { PackageBillType: "03", Pickup: { Date: request.shipDate.replace(/-/g, "") } },
            }
          : {}),
        Package: request.parcels.map((parcel) => {
          const dimensions = upsDimensions(parcel);
          return {
            PackagingType: { Code: upsPackagingCode(parcel.packageType) ?? "02" },
            ...(dimensions ? { Dimensions: dimensions } : {}),
            PackageWeight: upsWeight(parcel.weightOz),
            ...upsPackageServiceOptions(parcel, "rating"),
          };
        }),
      },
    },
  };
}

/** UPS's price of one of its services for the whole shipment, as Porter reads it. */
export interface UpsServiceQuote {
  service: ServiceDefinition;
  quote: RateQuote;
  /** The zone UPS rated in ("005" → "05"), or null where it names none. */
  zone: string | null;
  /** YYYY-MM-DD when UPS says when it delivers, else null. */
  deliveryDate: string | null;
  /** Business days in transit when UPS says, else null. */
  transitDays: number | null;
}

/** UPS dates ("20260301" or "2026-03-01") as YYYY-MM-DD; null when absent or unreadable. */
export function upsDate(value: string | undefined): string | null {
  const digits = (value ?? "").replace(/-/g, "").trim();
  if (!/^\d{8}$/.test(digits)) return null;
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
}

function weightOz(weight: UpsWeight | undefined): number {
  const value = Number(weight?.Weight);
  if (!Number.isFinite(value) || value <= 0) return 0;
  const unit = weight?.UnitOfMeasurement?.Code?.toUpperCase();
  return Math.round(value * (unit === "KGS" ? 35.274 : unit === "OZS" ? 1 : 16));
}

/** "005" → "05", "8" → "08"; null for an absent zone. */
function zoneOf(zone: string | undefined): string | null {
  const digits = (zone ?? "").trim();
  if (digits === "") return null;
  return /^\d+$/.test(digits) ? String(Number(digits)).padStart(2, "0") : digits;
}

/** One rated shipment as a Porter quote: UPS's negotiated total where given, else its published total. */
export function quoteOf(rated: UpsRatedShipment, baseDescription: string): RateQuote | undefined {
  const negotiated = rated.NegotiatedRateCharges;
  const totalCents = upsCents(negotiated?.TotalCharge?.MonetaryValue ?? rated.TotalCharges?.MonetaryValue);
  if (!Number.isFinite(totalCents) || totalCents < 0) return undefined;
  const packages = many(rated.RatedPackage);
  const itemized = negotiated
    ? [...many(negotiated.ItemizedCharges), ...packages.flatMap((p) => many(p.NegotiatedCharges?.ItemizedCharges))]
    : [...many(rated.ItemizedCharges), ...packages.flatMap((p) => many(p.ItemizedCharges))];
  return quoteFromLines(chargeLines(totalCents, itemized, baseDescription), weightOz(rated.BillingWeight));
}

/**
 * The Shop answer as quotes of Porter's services, for those asked for (`services`); UPS's
 * services Porter does not sell are left out. Throws when the answer is not a Rating answer.
 */
export function shopQuotes(answer: unknown, services: readonly ServiceDefinition[]): UpsServiceQuote[] {
  const rated = (answer as Partial<UpsRateResponse> | null)?.RateResponse?.RatedShipment;
  if (rated === undefined) throw new TypeError("no RatedShipment in the Rating answer");
  const asked = new Set(services.map((s) => s.serviceCode));
  const quotes: UpsServiceQuote[] = [];
  for (const shipment of many(rated)) {
    const service = porterService(String(shipment?.Service?.Code ?? ""));
    if (!service || !asked.has(service.serviceCode)) continue;
    const quote = quoteOf(shipment, service.name);
    if (!quote) throw new TypeError(`no readable total for UPS service ${shipment.Service.Code}`);
    const arrival = shipment.TimeInTransit?.ServiceSummary?.EstimatedArrival;
    const days = Number(arrival?.BusinessDaysInTransit ?? shipment.GuaranteedDelivery?.BusinessDaysInTransit);
    quotes.push({
      service: services.find((s) => s.serviceCode === service.serviceCode) ?? service,
      quote,
      zone: zoneOf(shipment.Zone),
      deliveryDate: upsDate(arrival?.Arrival?.Date ?? shipment.GuaranteedDelivery?.ScheduledDeliveryDate),
      transitDays: Number.isInteger(days) && days > 0 ? days : null,
    });
  }
  return quotes;
}
