/**
 * The terms of a postal customs declaration (CN 22 / CN 23), shared by the customs rules that
 * check a shipment and the forms that print it.
 */

/**
 * USPS content types (International Labels API), in snake case. eHub documents no list; the
 * spellings EasyPost and UPS use are mapped onto these by `normalizeContentType`.
 */
export const CONTENT_TYPES = [
  "merchandise",
  "gift",
  "documents",
  "commercial_sample",
  "returned_goods",
  "humanitarian_donation",
  "dangerous_goods",
  "cremated_remains",
  "non_negotiable_document",
  "medical_supplies",
  "pharmaceuticals",
  "other",
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const NON_DELIVERY_OPTIONS = ["return", "abandon", "redirect"] as const;
export type NonDeliveryOption = (typeof NON_DELIVERY_OPTIONS)[number];

export type CustomsFormKind = "CN22" | "CN23";

/** USPS, IMM and the CN 23 itself: at most 30 content lines. */
export const MAX_CUSTOMS_LINES = 30;

/** Cents as a customs form writes US dollars: 250001 → "2,500.01". */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  const dollars = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${sign}${dollars}.${String(absolute % 100).padStart(2, "0")}`;
}
