/**
 * MyDHL API 3.1 (DHL Express) wire shapes, written by hand from DHL's published OpenAPI spec:
 * `GET /address-validate`, `POST /rates`, `POST /shipments`, `GET /shipments/{n}/tracking` and the
 * error body every operation answers with. Only the fields Porter sends or reads.
 */

/** Every MyDHL API failure: `status` is the HTTP status written as a string ("400", or DHL's own "998"). */
export interface DhlErrorBody {
  instance?: string;
  detail?: string;
  title?: string;
  message?: string;
  status?: string;
  additionalDetails?: string[];
}

export type DhlUnitOfMeasurement = "metric" | "imperial";
export type DhlAccountType = "shipper" | "payer" | "duties-taxes";

export interface DhlAccount {
  typeCode: DhlAccountType;
  number: string;
}

/** `GET /address-validate` answer: the service areas DHL serves the place from. */
export interface DhlAddressValidateResponse {
  warnings?: string[];
  address?: {
    countryCode: string;
    postalCode: string;
    cityName?: string;
    countyName?: string;
    serviceArea?: { code?: string; description?: string; GMTOffset?: string };
  }[];
}

/** An address as the rating operations take it. */
export interface DhlRateAddress {
  postalCode: string;
  cityName: string;
  countryCode: string;
  provinceCode?: string;
  addressLine1?: string;
  addressLine2?: string;
  addressLine3?: string;
}

export interface DhlDimensions {
  length: number;
  width: number;
  height: number;
}

export interface DhlPackage {
  /** DHL packaging (XPD: Express Envelope); absent for the shipper's own. */
  typeCode?: string;
  weight: number;
  dimensions?: DhlDimensions;
  customerReferences?: { value: string; typeCode?: string }[];
  description?: string;
}

/** A value-added service asked for; Porter asks `II`, shipment insurance, with its insured value. */
export interface DhlValueAddedService {
  serviceCode: string;
  value?: number;
  currency?: string;
}

/** `POST /rates` (multi-piece) request. */
export interface DhlRateRequest {
  customerDetails: { shipperDetails: DhlRateAddress; receiverDetails: DhlRateAddress };
  accounts?: DhlAccount[];
  productCode?: string;
  /** "2026-11-27T12:00:00GMT+00:00": the shipper's local time with its offset. */
  plannedShippingDateAndTime: string;
  unitOfMeasurement: DhlUnitOfMeasurement;
  isCustomsDeclarable: boolean;
  monetaryAmount?: { typeCode: "declaredValue" | "insuredValue"; value: number; currency: string }[];
  estimatedDeliveryDate?: { isRequested: boolean; typeCode?: "QDDC" | "QDDF" };
  returnStandardProductsOnly?: boolean;
  nextBusinessDay?: boolean;
  valueAddedServices?: DhlValueAddedService[];
  packages: DhlPackage[];
}

/** BILLC: the account's billing currency; PULCL: the country's public rates; BASEC: DHL's base currency. */
export type DhlCurrencyType = "BILLC" | "PULCL" | "BASEC";

export interface DhlPriceBreakdownItem {
  /** The first item names the product; the others are surcharges and services (`serviceCode` FF: fuel). */
  name?: string;
  serviceCode?: string;
  localServiceCode?: string;
  typeCode?: string;
  /** SCH: surcharge, XCH: optional service, FEE, TEC. */
  serviceTypeCode?: string;
  /** Absent on services offered but not in the price. */
  price?: number;
  priceCurrency?: string;
}

export interface DhlProduct {
  productName?: string;
  productCode?: string;
  localProductCode?: string;
  networkTypeCode?: string;
  isCustomerAgreement?: boolean;
  weight: { volumetric?: number; provided?: number; unitOfMeasurement?: string };
  totalPrice: { currencyType?: DhlCurrencyType; priceCurrency?: string; price: number }[];
  totalPriceBreakdown?: {
    currencyType?: DhlCurrencyType;
    priceCurrency?: string;
    /** STTXA: total tax; STDIS: total discount; SPRQT: net shipment charge. */
    priceBreakdown?: { typeCode: string; price: number }[];
  }[];
  detailedPriceBreakdown?: {
    currencyType?: DhlCurrencyType;
    priceCurrency: string;
    breakdown?: DhlPriceBreakdownItem[];
  }[];
  deliveryCapabilities?: {
    deliveryTypeCode?: string;
    /** "2019-09-20T12:00:00", destination local time. */
    estimatedDeliveryDateAndTime?: string;
    totalTransitDays?: number;
  };
  pricingDate?: string;
}

export interface DhlRateResponse {
  products: DhlProduct[];
  warnings?: string[];
}

/** An address as the shipment operations take it. */
export interface DhlPostalAddress {
  postalCode: string;
  cityName: string;
  countryCode: string;
  provinceCode?: string;
  addressLine1: string;
  addressLine2?: string;
  addressLine3?: string;
}

export interface DhlParty {
  postalAddress: DhlPostalAddress;
  contactInformation: { phone: string; companyName: string; fullName: string; email?: string };
  typeCode?: "business" | "direct_consumer" | "government" | "other" | "private" | "reseller";
}

export type DhlEncodingFormat = "pdf" | "zpl" | "lp2" | "epl";

export interface DhlImageOption {
  typeCode: "label" | "waybillDoc" | "invoice" | "qr-code" | "shipmentReceipt";
  templateName?: string;
  isRequested?: boolean;
  invoiceType?: "commercial" | "proforma" | "returns";
  languageCode?: string;
}

export type DhlExportReasonType =
  | "permanent"
  | "temporary"
  | "return"
  | "commercial_purpose_or_sale"
  | "personal_belongings_or_personal_use"
  | "sample"
  | "gift"
  | "return_to_origin";

export interface DhlLineItem {
  number: number;
  description: string;
  /** Unit price. */
  price: number;
  quantity: { value: number; unitOfMeasurement: string };
  commodityCodes?: { typeCode: "outbound" | "inbound"; value: string }[];
  exportReasonType?: DhlExportReasonType;
  manufacturerCountry: string;
  /** The line's total weight; DHL takes either. */
  weight: { netValue?: number; grossValue?: number };
}

export interface DhlExportDeclaration {
  lineItems: DhlLineItem[];
  invoice?: { number: string; date: string };
  exportReason?: string;
  exportReasonType?: DhlExportReasonType;
  shipmentType?: "personal" | "commercial";
}

/** `POST /shipments` request. */
export interface DhlShipmentRequest {
  plannedShippingDateAndTime: string;
  pickup: { isRequested: boolean };
  productCode: string;
  accounts: DhlAccount[];
  valueAddedServices?: DhlValueAddedService[];
  outputImageProperties?: {
    printerDPI?: 200 | 300;
    encodingFormat?: DhlEncodingFormat;
    imageOptions?: DhlImageOption[];
    splitTransportAndWaybillDocLabels?: boolean;
    allDocumentsInOneImage?: boolean;
    splitDocumentsByPages?: boolean;
    splitInvoiceAndReceipt?: boolean;
  };
  customerReferences?: { value: string; typeCode?: string }[];
  customerDetails: { shipperDetails: DhlParty; receiverDetails: DhlParty };
  content: {
    packages: DhlPackage[];
    isCustomsDeclarable: boolean;
    declaredValue?: number;
    declaredValueCurrency?: string;
    exportDeclaration?: DhlExportDeclaration;
    description: string;
    incoterm: "DAP" | "DDP";
    unitOfMeasurement: DhlUnitOfMeasurement;
  };
  estimatedDeliveryDate?: { isRequested: boolean; typeCode?: "QDDC" | "QDDF" };
}

export interface DhlDocument {
  /** PDF, ZPL, EPL, LP2 … as DHL writes it. */
  imageFormat: string;
  /** Base64. */
  content: string;
  /** label, waybillDoc, invoice, receipt … */
  typeCode: string;
  packageReferenceNumber?: number;
}

export interface DhlShipmentResponse {
  shipmentTrackingNumber?: string;
  trackingUrl?: string;
  packages?: { referenceNumber?: number; trackingNumber: string; volumetricWeight?: number }[];
  documents?: DhlDocument[];
  shipmentCharges?: {
    currencyType?: DhlCurrencyType;
    priceCurrency?: string;
    price: number;
    serviceBreakdown?: { name: string; price: number; typeCode?: string }[];
  }[];
  estimatedDeliveryDate?: { estimatedDeliveryDate?: string; estimatedDeliveryType?: string };
  warnings?: string[];
}

export interface DhlTrackingEvent {
  /** "2020-06-10" and "13:06:00", local to the event's place; `GMTOffset` "+09:00" when asked for. */
  date?: string;
  time?: string;
  GMTOffset?: string;
  typeCode?: string;
  description?: string;
  /** `description` "Brisbane-AU": the place, then its country. */
  serviceArea?: { code?: string; description?: string }[];
  signedBy?: string;
}

/** `GET /shipments/{shipmentTrackingNumber}/tracking` answer. */
export interface DhlTrackingResponse {
  shipments?: {
    shipmentTrackingNumber?: string;
    status?: string;
    productCode?: string;
    events: DhlTrackingEvent[];
    estimatedDeliveryDate?: string;
    numberOfPieces?: number;
  }[];
}

/** `POST /pickups`: a courier booked for the shipments, at the shipper's (or the pickup) address. */
export interface DhlPickupRequest {
  /** "2026-11-27T09:00:00GMT-08:00": the local time of the pickup with its offset; at most 10 days ahead. */
  plannedPickupDateAndTime: string;
  /** HH:MM, local: the latest the premises are open to the courier. */
  closeTime: string;
  location?: string;
  locationType: "business" | "residence";
  accounts: DhlAccount[];
  specialInstructions?: { value: string }[];
  customerDetails: { shipperDetails: Pick<DhlParty, "postalAddress" | "contactInformation"> };
  shipmentDetails: {
    productCode: string;
    isCustomsDeclarable: boolean;
    unitOfMeasurement: DhlUnitOfMeasurement;
    shipmentTrackingNumber?: string;
    packages: DhlPackage[];
  }[];
}

export interface DhlPickupResponse {
  dispatchConfirmationNumbers?: string[];
  readyByTime?: string;
  nextPickupDate?: string;
  warnings?: string[];
}
