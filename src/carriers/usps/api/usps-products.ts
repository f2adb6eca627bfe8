import type { RatedParcel, ServiceDefinition } from "../../catalogue.js";
import type { UspsBaseRatesQuery, UspsMailClass, UspsProcessingCategory } from "./usps-wire.js";

/** What USPS prices a parcel by: its mail class, rate indicator and processing category. */
export interface UspsProduct {
  mailClass: UspsMailClass;
  rateIndicator: string;
  processingCategory: UspsProcessingCategory;
}

const MAIL_CLASS: Record<string, UspsMailClass> = {
  usps_ground_advantage: "USPS_GROUND_ADVANTAGE",
  usps_priority: "PRIORITY_MAIL",
  usps_express: "PRIORITY_MAIL_EXPRESS",
  usps_parcel_select: "PARCEL_SELECT",
  usps_media_mail: "MEDIA_MAIL",
  usps_library_mail: "LIBRARY_MAIL",
};

/** Priority Mail's Flat Rate packaging → its rate indicator; the same at home and abroad. */
export const PRIORITY_FLAT_RATE: Readonly<Record<string, string>> = {
  flat_rate_envelope: "FE",
  flat_rate_legal_envelope: "FA",
  flat_rate_padded_envelope: "FP",
  small_flat_rate_box: "FS",
  medium_flat_rate_box: "FB",
  large_flat_rate_box: "PL",
};

/** Priority Mail Express's Flat Rate envelopes → their rate indicators, at home and abroad. */
export const EXPRESS_FLAT_RATE: Readonly<Record<string, string>> = {
  flat_rate_envelope: "E4",
  flat_rate_legal_envelope: "E6",
};

/** Flat Rate packaging → its rate indicator, per mail class (Domestic Prices `rateIndicator`). */
const FLAT_RATE_INDICATOR: Partial<Record<UspsMailClass, Record<string, string>>> = {
  PRIORITY_MAIL: PRIORITY_FLAT_RATE,
  PRIORITY_MAIL_EXPRESS: EXPRESS_FLAT_RATE,
};

/** Single piece: Priority Mail Express has its own indicator for it. */
const SINGLE_PIECE: Partial<Record<UspsMailClass, string>> = { PRIORITY_MAIL_EXPRESS: "PA" };

/** Machinable parcel limits (DMM 201.7.5): at most 22 × 18 × 15 in and 25 lb, at least 6 × 3 × 0.25 in. */
const MACHINABLE_MAX_IN = [22, 18, 15];
const MACHINABLE_MIN_IN = [6, 3, 0.25];
const MACHINABLE_MAX_OZ = 25 * 16;

/** MACHINABLE, or NONSTANDARD for a parcel outside the machinable limits; sides unknown count as machinable. */
export function processingCategory(parcel: RatedParcel): UspsProcessingCategory {
  const sides = [parcel.lengthIn, parcel.widthIn, parcel.heightIn].sort((a, b) => b - a);
  if (parcel.weightOz > MACHINABLE_MAX_OZ) return "NONSTANDARD";
  if (sides.every((s) => s === 0)) return "MACHINABLE";
  const fits = sides.every((side, i) => side <= MACHINABLE_MAX_IN[i]! && side >= MACHINABLE_MIN_IN[i]!);
  return fits ? "MACHINABLE" : "NONSTANDARD";
}

/** What tells a family of USPS products apart: Porter's service → mail class, and the rate indicators. */
export interface ProductTables<M extends string> {
  mailClass: Record<string, M>;
  /** Flat Rate packaging → its rate indicator, per mail class. */
  flatRate: Partial<Record<M, Record<string, string>>>;
  /** A mail class whose single piece has its own indicator rather than SP. */
  singlePiece: Partial<Record<M, string>>;
}

/**
 * The USPS product a Porter service and parcel are priced and shipped as, or the reason the real
 * USPS API cannot carry it through Porter (letters, packaging without an indicator).
 */
export function productOf<M extends string>(
  tables: ProductTables<M>,
  service: ServiceDefinition,
  parcel: RatedParcel,
): { mailClass: M; rateIndicator: string; processingCategory: UspsProcessingCategory } | { refusal: string } {
  const mailClass = tables.mailClass[service.serviceCode];
  if (!mailClass) return { refusal: `${service.name} is not rated through the USPS API by Porter.` };
  if (parcel.packageType === "parcel") {
    return {
      mailClass,
      rateIndicator: tables.singlePiece[mailClass] ?? "SP",
      processingCategory: processingCategory(parcel),
    };
  }
  const flatRate = tables.flatRate[mailClass]?.[parcel.packageType];
  if (!flatRate) {
    return {
      refusal: `${service.name} in ${parcel.packageType} packaging is not rated through the USPS API by Porter.`,
    };
  }
  return { mailClass, rateIndicator: flatRate, processingCategory: "MACHINABLE" };
}

/** The domestic USPS product a Porter service and parcel are priced as, or why not. */
export function uspsProduct(service: ServiceDefinition, parcel: RatedParcel): UspsProduct | { refusal: string } {
  return productOf(
    { mailClass: MAIL_CLASS, flatRate: FLAT_RATE_INDICATOR, singlePiece: SINGLE_PIECE },
    service,
    parcel,
  );
}

const POUND_OZ = 16;

/** The five-digit ZIP USPS prices by. */
export function zip5(postalCode: string): string {
  return postalCode.trim().slice(0, 5);
}

/** A ZIP code as USPS splits it: five digits, and the ZIP+4 add-on when given. */
export function zipParts(postalCode: string): { ZIPCode: string; ZIPPlus4?: string } {
  const postal = postalCode.trim();
  const plus4 = /^\d{5}-?(\d{4})$/.exec(postal)?.[1];
  return { ZIPCode: zip5(postal), ...(plus4 ? { ZIPPlus4: plus4 } : {}) };
}

/** A parcel's weight in pounds (to the thousandth) and its sides in inches, as every USPS API takes them. */
export function pieceSize(parcel: RatedParcel): { weight: number; length: number; width: number; height: number } {
  return {
    weight: Math.round((parcel.weightOz / POUND_OZ) * 1000) / 1000,
    length: parcel.lengthIn,
    width: parcel.widthIn,
    height: parcel.heightIn,
  };
}

/** A Domestic Prices base-rates query for one parcel; an EPS account asks for its contract prices. */
export function baseRatesQuery(
  product: UspsProduct,
  parcel: RatedParcel,
  fromZip: string,
  toZip: string,
  epsAccount: string | undefined,
): UspsBaseRatesQuery {
  return {
    originZIPCode: zip5(fromZip),
    destinationZIPCode: zip5(toZip),
    ...pieceSize(parcel),
    mailClass: product.mailClass,
    processingCategory: product.processingCategory,
    destinationEntryFacilityType: "NONE",
    rateIndicator: product.rateIndicator,
    priceType: "COMMERCIAL",
    ...(epsAccount ? { accountType: "EPS" as const, accountNumber: epsAccount } : {}),
  };
}

/** Dollars as USPS writes them → integer cents. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}
