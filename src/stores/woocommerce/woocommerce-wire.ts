/** WooCommerce REST API v3 shapes Porter reads, as WooCommerce documents them (only the fields used). */

export interface WooAddress {
  first_name?: string;
  last_name?: string;
  company?: string;
  address_1?: string;
  address_2?: string;
  city?: string;
  state?: string;
  postcode?: string;
  country?: string;
  email?: string;
  phone?: string;
}

export interface WooMeta {
  key: string;
  value: unknown;
  display_key?: string;
  display_value?: unknown;
}

export interface WooLineItem {
  id: number;
  name: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  /** Decimal text: the line before discounts. */
  subtotal: string;
  /** Decimal text: the line after discounts. */
  total: string;
  sku: string | null;
  /** Unit price as a number (WooCommerce works it out as total / quantity). */
  price: number;
  image?: { id: number | string; src: string } | null;
  meta_data?: WooMeta[];
}

export interface WooShippingLine {
  id: number;
  method_title: string;
  method_id: string;
  total: string;
}

/** `pending`, `processing`, `on-hold`, `completed`, `cancelled`, `refunded`, `failed`, `trash`, … */
export type WooStatus = string;

export interface WooOrder {
  id: number;
  /** The number the merchant sees; plugins may make it other than the id. */
  number: string;
  status: WooStatus;
  currency: string;
  /** Site-local times without a zone, and the same in UTC (also without a zone). */
  date_created: string | null;
  date_created_gmt: string | null;
  date_modified: string | null;
  date_modified_gmt: string | null;
  date_paid_gmt: string | null;
  shipping_total: string;
  total: string;
  total_tax: string;
  customer_id: number;
  customer_note: string;
  billing: WooAddress;
  shipping: WooAddress;
  line_items: WooLineItem[];
  shipping_lines: WooShippingLine[];
}

export interface WooProduct {
  id: number;
  /** Decimal text in the store's weight unit, "" when not set. */
  weight: string;
}

export interface WooNote {
  id: number;
  note: string;
  customer_note: boolean;
}

export interface WooSetting {
  id: string;
  value: string;
}
