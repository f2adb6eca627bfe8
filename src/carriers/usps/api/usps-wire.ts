/**
 * USPS APIs v3 wire shapes, written by hand from USPS's published specs (OAuth 2.0 3.0 token call;
 * Domestic Prices 3.4 `POST /base-rates/search`). Only the fields Porter sends or reads.
 */

/** `POST /oauth2/v3/token`, client-credentials grant. */
export interface UspsTokenRequest {
  grant_type: "client_credentials";
  client_id: string;
  client_secret: string;
  scope?: string;
}

export interface UspsTokenResponse {
  access_token: string;
  token_type: string;
  /** Seconds the token lives (USPS grants 8 hours). */
  expires_in: number;
  scope?: string;
}

/** The OAuth error answer (RFC 6749 §5.2), as the USPS token endpoint gives it. */
export interface UspsOAuthError {
  error: string;
  error_description?: string;
}

export type UspsMailClass =
  | "USPS_GROUND_ADVANTAGE"
  | "PRIORITY_MAIL"
  | "PRIORITY_MAIL_EXPRESS"
  | "PARCEL_SELECT"
  | "MEDIA_MAIL"
  | "LIBRARY_MAIL";

export type UspsProcessingCategory = "MACHINABLE" | "NONSTANDARD";

/** Domestic Prices `BaseRatesQuery`: weight in pounds, sides in inches. */
export interface UspsBaseRatesQuery {
  originZIPCode: string;
  destinationZIPCode: string;
  weight: number;
  length: number;
  width: number;
  height: number;
  mailClass: UspsMailClass;
  processingCategory: UspsProcessingCategory;
  destinationEntryFacilityType: "NONE";
  rateIndicator: string;
  priceType: "RETAIL" | "COMMERCIAL" | "CONTRACT";
  mailingDate?: string;
  accountType?: "EPS" | "PERMIT" | "METER" | "MID";
  accountNumber?: string;
}

export interface UspsFee {
  name: string;
  SKU?: string;
  price: number;
}

export interface UspsBaseRateDetails {
  SKU?: string;
  description?: string;
  priceType?: string;
  /** Dollars. */
  price: number;
  weight?: number;
  dimWeight?: number;
  fees?: UspsFee[];
  mailClass?: string;
  zone?: string;
  processingCategory?: string;
  rateIndicator?: string;
  warnings?: { warningCode?: string; warningDescription?: string }[];
}

/** Domestic Prices `BaseRateOption`: prices in dollars. */
export interface UspsBaseRateOption {
  totalBasePrice: number;
  rates: UspsBaseRateDetails[];
}

/** The `ErrorMessage` every USPS v3 API answers a failure with. */
export interface UspsErrorMessage {
  apiVersion?: string;
  error?: {
    code?: string;
    message?: string;
    errors?: { status?: string; code?: string; title?: string; detail?: string; source?: { parameter?: string } }[];
  };
}
