import type { CarrierAddress, ReturnLabelRequest } from "../../carriers/carrier.js";
import type { LabelContent, LabelFormat, LabelSize } from "../../labels/label.js";
import type { ShipItemInput } from "../orders/shipped-items.js";

/** A shipment to buy, as the HTTP layer hands it over after schema validation. */
export interface NewShipment {
  to: ShipmentAddress;
  from: ShipmentAddress;
  returnTo?: ShipmentAddress;
  parcels: NewParcel[];
  serviceId: number;
  /** YYYY-MM-DD; today (US Central) when absent. */
  shipDate?: string;
  label: LabelOptions;
  orderId?: string | null;
  /** The items of the order `orderId` this label ships; absent, it ships the whole order. */
  orderItems?: readonly ShipItemInput[];
  accountReference?: string | null;
  /** Set on a return label, whose addresses are already the parcel's way back (see `asReturnLabel`). */
  returnLabel?: ReturnLabelRequest;
  /** The outbound shipment a return label is bought with, if any. */
  outboundShipmentId?: number;
}

export interface ShipmentAddress extends CarrierAddress {
  phone?: string | null;
  email?: string | null;
  address3?: string | null;
}

export interface NewParcel {
  length: number;
  width: number;
  height: number;
  weight: number;
  packageType: string;
  name?: string | null;
  /** As sent: kept and echoed back, read by the customs rules. */
  items: ParcelItemInput[];
  customsData?: CustomsDataInput | null;
  serviceOptions: ServiceOptionsInput;
  /** `serviceOptions.insurance` in cents: the value to cover with the carrier's own insurance. */
  insuredCents?: number;
}

export interface CustomsDataInput {
  content_type?: string | null;
  no_delivery?: string | null;
  hs_tariff_code?: string | null;
  eel_pfc?: string | null;
  value?: number | null;
}

export interface ParcelItemInput {
  name?: string | null;
  description?: string | null;
  weight?: number | null;
  quantity?: number | null;
  price?: number | null;
  cost?: number | null;
  country_of_origin?: string | null;
  customs_data?: CustomsDataInput | null;
  [field: string]: unknown;
}

export interface ServiceOptionsInput {
  endorsement?: string | null;
  insurance?: { amount: number | string } | null;
  dangerous_goods?: { details?: { type?: string | null } | null } | null;
  [option: string]: unknown;
}

export interface LabelOptions {
  format: LabelFormat;
  size: LabelSize;
  text1?: string | null;
  text2?: string | null;
  contents?: LabelContent[];
  scale?: number | null;
}
