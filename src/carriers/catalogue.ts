/**
 * The unified vocabulary every sandbox (and later real) carrier speaks: what a service is,
 * which packaging it takes, and what a rate quote contains. Carrier folders hold the data;
 * nothing carrier-specific crosses this boundary.
 */

export const CARRIER_CODES = ["usps", "ups", "fed_ex", "dhl_ecommerce", "dhl_express"] as const;
export type CarrierCode = (typeof CARRIER_CODES)[number];

/** One packaging option of a service, as the carrier names it. */
export interface PackageTypeDefinition {
  /** Wire value sent in `parcels[i].package_type`, e.g. `parcel`, `flat_rate_envelope`, `fedex_pak`. */
  type: string;
  /** Display name, e.g. "Priority Mail Flat Rate Envelope". */
  name: string;
  /** eHub's name where it differs from `name`, e.g. "FlatRateEnvelope"; `GET /services` shows it. */
  listedName?: string;
  /** Flat-rate / one-rate packaging is priced by the package, not by weight and zone. */
  flatRate?: boolean;
  /** Outside dimensions in inches where the carrier fixes them (envelopes, boxes). */
  dimensionsIn?: { length: number; width: number; height: number };
  /** Packaging-specific weight cap in ounces, when tighter than the service's. */
  maxWeightOz?: number;
}

export type ServiceScope = "domestic" | "international";
/** Which kind of destination address a service delivers to; `any` when it does not care. */
export type AddressKind = "residential" | "commercial" | "any";

/** One (id, code, name) under which eHub's catalogue lists a service. */
export interface ServiceListing {
  serviceId: number;
  /** eHub's code, e.g. `usps_priority`, `fedex_ground_home`. */
  serviceCode: string;
  /** eHub's name, e.g. "Priority Mail", "FEDEX_GROUND", "ExpressWorldwide". */
  listedName: string;
  /**
   * Set on a listing of a product the carrier has retired (or Porter does not sell): clients that
   * still send its id are sold the service it is listed under, and every answer says so in this
   * warning, which names both.
   */
  soldInstead?: string;
}

/**
 * Parcels a service does not take that the carrier sells under another of its services (USPS moved
 * First-Class Package Service parcels to Ground Advantage in July 2023): a shipment of such parcels
 * under this service is sold as `serviceId` instead, with `warning` in the answer.
 */
export interface ParcelsSoldAs {
  serviceId: number;
  packageTypes: readonly string[];
  maxWeightOz: number;
  warning: string;
}

/**
 * A service Porter rates and sells. Its own id, code and listed name are the listing a real eHub
 * account is rated under; `otherListings` are the further ids (older or newer series, sometimes
 * under another code) that eHub lists for the same service and that clients may send.
 */
export interface ServiceDefinition extends ServiceListing {
  /** The carrier's own wording, for labels and messages, e.g. "FedEx Ground". */
  name: string;
  otherListings: readonly ServiceListing[];
  carrierCode: CarrierCode;
  category: "shipping";
  scope: ServiceScope;
  /** An empty list means the service takes the generic `parcel` package type. */
  packageTypes: PackageTypeDefinition[];
  sortOrder: number | null;
  maxWeightOz: number;
  /** Longest side, inches. */
  maxLengthIn: number;
  /** Length plus girth (2×width + 2×height), inches. */
  maxLengthPlusGirthIn: number;
  /** Business days in transit, used for delivery_days / delivery_date. */
  transitDays: { min: number; max: number };
  deliveryGuaranteed: boolean;
  addressKind: AddressKind;
  /** Global Direct Entry services accept custom tracking events. */
  gde?: boolean;
  /** Several parcels (each with its own label) may ship under one shipment of this service. */
  multiParcel: boolean;
  parcelsSoldAs?: ParcelsSoldAs;
}

/** What a rate calculation needs to know about one parcel, already validated. */
export interface RatedParcel {
  lengthIn: number;
  widthIn: number;
  heightIn: number;
  weightOz: number;
  packageType: string;
  /** Value to cover with the carrier's own insurance or declared value, in cents; absent: none. */
  insuredCents?: number;
}

/** The context of a shipment that affects price but not eligibility. */
export interface RateContext {
  /** Zone as the carrier counts it: 1–9 for USPS, 2–8 for UPS/FedEx ground-style zones. */
  zone: number;
  residential: boolean;
  /** Destination country (ISO 3166-1 alpha-2). */
  toCountry: string;
  /** Origin country (ISO 3166-1 alpha-2), upper case; the United States when not known. */
  fromCountry?: string;
  /** Destination ZIP is in a carrier delivery-area-surcharge list. */
  deliveryArea: boolean;
}

/** One line of a price breakdown; amounts are integer cents. */
export interface CostLine {
  /** Stable machine name, e.g. `base`, `fuel`, `residential`, `delivery_area`, `additional_handling`, `nonstandard_length`. */
  kind: string;
  description: string;
  amountCents: number;
}

export interface RateQuote {
  totalCents: number;
  lines: CostLine[];
  /** Billable weight in ounces after dimensional weight was applied. */
  billableWeightOz: number;
}

/** How a price was found, as eHub names it: weight and zone, the cubic tier, or the packaging's flat rate. */
export type RateCalcType = "standard" | "cubic" | "flat_rate";

/** Why a service cannot carry a parcel (too heavy, wrong packaging …), in the carrier's words. */
export interface RateRefusal {
  refused: string;
}

/** One entry of eHub's catalogue, written the way its `GET /services` answers it. */
export function listing(serviceId: number, serviceCode: string, listedName: string): ServiceListing {
  return { serviceId, serviceCode, listedName };
}

/** A listing of a retired product, sold as the service it is listed under with `warning`. */
export function retiredListing(
  serviceId: number,
  serviceCode: string,
  listedName: string,
  warning: string,
): ServiceListing {
  return { serviceId, serviceCode, listedName, soldInstead: warning };
}
