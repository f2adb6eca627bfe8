import type { RatedParcel, ServiceDefinition } from "../../catalogue.js";
import { EXPRESS_FLAT_RATE, PRIORITY_FLAT_RATE, pieceSize, productOf, zip5 } from "./usps-products.js";
import type {
  UspsInternationalBaseRatesQuery,
  UspsInternationalMailClass,
  UspsProcessingCategory,
} from "./usps-wire.js";

/** What International Prices prices a parcel by. */
export interface UspsInternationalProduct {
  mailClass: UspsInternationalMailClass;
  rateIndicator: string;
  processingCategory: UspsProcessingCategory;
}

const MAIL_CLASS: Record<string, UspsInternationalMailClass> = {
  usps_intl_first_class_package: "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE",
  usps_intl_priority: "PRIORITY_MAIL_INTERNATIONAL",
  usps_intl_express: "PRIORITY_MAIL_EXPRESS_INTERNATIONAL",
};

/** Flat Rate packaging → its rate indicator abroad (International Prices `rateIndicator`). */
const FLAT_RATE_INDICATOR: Partial<Record<UspsInternationalMailClass, Record<string, string>>> = {
  PRIORITY_MAIL_INTERNATIONAL: PRIORITY_FLAT_RATE,
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: EXPRESS_FLAT_RATE,
};

const SINGLE_PIECE: Partial<Record<UspsInternationalMailClass, string>> = {
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: "PA",
};

/** The USPS international product a Porter service and parcel are priced as, or why not. */
export function uspsInternationalProduct(
  service: ServiceDefinition,
  parcel: RatedParcel,
): UspsInternationalProduct | { refusal: string } {
  return productOf(
    { mailClass: MAIL_CLASS, flatRate: FLAT_RATE_INDICATOR, singlePiece: SINGLE_PIECE },
    service,
    parcel,
  );
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
