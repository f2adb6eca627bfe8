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

/* ---- Payments 3.1 `POST /payments/v3/payment-authorization` ---- */

export type UspsRoleName = "PAYER" | "LABEL_OWNER" | "RATE_HOLDER" | "SHIPPER" | "PLATFORM";

/** A party of the transaction: who pays (EPS or permit), whose label ranges (MID) are used. */
export interface UspsRole {
  roleName: UspsRoleName;
  CRID: string;
  MID?: string;
  manifestMID?: string;
  accountType?: "EPS" | "PERMIT";
  accountNumber?: string;
  permitNumber?: string;
  permitZIP?: string;
}

export interface UspsPaymentAuthorizationRequest {
  roles: UspsRole[];
}

export interface UspsPaymentAuthorizationResponse {
  paymentAuthorizationToken: string;
  roles?: UspsRole[];
}

/* ---- Labels 3.9 `POST /labels/v3/label`, `DELETE /labels/v3/label/{trackingNumber}` ---- */

/** `imageInfo.imageType`: the label files USPS makes. */
export type UspsImageType = "PDF" | "TIFF" | "JPG" | "PNG" | "GIF" | "SVG" | "ZPL203DPI" | "ZPL300DPI" | "EPL300DPI";

/** `imageInfo.labelType`: the label sizes USPS makes, width by height in inches. */
export type UspsLabelType = "4X4LABEL" | "4X5LABEL" | "4X6LABEL" | "6X4LABEL" | "2X7LABEL";

export interface UspsImageInfo {
  imageType: UspsImageType;
  labelType: UspsLabelType;
  receiptOption: "SAME_PAGE" | "SEPARATE_PAGE" | "NONE";
  suppressPostage?: boolean;
  suppressMailDate?: boolean;
  packageNumber?: number;
  totalPackages?: number;
}

/** `DomesticLabelAddress` / `DomesticLabelToAddress`: a name or a firm is always required. */
export interface UspsLabelAddress {
  streetAddress: string;
  secondaryAddress?: string;
  city: string;
  state: string;
  ZIPCode: string;
  ZIPPlus4?: string;
  firstName?: string;
  lastName?: string;
  firm?: string;
  phone?: string;
  email?: string;
}

/** `DomesticPackageDescription` (with a rate indicator): weight in pounds, sides in inches. */
export interface UspsLabelPackageDescription {
  mailClass: UspsMailClass;
  rateIndicator: string;
  processingCategory: UspsProcessingCategory;
  destinationEntryFacilityType: "NONE";
  weightUOM: "lb";
  weight: number;
  dimensionsUOM: "in";
  length: number;
  width: number;
  height: number;
  /** YYYY-MM-DD, today to 7 days ahead. */
  mailingDate: string;
  extraServices?: number[];
  /** `packageValue`: the value insurance (extra service 930) covers, in dollars. */
  packageOptions?: { packageValue: number };
  customerReference?: { referenceNumber: string; printReferenceNumber?: boolean }[];
}

export interface UspsLabelRequest {
  imageInfo: UspsImageInfo;
  toAddress: UspsLabelAddress;
  fromAddress: UspsLabelAddress;
  packageDescription: UspsLabelPackageDescription;
}

/** `BaseReturnsPackageDescription` `mailClass`: USPS's return services. */
export type UspsReturnMailClass =
  | "USPS_GROUND_ADVANTAGE_RETURN_SERVICE"
  | "PRIORITY_MAIL_RETURN_SERVICE"
  | "PRIORITY_MAIL_EXPRESS_RETURN_SERVICE";

/**
 * `ReturnLabelRequest` (`POST /labels/v3/return-label`): `fromAddress` is where the return is
 * sent from (the customer), `toAddress` where it goes (the merchant); no mailing date or entry
 * facility, which returns do not take.
 */
export interface UspsReturnLabelRequest {
  imageInfo: UspsImageInfo;
  toAddress: UspsLabelAddress;
  fromAddress: UspsLabelAddress;
  packageDescription: Omit<
    UspsLabelPackageDescription,
    "mailClass" | "destinationEntryFacilityType" | "mailingDate"
  > & { mailClass: UspsReturnMailClass };
}

/** `LabelMetadata`: what USPS says about the label it made; prices in dollars. */
export interface UspsLabelMetadata {
  trackingNumber: string;
  /** `420` + the destination ZIP: prefixed to the tracking number, it is the IMpb barcode's data. */
  routingInformation?: string;
  constructCode?: string;
  SKU?: string;
  postage: number;
  extraServices?: { name?: string; SKU?: string; price?: number }[];
  fees?: { name?: string; SKU?: string; price?: number }[];
  zone?: string;
  mailingDate?: string;
  commitment?: { name?: string; expectedDeliveryDate?: string; scheduleDeliveryDate?: string };
  weight?: number;
  /** Ounces from Labels; International Labels writes pounds as a string. */
  dimensionalWeight?: number | string;
}

/** `LabelVendorResponse` (`application/vnd.usps.labels+json`): the metadata with the images in base64. */
export interface UspsLabelVendorResponse extends UspsLabelMetadata {
  labelImage?: string;
  receiptImage?: string;
  /** `ReturnLabelVendorResponse` names its images these. */
  returnLabelImage?: string;
  returnReceiptImage?: string;
}

/** `CancelResponse`: CANCELED before the label data was sent, DISPUTED (a refund asked) after. */
export interface UspsCancelResponse {
  trackingNumber?: string;
  status: "CANCELED" | "DISPUTED";
  disputeId?: string;
}

/* ---- Package Tracking 3.2 `GET /tracking/v3/tracking/{trackingNumber}?expand=DETAIL` ---- */

export interface UspsTrackingEvent {
  eventType?: string;
  /** Local time of the event, without an offset. */
  eventTimestamp?: string;
  GMTTimestamp?: string;
  GMTOffset?: string;
  eventCountry?: string | null;
  eventCity?: string | null;
  eventState?: string | null;
  eventZIP?: string | null;
  firm?: string | null;
  name?: string | null;
  /** Pub 199 Appendix G-4 scan event code. */
  eventCode?: string;
  actionCode?: string;
  reasonCode?: string;
}

/** `TrackingDetails`: events newest first. */
export interface UspsTrackingDetails {
  trackingNumber?: string;
  mailClass?: string;
  expectedDeliveryTimeStamp?: string;
  predictedDeliveryDate?: string;
  status?: string;
  statusCategory?: string;
  statusSummary?: string;
  trackingEvents?: UspsTrackingEvent[];
}

/* ---- Addresses 3.2 `GET /addresses/v3/address` ---- */

export interface UspsAddressQuery {
  firm?: string;
  streetAddress: string;
  secondaryAddress?: string;
  city?: string;
  state: string;
  ZIPCode?: string;
  ZIPPlus4?: string;
}

/** `AddressResponse`: the standardized address, DPV and business flags, correction codes. */
export interface UspsAddressResponse {
  firm?: string;
  address: {
    streetAddress?: string;
    secondaryAddress?: string;
    city?: string;
    state?: string;
    ZIPCode?: string;
    ZIPPlus4?: string | null;
    urbanization?: string;
  };
  additionalInfo?: {
    deliveryPoint?: string;
    carrierRoute?: string;
    DPVConfirmation?: "Y" | "D" | "S" | "N";
    DPVCMRA?: "Y" | "N";
    business?: "Y" | "N";
    centralDeliveryPoint?: "Y" | "N";
    vacant?: "Y" | "N";
  };
  corrections?: { code?: string; text?: string }[];
  matches?: { code?: string; text?: string }[];
  warnings?: string[];
}

/* ---- Carrier Pickup 3.1 `/pickup/v3/carrier-pickup` ---- */

export type UspsPickupPackageType =
  | "FIRST-CLASS_PACKAGE_SERVICE"
  | "PRIORITY_MAIL_EXPRESS"
  | "PRIORITY_MAIL"
  | "RETURNS"
  | "USPS_GROUND_ADVANTAGE"
  | "INTERNATIONAL"
  | "OTHER";

export interface UspsPickupAddress {
  firstName: string;
  lastName: string;
  firm?: string;
  address: {
    streetAddress: string;
    secondaryAddress?: string;
    city?: string;
    state?: string;
    ZIPCode?: string;
    ZIPPlus4?: string;
  };
  contact: ({ email: string } | { cellNumber: string })[];
}

/** `SchedulePickupRequest`: the weight is the pickup's total, in pounds. */
export interface UspsSchedulePickupRequest {
  pickupDate: string;
  pickupAddress: UspsPickupAddress;
  packages: { packageType: UspsPickupPackageType; packageCount: number }[];
  estimatedWeight: number;
  pickupLocation: {
    packageLocation:
      | "FRONT_DOOR"
      | "BACK_DOOR"
      | "SIDE_DOOR"
      | "KNOCK_ON_DOOR"
      | "MAIL_ROOM"
      | "OFFICE"
      | "PORCH"
      | "RECEPTION"
      | "MAILBOX"
      | "OTHER";
    specialInstructions?: string;
  };
}

export interface UspsPickupConfirmation {
  confirmationNumber: string;
  pickupDate?: string;
  carrierPickupRequest?: UspsSchedulePickupRequest;
}

/* ---- SCAN Forms 3.1 `POST /scan-forms/v3/scan-form` (the label-shipment variant) ---- */

export interface UspsScanFormRequest {
  form: "5630";
  imageType: "PDF";
  labelType: "8.5x11LABEL";
  mailingDate: string;
  entryFacilityZIPCode: string;
  destinationEntryFacilityType: "NONE";
  shipment: { trackingNumbers: string[] };
  fromAddress: UspsLabelAddress;
}

/** The SCAN form's metadata: `manifestNumber` is its Electronic File Number. */
export interface UspsScanFormMetadata {
  manifestNumber: string;
  trackingNumbers?: string[];
  mailingDate?: string;
}

/* ---- International Prices 3.3 `POST /international-prices/v3/base-rates/search` ---- */

export type UspsInternationalMailClass =
  | "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE"
  | "PRIORITY_MAIL_INTERNATIONAL"
  | "PRIORITY_MAIL_EXPRESS_INTERNATIONAL";

export interface UspsInternationalBaseRatesQuery {
  originZIPCode: string;
  foreignPostalCode?: string;
  destinationCountryCode: string;
  weight: number;
  length: number;
  width: number;
  height: number;
  mailClass: UspsInternationalMailClass;
  processingCategory: UspsProcessingCategory;
  rateIndicator: string;
  destinationEntryFacilityType: "NONE";
  priceType: "RETAIL" | "COMMERCIAL";
  mailingDate?: string;
  accountType?: "EPS";
  accountNumber?: string;
}

/* ---- International Labels 3.3 `POST /international-labels/v3/international-label` ---- */

export interface UspsInternationalAddress {
  streetAddress: string;
  secondaryAddress?: string;
  city: string;
  province?: string;
  postalCode?: string;
  /** The country's name. */
  country: string;
  countryISOAlpha2Code: string;
  firstName?: string;
  lastName?: string;
  firm?: string;
  phone?: string;
}

export interface UspsCustomsItem {
  itemDescription: string;
  itemQuantity: number;
  /** Dollars and pounds of the whole line. */
  itemTotalValue: number;
  itemTotalWeight: number;
  weightUOM: "lb";
  countryofOrigin: string;
  HSTariffNumber?: string;
}

export interface UspsInternationalLabelRequest {
  imageInfo: { imageType: "PDF" | "TIFF" | "ZPL203DPI" | "ZPL300DPI"; labelType: "4X6LABEL" };
  toAddress: UspsInternationalAddress;
  fromAddress: UspsLabelAddress;
  packageDescription: Omit<UspsLabelPackageDescription, "mailClass" | "extraServices"> & {
    mailClass: UspsInternationalMailClass;
  };
  customsForm: {
    customsContentType: "MERCHANDISE" | "GIFT" | "DOCUMENT" | "COMMERCIAL_SAMPLE" | "RETURNED_GOODS" | "OTHER";
    contentComments?: string;
    /** The AES ITN or the EEL exemption. */
    AESITN: string;
    contents: UspsCustomsItem[];
  };
}

/** International `labelMetadata`: the number is `internationalTrackingNumber` (an S10 number). */
export interface UspsInternationalLabelMetadata {
  internationalTrackingNumber: string;
  postage: number;
  fees?: { name?: string; SKU?: string; price?: number }[];
  extraServices?: { name?: string; SKU?: string; price?: number }[];
  internationalPriceGroup?: string;
  weight?: number;
  /** Pounds, as a decimal string ("0.0"): unlike Labels, whose dimensional weight is in ounces. */
  dimensionalWeight?: string;
}
