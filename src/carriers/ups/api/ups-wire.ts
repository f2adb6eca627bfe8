/**
 * UPS API wire shapes, written by hand from UPS's published OpenAPI specs (OAuth Client
 * Credentials; Rating, Shipping and Address Validation, whose version is a path segment; Tracking
 * v1). Only the fields Porter sends or reads. UPS writes every number as a string, and a container
 * that may repeat as an object or an array (arrays always from v2409 on; both are accepted).
 */

/** `POST /security/v1/oauth/token` answer. `expires_in` is seconds, as a string. */
export interface UpsTokenResponse {
  token_type?: string;
  issued_at?: string;
  client_id?: string;
  access_token: string;
  scope?: string;
  expires_in: string;
  refresh_count?: string;
  status?: string;
}

/** The error body of every UPS API (and of the token endpoint). */
export interface UpsErrorResponse {
  response: { errors: { code: string; message: string }[] };
}

/** One or several: UPS answers a lone element as an object in older versions. */
export type OneOrMany<T> = T | T[];

export interface UpsCodeDescription {
  Code: string;
  Description?: string;
}

export interface UpsMoney {
  CurrencyCode: string;
  MonetaryValue: string;
}

export interface UpsAddress {
  AddressLine: string[];
  City?: string;
  StateProvinceCode?: string;
  PostalCode?: string;
  CountryCode: string;
  /** Presence flag: the destination is a residence. */
  ResidentialAddressIndicator?: string;
}

export interface UpsParty {
  Name?: string;
  AttentionName?: string;
  Phone?: { Number: string; Extension?: string };
  EMailAddress?: string;
  Address: UpsAddress;
}

export interface UpsShipper extends UpsParty {
  ShipperNumber?: string;
}

export interface UpsWeight {
  UnitOfMeasurement: UpsCodeDescription;
  Weight: string;
}

export interface UpsDimensions {
  UnitOfMeasurement: UpsCodeDescription;
  Length: string;
  Width: string;
  Height: string;
}

// ---- Rating: POST /api/rating/{version}/{requestoption} ----

/** A package's options; Porter sends its declared value (the carrier's coverage for its value). */
export interface UpsPackageServiceOptions {
  DeclaredValue?: { Type?: UpsCodeDescription; CurrencyCode: string; MonetaryValue: string };
}

export interface UpsRatePackage {
  PackagingType: UpsCodeDescription;
  Dimensions?: UpsDimensions;
  PackageWeight: UpsWeight;
  PackageServiceOptions?: UpsPackageServiceOptions;
}

export interface UpsRateRequest {
  RateRequest: {
    /** The request option of the path again; Rating.yaml's RateRequest_Request requires it. */
    Request: { RequestOption: string; TransactionReference?: { CustomerContext?: string } };
    Shipment: {
      Shipper: UpsShipper;
      ShipTo: UpsParty;
      ShipFrom?: UpsParty;
      /** Only with request option `Rate`; `Shop` rates every service. */
      Service?: UpsCodeDescription;
      PaymentDetails?: UpsPaymentDetails;
      ShipmentRatingOptions?: { NegotiatedRatesIndicator?: string };
      NumOfPieces?: string;
      /** Required with the time-in-transit request options. */
      ShipmentTotalWeight?: UpsWeight;
      /** Required with the time-in-transit request options: 03 non-document; pickup date YYYYMMDD. */
      DeliveryTimeInformation?: { PackageBillType: string; Pickup?: { Date: string } };
      Package: UpsRatePackage[];
    };
  };
}

export interface UpsPaymentDetails {
  ShipmentCharge: { Type: "01"; BillShipper: { AccountNumber: string } }[];
}

export interface UpsItemizedCharge {
  Code: string;
  Description?: string;
  CurrencyCode: string;
  MonetaryValue: string;
  SubType?: string;
}

export interface UpsRatedPackage {
  TransportationCharges?: UpsMoney;
  ServiceOptionsCharges?: UpsMoney;
  TotalCharges?: UpsMoney;
  BaseServiceCharge?: UpsMoney;
  ItemizedCharges?: OneOrMany<UpsItemizedCharge>;
  NegotiatedCharges?: { ItemizedCharges?: OneOrMany<UpsItemizedCharge> };
  Weight?: string;
  BillingWeight?: UpsWeight;
}

export interface UpsRatedShipment {
  Service: UpsCodeDescription;
  Zone?: string;
  RatedShipmentAlert?: OneOrMany<UpsCodeDescription>;
  BillingWeight: UpsWeight;
  TransportationCharges: UpsMoney;
  BaseServiceCharge?: UpsMoney;
  ItemizedCharges?: OneOrMany<UpsItemizedCharge>;
  ServiceOptionsCharges: UpsMoney;
  TotalCharges: UpsMoney;
  NegotiatedRateCharges?: { ItemizedCharges?: OneOrMany<UpsItemizedCharge>; TotalCharge: UpsMoney };
  RatedPackage?: OneOrMany<UpsRatedPackage>;
  GuaranteedDelivery?: { BusinessDaysInTransit?: string; DeliveryByTime?: string; ScheduledDeliveryDate?: string };
  TimeInTransit?: {
    ServiceSummary?: {
      EstimatedArrival?: { Arrival?: { Date?: string; Time?: string }; BusinessDaysInTransit?: string };
    };
  };
}

export interface UpsResponseStatus {
  ResponseStatus: UpsCodeDescription;
  Alert?: OneOrMany<UpsCodeDescription>;
}

export interface UpsRateResponse {
  RateResponse: { Response: UpsResponseStatus; RatedShipment: OneOrMany<UpsRatedShipment> };
}

// ---- Shipping: POST /api/shipments/{version}/ship ----

export type UpsLabelImageFormat = "GIF" | "ZPL" | "EPL" | "SPL";

export interface UpsShipPackage {
  Description?: string;
  Packaging: UpsCodeDescription;
  Dimensions?: UpsDimensions;
  PackageWeight: UpsWeight;
  ReferenceNumber?: { Value: string }[];
  PackageServiceOptions?: UpsPackageServiceOptions;
}

/** One line of a commercial invoice (`InternationalForms.Product`). */
export interface UpsProduct {
  Description: string[];
  Unit: { Number: string; UnitOfMeasurement: UpsCodeDescription; Value: string };
  CommodityCode?: string;
  OriginCountryCode?: string;
}

/** The forms UPS makes for a shipment abroad; Porter asks for its commercial invoice (`FormType` 01). */
export interface UpsInternationalForms {
  FormType: string[];
  Contacts?: { SoldTo?: UpsParty & { Name: string; AttentionName: string } };
  Product: UpsProduct[];
  /** The exporter's invoice number; the spec requires it on an invoice (form 01). */
  InvoiceNumber: string;
  /** YYYYMMDD */
  InvoiceDate: string;
  ReasonForExport: string;
  CurrencyCode: string;
}

export interface UpsShipmentRequest {
  ShipmentRequest: {
    Request: { RequestOption: "nonvalidate" | "validate"; TransactionReference?: { CustomerContext?: string } };
    Shipment: {
      Description?: string;
      /** Present on a return shipment: the return product (Shipping.yaml `Shipment_ReturnService`). */
      ReturnService?: UpsCodeDescription;
      Shipper: UpsShipper & { Name: string; ShipperNumber: string };
      ShipTo: UpsParty & { Name: string };
      ShipFrom?: UpsParty & { Name: string };
      PaymentInformation: UpsPaymentDetails;
      Service: UpsCodeDescription;
      ShipmentRatingOptions?: { NegotiatedRatesIndicator?: string };
      /** YYYYMMDD, up to 7 days ahead. */
      ShipmentDate?: string;
      /** The value of the goods: required from the US to Canada and Puerto Rico, allowed nowhere else. */
      InvoiceLineTotal?: UpsMoney;
      ShipmentServiceOptions?: { InternationalForms?: UpsInternationalForms };
      Package: UpsShipPackage[];
    };
    LabelSpecification: {
      LabelImageFormat: { Code: UpsLabelImageFormat; Description?: string };
      HTTPUserAgent?: string;
      LabelStockSize: { Height: string; Width: string };
    };
  };
}

export interface UpsPackageResult {
  TrackingNumber: string;
  ShippingLabel?: { ImageFormat: UpsCodeDescription; GraphicImage: string };
  ItemizedCharges?: OneOrMany<UpsItemizedCharge>;
}

export interface UpsShipmentResponse {
  ShipmentResponse: {
    Response: UpsResponseStatus;
    ShipmentResults: {
      ShipmentCharges?: {
        TransportationCharges: UpsMoney;
        ItemizedCharges?: OneOrMany<UpsItemizedCharge>;
        ServiceOptionsCharges: UpsMoney;
        TotalCharges: UpsMoney;
      };
      NegotiatedRateCharges?: { TotalCharge: UpsMoney };
      BillingWeight?: UpsWeight;
      ShipmentIdentificationNumber?: string;
      PackageResults?: OneOrMany<UpsPackageResult>;
      /** The international forms UPS made (its commercial invoice), base64. */
      Form?: {
        Code?: string;
        Description?: string;
        Image?: { ImageFormat?: UpsCodeDescription; GraphicImage?: string };
      };
    };
  };
}

// ---- Void: DELETE /api/shipments/{version}/void/cancel/{shipmentidentificationnumber} ----

export interface UpsVoidResponse {
  VoidShipmentResponse: {
    Response: UpsResponseStatus;
    SummaryResult: { Status: UpsCodeDescription };
    /** Status code 1 = voided or already voided, 0 = not voided. */
    PackageLevelResults?: OneOrMany<{ TrackingNumber: string; Status: UpsCodeDescription }>;
  };
}

// ---- Tracking: GET /api/track/v1/details/{inquiryNumber} ----

export interface UpsTrackAddress {
  city?: string;
  stateProvince?: string;
  postalCode?: string;
  country?: string;
  countryCode?: string;
}

export interface UpsTrackStatus {
  /** Activity status type: M label created, I in transit, D delivered, X exception … */
  type?: string;
  description?: string;
  code?: string;
  /** The three-digit status code of UPS's tracking reference ("003", "011"). */
  statusCode?: string;
}

export interface UpsTrackActivity {
  /** YYYYMMDD local to the scan. */
  date?: string;
  /** HHMMSS local to the scan. */
  time?: string;
  gmtDate?: string;
  gmtTime?: string;
  gmtOffset?: string;
  location?: { address?: UpsTrackAddress; slic?: string };
  status?: UpsTrackStatus;
}

export interface UpsTrackPackage {
  trackingNumber?: string;
  activity?: UpsTrackActivity[];
  currentStatus?: UpsTrackStatus;
  /** SDD scheduled, RDD rescheduled, DEL delivered; YYYYMMDD. */
  deliveryDate?: { type?: string; date?: string }[];
}

export interface UpsTrackResponse {
  trackResponse: {
    shipment: {
      inquiryNumber?: string;
      package?: UpsTrackPackage[];
      warnings?: { code?: string; message?: string }[];
    }[];
  };
}

// ---- Address Validation (XAV): POST /api/addressvalidation/{version}/{requestoption} ----

export interface UpsAddressKeyFormat {
  ConsigneeName?: string;
  AddressLine?: string[];
  PoliticalDivision2?: string;
  PoliticalDivision1?: string;
  PostcodePrimaryLow?: string;
  PostcodeExtendedLow?: string;
  CountryCode: string;
}

export interface UpsXavRequest {
  XAVRequest: { AddressKeyFormat: UpsAddressKeyFormat };
}

/** 0 unclassified, 1 commercial, 2 residential. */
export type UpsAddressClassification = UpsCodeDescription;

export interface UpsXavResponse {
  XAVResponse: {
    Response: UpsResponseStatus;
    ValidAddressIndicator?: string;
    AmbiguousAddressIndicator?: string;
    NoCandidatesIndicator?: string;
    AddressClassification?: UpsAddressClassification;
    Candidate?: OneOrMany<{ AddressClassification?: UpsAddressClassification; AddressKeyFormat: UpsAddressKeyFormat }>;
  };
}

// ---- Pickup: POST /api/pickupcreation/{version}/pickup, DELETE /api/shipments/{version}/pickup/{CancelBy} ----

export interface UpsPickupPiece {
  /** Three digits: the shipping service code with a leading zero ("003" Ground). */
  ServiceCode: string;
  Quantity: string;
  DestinationCountryCode: string;
  /** 01 package, 02 UPS Letter, 03 pallet. */
  ContainerCode: "01" | "02";
}

export interface UpsPickupCreationRequest {
  PickupCreationRequest: {
    Request: { TransactionReference?: { CustomerContext?: string } };
    RatePickupIndicator: "Y" | "N";
    Shipper: { Account: { AccountNumber: string; AccountCountryCode: string } };
    /** Local date yyyyMMdd and times HHmm. */
    PickupDateInfo: { ReadyTime: string; CloseTime: string; PickupDate: string };
    PickupAddress: {
      CompanyName: string;
      ContactName: string;
      AddressLine: string[];
      City: string;
      StateProvince?: string;
      PostalCode?: string;
      CountryCode: string;
      ResidentialIndicator: "Y" | "N";
      Phone: { Number: string };
    };
    AlternateAddressIndicator: "Y" | "N";
    PickupPiece: UpsPickupPiece[];
    TotalWeight: { Weight: string; UnitOfMeasurement: "LBS" };
    OverweightIndicator: "Y" | "N";
    /** 01: billed to the shipper's account. */
    PaymentMethod: "01";
    SpecialInstruction?: string;
    ReferenceNumber?: string;
  };
}

export interface UpsPickupCreationResponse {
  PickupCreationResponse: { Response: UpsResponseStatus; PRN?: string };
}

export interface UpsPickupCancelResponse {
  PickupCancelResponse: { Response: UpsResponseStatus; PickupType?: string };
}
