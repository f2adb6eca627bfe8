import type { CostLine, RateQuote } from "../../catalogue.js";
import { quoteFromLines } from "../../sandbox/money.js";
import type { OneOrMany, UpsItemizedCharge } from "./ups-wire.js";

/** A lone element or an array, as UPS answers repeating containers, always as an array. */
export function many<T>(value: OneOrMany<T> | undefined): T[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

const AMOUNT = /^\s*(-?)(\d+)(?:\.(\d*))?\s*$/;

/** UPS's decimal string ("12.345") → integer cents, rounded half up, without a binary fraction; NaN when unreadable. */
export function upsCents(value: string | undefined): number {
  const match = AMOUNT.exec(value ?? "");
  if (!match) return Number.NaN;
  const [, sign, whole, fraction = ""] = match;
  const digits = `${fraction}000`;
  const cents = Number(whole) * 100 + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
  return sign === "-" ? -cents : cents;
}

/**
 * UPS itemized charge codes → Porter's cost-line kinds. Where UPS sends a code Porter does not
 * know, its description decides, else the line keeps UPS's code (`ups_120`).
 */
const KIND_BY_CODE: Readonly<Record<string, string>> = {
  "100": "additional_handling",
  "270": "residential",
  "375": "fuel",
  "376": "delivery_area",
};

const KIND_BY_WORDS: readonly [RegExp, string][] = [
  [/fuel/i, "fuel"],
  [/residential/i, "residential"],
  [/delivery area/i, "delivery_area"],
  [/additional handling/i, "additional_handling"],
  [/large package/i, "large_package"],
  [/declared value/i, "insurance"],
];

export function chargeKind(charge: Pick<UpsItemizedCharge, "Code" | "Description">): string {
  const known = KIND_BY_CODE[charge.Code.trim()];
  if (known) return known;
  const words = charge.Description ?? "";
  return KIND_BY_WORDS.find(([pattern]) => pattern.test(words))?.[1] ?? `ups_${charge.Code.trim().toLowerCase()}`;
}

function titleCase(words: string): string {
  return words.toLowerCase().replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}

/** UPS's itemized charges as one cost line per kind, in the order UPS first names each; zero charges left out. */
export function surchargeLines(itemized: readonly UpsItemizedCharge[]): CostLine[] {
  const byKind = new Map<string, CostLine>();
  for (const charge of itemized) {
    const amountCents = upsCents(charge.MonetaryValue);
    if (!Number.isFinite(amountCents) || amountCents === 0) continue;
    const kind = chargeKind(charge);
    const seen = byKind.get(kind);
    if (seen) seen.amountCents += amountCents;
    else {
      byKind.set(kind, {
        kind,
        description: charge.Description ? titleCase(charge.Description) : `UPS charge ${charge.Code}`,
        amountCents,
      });
    }
  }
  return [...byKind.values()];
}

const sumOf = (lines: readonly CostLine[]) => lines.reduce((sum, line) => sum + line.amountCents, 0);

/**
 * UPS's total split into Porter's cost lines: one line per kind of UPS's itemized charges
 * (shipment- and package-level alike), and the transportation charge as the rest, so the lines
 * add up to UPS's total to the cent. Should the itemized charges exceed the total (a negotiated
 * total below the published surcharges), the total stands alone as the transportation charge.
 */
export function chargeLines(
  totalCents: number,
  itemized: readonly UpsItemizedCharge[],
  baseDescription: string,
): CostLine[] {
  const surcharges = surchargeLines(itemized);
  const baseCents = totalCents - sumOf(surcharges);
  if (baseCents < 0) return [{ kind: "base", description: baseDescription, amountCents: totalCents }];
  return [{ kind: "base", description: baseDescription, amountCents: baseCents }, ...surcharges];
}

/**
 * A shipment's charges split into one quote per package, adding up to UPS's total to the cent:
 * each package carries its own itemized charges, the first also the shipment-level ones, and the
 * transportation charge is shared equally (the odd cents on the first). UPS's Shipping answer names
 * no total per package, only the shipment's.
 */
export function packageQuotes(
  totalCents: number,
  shipmentItemized: readonly UpsItemizedCharge[],
  packageItemized: readonly (readonly UpsItemizedCharge[])[],
  baseDescription: string,
  billableWeightsOz: readonly number[],
): RateQuote[] {
  const count = Math.max(1, packageItemized.length);
  const whole = chargeLines(totalCents, [...shipmentItemized, ...packageItemized.flat()], baseDescription);
  const itemizedShown = whole.length > 1;
  const baseCents = whole[0]?.amountCents ?? totalCents;
  const share = Math.floor(baseCents / count);
  return packageItemized.map((own, index) => {
    const base = share + (index === 0 ? baseCents - share * count : 0);
    const surcharges = itemizedShown ? surchargeLines([...(index === 0 ? shipmentItemized : []), ...own]) : [];
    return quoteFromLines(
      [{ kind: "base", description: baseDescription, amountCents: base }, ...surcharges],
      billableWeightsOz[index] ?? 0,
    );
  });
}
