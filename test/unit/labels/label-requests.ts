/** Label requests for every carrier, with tracking numbers whose check digits are valid. */
import type { CarrierCode } from "../../../src/carriers/catalogue.js";
import { generateTrackingNumber as dhlEcommerceNumbers } from "../../../src/carriers/dhl-ecommerce/tracking-number.js";
import { generateTrackingNumber as dhlExpressNumber } from "../../../src/carriers/dhl-express/tracking-number.js";
import { generateTrackingNumber as fedexNumber } from "../../../src/carriers/fedex/tracking-number.js";
import { generateTrackingNumber as upsNumber } from "../../../src/carriers/ups/tracking-number.js";
import {
  impbRoutingBarcodeData,
  generateTrackingNumber as uspsNumber,
} from "../../../src/carriers/usps/tracking-number.js";
import type { LabelAddress, LabelRequest } from "../../../src/labels/label.js";

export const FROM: LabelAddress = {
  name: "Jane Shipper",
  company: "Acme Widgets Inc",
  address1: "100 Congress Ave",
  address2: "Suite 200",
  city: "Austin",
  state: "TX",
  postalCode: "78701",
  country: "US",
  phone: "512-555-0100",
};

export const TO: LabelAddress = {
  name: "John Receiver",
  company: null,
  address1: "1600 Amphitheatre Pkwy",
  address2: "Bldg 40",
  city: "Mountain View",
  state: "CA",
  postalCode: "94043",
  country: "US",
  phone: "650-555-0199",
};

const SHARED = {
  from: FROM,
  to: TO,
  weightOz: 35,
  dimensionsIn: { length: 10, width: 8, height: 6 },
  packageTypeName: "Parcel",
  shipDate: "2025-11-25",
  postageCents: 935,
  zone: "8",
  parcelIndex: 1,
  parcelCount: 1,
  testMode: false,
  format: "png",
  size: "4x6",
} as const;

export const USPS_PIC = uspsNumber(1_234_567, { scope: "domestic", serviceTypeCode: "055" });
export const UPS_1Z = upsNumber(1_234_567, { shipperAccount: "999AA1", serviceCode: "01" });
export const FEDEX_NUMBER = fedexNumber(1_234_567);
export const DHL_WAYBILL = dhlExpressNumber(1_234_567);
const DHL_ECOMMERCE = dhlEcommerceNumbers(1_234_567, { scope: "domestic" });
export const DHL_ECOMMERCE_PIC = DHL_ECOMMERCE.trackingId as string;

export const REQUESTS: Record<CarrierCode, LabelRequest> = {
  usps: {
    ...SHARED,
    carrierCode: "usps",
    serviceName: "USPS Priority Mail",
    serviceCode: "usps_priority",
    trackingNumber: USPS_PIC,
    barcodeData: impbRoutingBarcodeData(USPS_PIC, TO.postalCode),
    endorsement: "RETURN_SERVICE_REQUESTED",
  },
  ups: {
    ...SHARED,
    carrierCode: "ups",
    serviceName: "UPS Next Day Air",
    serviceCode: "ups_next_day",
    trackingNumber: UPS_1Z,
  },
  fed_ex: {
    ...SHARED,
    carrierCode: "fed_ex",
    serviceName: "FedEx Priority Overnight",
    serviceCode: "fedex_overnight_priority",
    trackingNumber: FEDEX_NUMBER,
  },
  dhl_ecommerce: {
    ...SHARED,
    carrierCode: "dhl_ecommerce",
    serviceName: "DHL Parcel Ground",
    serviceCode: "dhl_parcel_ground",
    trackingNumber: DHL_ECOMMERCE_PIC,
    barcodeData: impbRoutingBarcodeData(DHL_ECOMMERCE_PIC, TO.postalCode),
  },
  dhl_express: {
    ...SHARED,
    carrierCode: "dhl_express",
    serviceName: "DHL Express Worldwide",
    serviceCode: "express_worldwide",
    trackingNumber: DHL_WAYBILL,
    to: { ...TO, city: "London", state: "", postalCode: "SW1A 1AA", country: "GB" },
  },
};

export function labelRequest(carrier: CarrierCode, overrides: Partial<LabelRequest> = {}): LabelRequest {
  return { ...REQUESTS[carrier], ...overrides };
}
