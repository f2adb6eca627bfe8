/** Value conversions every platform connector needs: the platforms send money and weights as text in their own units. */

const DECIMAL = /^\s*(-?)(\d*)(?:\.(\d*))?\s*$/;

/**
 * A platform's decimal amount text ("12.50", "3", "0.005") to integer cents, read digit by digit
 * (never through a float) and rounded half away from zero. Null for null, empty or unreadable text.
 */
export function centsOfDecimal(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const match = DECIMAL.exec(typeof text === "number" ? String(text) : text);
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return null;
  const [, sign, whole = "", fraction = ""] = match;
  const cents =
    Number(whole || "0") * 100 + Number(fraction.slice(0, 2).padEnd(2, "0")) + ((fraction[2] ?? "0") >= "5" ? 1 : 0);
  if (!Number.isSafeInteger(cents)) return null;
  return sign === "-" ? -cents : cents;
}

const OUNCES_PER: Record<string, number> = {
  g: 1 / 28.349523125,
  grams: 1 / 28.349523125,
  kg: 1000 / 28.349523125,
  kilograms: 1000 / 28.349523125,
  oz: 1,
  ounces: 1,
  lb: 16,
  lbs: 16,
  pounds: 16,
};

/** A weight in the platform's unit (g, kg, oz, lb, in Shopify's or WooCommerce's spelling) in ounces, to 0.01 oz. */
export function ouncesOf(value: number | string | null | undefined, unit: string | null | undefined): number | null {
  const amount = typeof value === "string" ? Number(value) : value;
  if (amount === null || amount === undefined || !Number.isFinite(amount) || value === "") return null;
  const factor = OUNCES_PER[(unit ?? "").toLowerCase()];
  if (factor === undefined) return null;
  return Math.round(amount * factor * 100) / 100;
}
