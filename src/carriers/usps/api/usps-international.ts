import type { RatedParcel, ServiceDefinition } from "../../catalogue.js";
import { pieceSize, processingCategory, zip5 } from "./usps-products.js";
import type { UspsInternationalBaseRatesQuery, UspsInternationalMailClass } from "./usps-wire.js";

/** What International Prices prices a parcel by. */
export interface UspsInternationalProduct {
  mailClass: UspsInternationalMailClass;
  rateIndicator: string;
  processingCategory: "MACHINABLE" | "NONSTANDARD";
}

const MAIL_CLASS: Record<string, UspsInternationalMailClass> = {
  usps_intl_first_class_package: "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE",
  usps_intl_priority: "PRIORITY_MAIL_INTERNATIONAL",
  usps_intl_express: "PRIORITY_MAIL_EXPRESS_INTERNATIONAL",
};

/** Flat Rate packaging → its rate indicator abroad (International Prices `rateIndicator`). */
const FLAT_RATE_INDICATOR: Partial<Record<UspsInternationalMailClass, Record<string, string>>> = {
  PRIORITY_MAIL_INTERNATIONAL: {
    flat_rate_envelope: "FE",
    flat_rate_legal_envelope: "FA",
    flat_rate_padded_envelope: "FP",
    small_flat_rate_box: "FS",
    medium_flat_rate_box: "FB",
    large_flat_rate_box: "PL",
  },
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: {
    flat_rate_envelope: "E4",
    flat_rate_legal_envelope: "E6",
  },
};

const SINGLE_PIECE: Partial<Record<UspsInternationalMailClass, string>> = {
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: "PA",
};

/** The USPS international product a Porter service and parcel are priced as, or why not. */
export function uspsInternationalProduct(
  service: ServiceDefinition,
  parcel: RatedParcel,
): UspsInternationalProduct | { refusal: string } {
  const mailClass = MAIL_CLASS[service.serviceCode];
  if (!mailClass) return { refusal: `${service.name} is not rated through the USPS API by Porter.` };
  if (parcel.packageType === "parcel") {
    return {
      mailClass,
      rateIndicator: SINGLE_PIECE[mailClass] ?? "SP",
      processingCategory: processingCategory(parcel),
    };
  }
  const flatRate = FLAT_RATE_INDICATOR[mailClass]?.[parcel.packageType];
  if (!flatRate) {
    return {
      refusal: `${service.name} in ${parcel.packageType} packaging is not rated through the USPS API by Porter.`,
    };
  }
  return { mailClass, rateIndicator: flatRate, processingCategory: "MACHINABLE" };
}

/** An International Prices base-rates query for one parcel; an EPS account asks for its contract prices. */
export function internationalBaseRatesQuery(
  product: UspsInternationalProduct,
  parcel: RatedParcel,
  fromZip: string,
  to: { country: string; postal_code: string },
  epsAccount: string | undefined,
): UspsInternationalBaseRatesQuery {
  const foreignPostalCode = to.postal_code.trim();
  return {
    originZIPCode: zip5(fromZip),
    destinationCountryCode: to.country.trim().toUpperCase(),
    ...(foreignPostalCode ? { foreignPostalCode } : {}),
    ...pieceSize(parcel),
    mailClass: product.mailClass,
    processingCategory: product.processingCategory,
    rateIndicator: product.rateIndicator,
    destinationEntryFacilityType: "NONE",
    priceType: "COMMERCIAL",
    ...(epsAccount ? { accountType: "EPS" as const, accountNumber: epsAccount } : {}),
  };
}
