import { seededRandom } from "../../carriers/sandbox/seeded-random.js";

/** A package as the label declared it or as USPS measured it. Weight in ounces, sides in inches. */
export interface PackageFacts {
  weightOz: number;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
  /** The ZIP code the package entered the mail at (the label's from ZIP unless USPS saw another). */
  fromPostalCode: string;
  serviceCode: string;
  packageType: string;
}

/** What an integrator says USPS measured (the sandbox adjust control); what is left out is as labelled. */
export type Measurement = Partial<
  Pick<PackageFacts, "weightOz" | "lengthIn" | "widthIn" | "heightIn" | "fromPostalCode" | "serviceCode">
>;

const OUNCES_PER_POUND = 16;

/**
 * A package heavier than declared, as USPS most often finds: past the next whole pound, by up to a
 * pound more, so it always reaches a dearer weight step. Chosen by tracking number.
 */
export function heavierThanDeclared(trackingNumber: string, labelled: PackageFacts): PackageFacts {
  const random = seededRandom(`usps-weighed:${trackingNumber}`);
  const nextPound = (Math.floor(labelled.weightOz / OUNCES_PER_POUND) + 1) * OUNCES_PER_POUND;
  return { ...labelled, weightOz: nextPound + random.between(1, OUNCES_PER_POUND) };
}

/**
 * USPS's Automated Package Verification weighs and measures packages in its sorting plants and
 * re-rates those that differ from their labels. The sandbox audits `percent` % of parcels, chosen by
 * tracking number (the same parcels every time, on every process), and finds what USPS finds most:
 * a package heavier than declared (seven in ten findings), larger than declared (two in ten), or
 * lighter (one in ten: USPS refunds the difference). A finding that does not change the postage
 * makes no adjustment.
 */
export function auditFinding(
  trackingNumber: string,
  labelled: PackageFacts,
  percent: number,
): PackageFacts | undefined {
  const random = seededRandom(`usps-audit:${trackingNumber}`);
  if (random.next() * 100 >= percent) return undefined;
  const kind = random.next();
  if (kind < 0.7) return heavierThanDeclared(trackingNumber, labelled);
  if (kind < 0.9) {
    const grow = (side: number) => side + random.between(4, 10);
    return {
      ...labelled,
      lengthIn: grow(labelled.lengthIn),
      widthIn: grow(labelled.widthIn),
      heightIn: grow(labelled.heightIn),
    };
  }
  return { ...labelled, weightOz: Math.max(1, Math.round(labelled.weightOz / 2)) };
}

/** The package USPS measured: the measurement over what the label declared. */
export function measuredPackage(labelled: PackageFacts, measurement: Measurement): PackageFacts {
  const given = Object.fromEntries(Object.entries(measurement).filter(([, value]) => value !== undefined));
  return { ...labelled, ...given };
}

/** Whether the measured package differs from the label at all. */
export function differs(labelled: PackageFacts, measured: PackageFacts): boolean {
  return (Object.keys(labelled) as (keyof PackageFacts)[]).some((key) => labelled[key] !== measured[key]);
}
