/** Shipment-out, in eHub's documented order. */
export const SHIPMENT_KEYS = [
  "id",
  "external_id",
  "order_id",
  "account_reference",
  "batch_id",
  "pickup_id",
  "to_location",
  "from_location",
  "return_location",
  "parcels",
  "status",
  "shipping_service",
  "tracking_number",
  "shipped_at",
  "created_at",
  "updated_at",
  "label_text1",
  "label_text2",
  "price_group",
  "payment",
] as const;

/** Parcel-out: labels and tracking live here. */
export const PARCEL_KEYS = [
  "id",
  "length",
  "width",
  "height",
  "weight",
  "package_type",
  "created_at",
  "updated_at",
  "external_shipment_id",
  "tracking_number",
  "shipping_cost",
  "shipping_cost_details",
  "meter_cost",
  "meter_cost_details",
  "status",
  "parcel_items",
  "customs_data",
  "postage_label",
  "ship_date",
  "shipped_at",
  "description",
  "service_options",
  "tracking_info",
  "rate_calc_type",
] as const;

/** postage_label; `base64_image` only has a value with `inline_image: true`. */
export const POSTAGE_LABEL_KEYS = [
  "id",
  "dims",
  "resolution",
  "status",
  "image_url",
  "created_at",
  "updated_at",
  "base64_image",
] as const;

/** Payment-nested: `shipment.payment`. */
export const SHIPMENT_PAYMENT_KEYS = ["amount", "currency", "payment_method_id"] as const;
