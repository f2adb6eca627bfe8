/**
 * FedEx REST API wire shapes, written by hand from FedEx's published specs (API Authorization
 * 1.0, Rates and Transit Times 1.0.0, Ship 1.0.0, Basic Integrated Visibility (Track) 1.0.0,
 * Address Validation 1.0.0, Ship EndofDayClose 1.0.0). Only the fields Porter sends or reads.
 */

/** `POST /oauth/token`, form-encoded, client-credentials grant. */
export interface FedexTokenRequest {
  grant_type: "client_credentials";
  client_id: string;
  client_secret: string;
}

export interface FedexTokenResponse {
  access_token: string;
  token_type: string;
  /** Seconds the token lives (FedEx grants an hour). */
  expires_in: number;
  scope?: string;
}

/** The `ErrorResponseVO` every FedEx API answers a failure with. */
export interface FedexErrorResponse {
  transactionId?: string;
  customerTransactionId?: string;
  errors?: { code?: string; message?: string; parameterList?: { key?: string; value?: string }[] }[];
}

export interface FedexAccountNumber {
  value: string;
}

export interface FedexWeight {
  units: "LB" | "KG";
  value: number;
}

export interface FedexDimensions {
  length: number;
  width: number;
  height: number;
  units: "IN" | "CM";
}

export interface FedexMoney {
  amount: number;
  currency: string;
}

export interface FedexAddress {
  streetLines?: string[];
  city?: string;
  stateOrProvinceCode?: string;
  postalCode?: string;
  countryCode: string;
  residential?: boolean;
}

export interface FedexContact {
  personName?: string;
  companyName?: string;
  phoneNumber: string;
  emailAddress?: string;
}

export type FedexPickupType = "CONTACT_FEDEX_TO_SCHEDULE" | "DROPOFF_AT_FEDEX_LOCATION" | "USE_SCHEDULED_PICKUP";

export interface FedexRequestedPackage {
  sequenceNumber?: number;
  groupPackageCount?: number;
  weight: FedexWeight;
  dimensions?: FedexDimensions;
  declaredValue?: FedexMoney;
  itemDescription?: string;
  customerReferences?: { customerReferenceType: string; value: string }[];
}

// ── Rate: `POST /rate/v1/rates/quotes` ─────────────────────────────────────────────────────────

export type FedexRateRequestType = "LIST" | "INCENTIVE" | "ACCOUNT" | "PREFERRED";

export interface FedexRateQuoteRequest {
  accountNumber: FedexAccountNumber;
  rateRequestControlParameters?: { returnTransitTimes?: boolean; servicesNeededOnRateFailure?: boolean };
  requestedShipment: {
    shipper: { address: FedexAddress };
    recipient: { address: FedexAddress };
    serviceType?: string;
    preferredCurrency?: string;
    rateRequestType?: FedexRateRequestType[];
    shipDateStamp?: string;
    pickupType: FedexPickupType;
    packagingType?: string;
    totalPackageCount?: number;
    totalWeight?: number;
    shipmentSpecialServices?: { specialServiceTypes?: string[] };
    /** Required for a shipment that crosses a border: FedEx does not rate it without commodities. */
    customsClearanceDetail?: { commodities: FedexRateCommodity[] };
    requestedPackageLineItems: FedexRequestedPackage[];
  };
}

/** A commodity as the Rate API takes it: none of its fields is required there. */
export interface FedexRateCommodity {
  description: string;
  quantity: number;
  quantityUnits: string;
  numberOfPieces: number;
  weight: FedexWeight;
}

/** One surcharge in FedEx's own breakdown (`Surcharge`). */
export interface FedexSurcharge {
  type?: string;
  description?: string;
  amount?: number;
  level?: string;
  name?: string;
}

export interface FedexShipmentRateDetail {
  rateZone?: string;
  ratingBasis?: string;
  totalFreightDiscount?: number;
  specialRatingApplied?: string[];
  totalSurcharges?: number;
  fuelSurchargePercent?: number;
  totalBillingWeight?: FedexWeight;
  surCharges?: FedexSurcharge[];
  taxes?: { type?: string; description?: string; amount?: number }[];
}

export interface FedexRatedPackage {
  groupNumber?: number;
  packageRateDetail?: {
    baseCharge?: number;
    netCharge?: number;
    totalSurcharges?: number;
    totalFreightDiscounts?: number;
    billingWeight?: FedexWeight;
    surcharges?: FedexSurcharge[];
  };
}

export interface FedexRatedShipmentDetail {
  rateType?: string;
  totalBaseCharge?: number;
  totalNetCharge?: number;
  totalNetFedExCharge?: number;
  totalDiscounts?: number;
  shipmentRateDetail?: FedexShipmentRateDetail;
  ratedPackages?: FedexRatedPackage[];
  currency?: string;
}

export interface FedexRateReplyDetail {
  serviceType: string;
  serviceName?: string;
  packagingType?: string;
  customerMessages?: { code?: string; message?: string }[];
  ratedShipmentDetails?: FedexRatedShipmentDetail[];
  operationalDetail?: { deliveryDate?: string; commitDate?: string; transitTime?: string; deliveryDay?: string };
  commit?: { dateDetail?: { dayOfWeek?: string; dayFormat?: string }; daysInTransit?: string };
}

export interface FedexAlert {
  code?: string;
  alertType?: "NOTE" | "WARNING";
  message?: string;
}

export interface FedexRateQuoteResponse {
  transactionId?: string;
  output?: { rateReplyDetails?: FedexRateReplyDetail[]; quoteDate?: string; alerts?: FedexAlert[] };
}

// ── Ship: `POST /ship/v1/shipments`, `PUT /ship/v1/shipments/cancel` ───────────────────────────

/** `labelSpecification.imageType`. */
export type FedexImageType = "PDF" | "PNG" | "ZPLII" | "EPL2";

export interface FedexParty {
  address: FedexAddress & { streetLines: string[]; city: string };
  contact: FedexContact;
}

export type FedexShipmentPurpose = "GIFT" | "NOT_SOLD" | "PERSONAL_EFFECTS" | "REPAIR_AND_RETURN" | "SAMPLE" | "SOLD";

export interface FedexCommodity {
  description: string;
  quantity: number;
  quantityUnits: string;
  numberOfPieces: number;
  weight: FedexWeight;
  /** Value of one unit, as the commercial invoice prints it. */
  unitPrice: FedexMoney;
  /** Value of the whole line. */
  customsValue: FedexMoney;
  countryOfManufacture: string;
  harmonizedCode?: string;
}

/** `customsClearanceDetail`: required by FedEx for a shipment that crosses a border. */
export interface FedexCustomsClearance {
  dutiesPayment: { paymentType: "SENDER" | "RECIPIENT" };
  isDocumentOnly: boolean;
  commercialInvoice: { shipmentPurpose: FedexShipmentPurpose; termsOfSale: string };
  commodities: FedexCommodity[];
  totalCustomsValue: FedexMoney;
}

/** The documents FedEx makes beside the labels; Porter asks only for the commercial invoice. */
export interface FedexShippingDocumentSpecification {
  shippingDocumentTypes: "COMMERCIAL_INVOICE"[];
  commercialInvoiceDetail: { documentFormat: { docType: "PDF"; stockType: "PAPER_LETTER" } };
}

export interface FedexShipRequest {
  accountNumber: FedexAccountNumber;
  labelResponseOptions: "URL_ONLY" | "LABEL";
  mergeLabelDocOption?: "NONE" | "LABELS_AND_DOCS" | "LABELS_ONLY";
  requestedShipment: {
    shipDatestamp?: string;
    shipper: FedexParty;
    recipients: FedexParty[];
    pickupType: FedexPickupType;
    serviceType: string;
    packagingType: string;
    totalWeight: number;
    shippingChargesPayment: { paymentType: "SENDER" | "RECIPIENT" | "THIRD_PARTY" | "COLLECT" };
    shipmentSpecialServices?: {
      specialServiceTypes?: string[];
      /** With `RETURN_SHIPMENT`: the return's kind (Ship API `ReturnShipmentDetail`). */
      returnShipmentDetail?: { returnType: "PRINT_RETURN_LABEL" | "PENDING" };
    };
    customsClearanceDetail?: FedexCustomsClearance;
    shippingDocumentSpecification?: FedexShippingDocumentSpecification;
    labelSpecification: {
      imageType: FedexImageType;
      labelStockType: string;
      labelFormatType?: "COMMON2D" | "LABEL_DATA_ONLY";
    };
    rateRequestType?: string[];
    preferredCurrency?: string;
    totalPackageCount?: number;
    requestedPackageLineItems: FedexRequestedPackage[];
  };
}

export interface FedexShipmentDocument {
  contentType?: string;
  trackingNumber?: string;
  docType?: string;
  encodedLabel?: string;
  url?: string;
}

export interface FedexPieceResponse {
  trackingNumber?: string;
  masterTrackingNumber?: string;
  packageSequenceNumber?: number;
  netChargeAmount?: number;
  deliveryTimestamp?: string;
  packageDocuments?: FedexShipmentDocument[];
}

/** One surcharge in the Ship API's rating: its type is `surchargeType` there, not the Rate API's `type`. */
export interface FedexShipSurcharge {
  surchargeType?: string;
  description?: string;
  amount?: number;
  level?: string;
}

/** The Ship API's rating of a completed shipment (`completedShipmentDetail.shipmentRating`). */
export interface FedexShipmentRating {
  actualRateType?: string;
  shipmentRateDetails?: {
    rateType?: string;
    rateZone?: string;
    totalBaseCharge?: number;
    totalNetCharge?: number;
    totalNetFedExCharge?: number;
    totalBillingWeight?: FedexWeight;
    surcharges?: FedexShipSurcharge[];
    taxes?: { type?: string; description?: string; amount?: number }[];
  }[];
}

export interface FedexTransactionShipment {
  serviceType?: string;
  shipDatestamp?: string;
  masterTrackingNumber?: string;
  pieceResponses?: FedexPieceResponse[];
  shipmentDocuments?: FedexShipmentDocument[];
  alerts?: FedexAlert[];
  completedShipmentDetail?: {
    operationalDetail?: { deliveryDate?: string; commitDate?: string; transitTime?: string };
    masterTrackingId?: { trackingNumber?: string };
    shipmentRating?: FedexShipmentRating;
  };
}

export interface FedexShipResponse {
  transactionId?: string;
  output?: { transactionShipments?: FedexTransactionShipment[]; alerts?: FedexAlert[] };
}

export interface FedexCancelRequest {
  accountNumber: FedexAccountNumber;
  trackingNumber: string;
  senderCountryCode?: string;
  deletionControl?: "DELETE_ALL_PACKAGES";
}

export interface FedexCancelResponse {
  transactionId?: string;
  output?: { cancelledShipment?: boolean; cancelledHistory?: boolean; message?: string; alerts?: FedexAlert[] };
}

// ── Track: `POST /track/v1/trackingnumbers` ────────────────────────────────────────────────────

export interface FedexTrackRequest {
  includeDetailedScans: boolean;
  trackingInfo: { trackingNumberInfo: { trackingNumber: string; carrierCode?: string } }[];
}

export interface FedexScanLocation {
  city?: string;
  stateOrProvinceCode?: string;
  postalCode?: string;
  countryCode?: string;
}

export interface FedexScanEvent {
  /** ISO 8601 with the scan's own offset, e.g. 2018-02-02T12:01:00-07:00. */
  date?: string;
  eventType?: string;
  eventDescription?: string;
  derivedStatus?: string;
  derivedStatusCode?: string;
  exceptionCode?: string;
  exceptionDescription?: string;
  scanLocation?: FedexScanLocation;
}

export interface FedexTrackResult {
  trackingNumberInfo?: { trackingNumber?: string; carrierCode?: string };
  latestStatusDetail?: { code?: string; derivedCode?: string; description?: string };
  scanEvents?: FedexScanEvent[];
  dateAndTimes?: { type?: string; dateTime?: string }[];
  estimatedDeliveryTimeWindow?: { window?: { begins?: string; ends?: string } };
  error?: { code?: string; message?: string };
}

export interface FedexTrackResponse {
  transactionId?: string;
  output?: { completeTrackResults?: { trackingNumber?: string; trackResults?: FedexTrackResult[] }[] };
}

// ── Address validation: `POST /address/v1/addresses/resolve` ───────────────────────────────────

export interface FedexAddressResolveRequest {
  addressesToValidate: { address: FedexAddress & { streetLines: string[] }; clientReferenceId?: string }[];
}

export interface FedexResolvedAddress {
  streetLinesToken?: string[];
  city?: string;
  stateOrProvinceCode?: string;
  countryCode?: string;
  postalCodeToken?: { changed?: boolean; value?: string };
  parsedPostalCode?: { base?: string; addOn?: string; deliveryPoint?: string };
  classification?: "MIXED" | "UNKNOWN" | "BUSINESS" | "RESIDENTIAL";
  customerMessage?: ({ code?: string; message?: string } | string)[];
  attributes?: Record<string, boolean | string | undefined>;
}

export interface FedexAddressResolveResponse {
  transactionId?: string;
  output?: { resolvedAddresses?: FedexResolvedAddress[]; alerts?: FedexAlert[] };
}

// ── Ground end-of-day close: `PUT /ship/v1/endofday/` ──────────────────────────────────────────

export interface FedexGroundCloseRequest {
  closeReqType: "GCDR";
  accountNumber: FedexAccountNumber;
  groundServiceCategory: "GROUND";
  closeDate: string;
  closeDocumentSpecification?: { closeDocumentTypes: ("MANIFEST" | "OP_950")[] };
}

export interface FedexGroundCloseResponse {
  transactionId?: string;
  output?: {
    alerts?: FedexAlert[];
    closeDocuments?: {
      type?: "MANIFEST" | "OP_950";
      shippingCycle?: string;
      /** Base64 graphic or printer commands, in parts numbered from 1. */
      parts?: { documentPartSequenceNumber?: number; image?: string }[];
    }[];
  };
}

// ── Pickups: `POST /pickup/v1/pickups/availabilities`, `POST /pickup/v1/pickups`, `PUT /pickup/v1/pickups/cancel` ──

/** FedEx Express (FDXE) or FedEx Ground (FDXG): each books and cancels its own pickups. */
export type FedexPickupCarrier = "FDXE" | "FDXG";

export interface FedexPickupAddress {
  streetLines: string[];
  city: string;
  stateOrProvinceCode?: string;
  postalCode: string;
  countryCode: string;
}

export interface FedexPickupAvailabilityRequest {
  pickupAddress: FedexPickupAddress;
  dispatchDate: string;
  /** HH:MM:SS, local to the pickup postal code. */
  packageReadyTime: string;
  customerCloseTime: string;
  pickupType: "ON_CALL";
  pickupRequestType: ("SAME_DAY" | "FUTURE_DAY")[];
  carriers: FedexPickupCarrier[];
  countryRelationship: "DOMESTIC" | "INTERNATIONAL";
  shipmentAttributes?: { serviceType: string };
  associatedAccountNumber: string;
}

export interface FedexPickupScheduleOption {
  carrier?: string;
  available?: boolean;
  pickupDate?: string;
  cutOffTime?: string;
  scheduleDay?: string;
}

export interface FedexPickupAvailabilityResponse {
  transactionId?: string;
  output?: { options?: FedexPickupScheduleOption[]; alerts?: FedexAlert[] };
}

export interface FedexCreatePickupRequest {
  associatedAccountNumber: FedexAccountNumber;
  originDetail: {
    pickupLocation: {
      contact: { companyName?: string; personName: string; phoneNumber: string };
      address: FedexPickupAddress;
    };
    /** YYYY-MM-DDTHH:MM:SS, local to the pickup postal code, without a zone designator. */
    readyDateTimestamp: string;
    customerCloseTime: string;
    pickupDateType: "SAME_DAY" | "FUTURE_DAY";
    /** Required for FedEx Ground. */
    packageLocation?: "FRONT" | "NONE" | "REAR" | "SIDE";
  };
  carrierCode: FedexPickupCarrier;
  pickupType: "ON_CALL";
  packageCount: number;
  totalWeight: { units: "LB"; value: number };
  countryRelationships: "DOMESTIC" | "INTERNATIONAL";
  remarks?: string;
}

export interface FedexCreatePickupResponse {
  transactionId?: string;
  output?: { pickupConfirmationCode?: string; message?: string; location?: string; alerts?: FedexAlert[] };
}

export interface FedexCancelPickupRequest {
  associatedAccountNumber: FedexAccountNumber;
  pickupConfirmationCode: string;
  carrierCode: FedexPickupCarrier;
  scheduledDate: string;
  /** The FedEx Express location that took the pickup; required to cancel an Express pickup. */
  location?: string;
}

export interface FedexCancelPickupResponse {
  transactionId?: string;
  output?: { pickupConfirmationCode?: string; cancelConfirmationMessage?: string; alerts?: FedexAlert[] };
}
