/**
 * Surcharges the big parcel carriers share in structure and differ in amount:
 * residential, delivery area, additional handling, large package, and fuel as a percentage of the
 * transportation charges. Each carrier supplies its own amounts and wording.
 */
import type { CostLine, RateContext, RatedParcel, ServiceScope } from "../catalogue.js";
import { OUNCES_PER_POUND } from "./billable-weight.js";
import { formatBasisPoints, percentOfCents, sumCents } from "./money.js";
import { lengthPlusGirthIn, longestSideIn, secondLongestSideIn } from "./parcel-geometry.js";

/** A surcharge as the carrier names it on the invoice, and its amount. */
export interface NamedCharge {
  description: string;
  cents: number;
}

export interface AccessorialSchedule {
  /** Null where the carrier (or the service) has no residential surcharge. */
  residential: NamedCharge | null;
  deliveryArea: { description: string; residentialCents: number; commercialCents: number };
  /** Only the highest single additional-handling charge applies. */
  additionalHandling: { weight: NamedCharge; dimensions: NamedCharge };
  largePackage: NamedCharge;
}

// UPS published triggers; FedEx uses the same thresholds.
const ADDITIONAL_HANDLING_WEIGHT_OZ: Readonly<Record<ServiceScope, number>> = {
  domestic: 50 * OUNCES_PER_POUND,
  international: 55 * OUNCES_PER_POUND,
};
const ADDITIONAL_HANDLING_LONGEST_SIDE_IN = 48;
const ADDITIONAL_HANDLING_SECOND_SIDE_IN = 30;
const ADDITIONAL_HANDLING_LENGTH_PLUS_GIRTH_IN = 105;
const LARGE_PACKAGE_LONGEST_SIDE_IN = 96;
const LARGE_PACKAGE_LENGTH_PLUS_GIRTH_IN = 130;
/** A Large Package is billed at no less than 90 lb. */
const LARGE_PACKAGE_MINIMUM_BILLABLE_OZ = 90 * OUNCES_PER_POUND;

function isLargePackage(parcel: RatedParcel): boolean {
  return (
    longestSideIn(parcel) > LARGE_PACKAGE_LONGEST_SIDE_IN ||
    lengthPlusGirthIn(parcel) > LARGE_PACKAGE_LENGTH_PLUS_GIRTH_IN
  );
}

/** Billable weight raised to the Large Package minimum where that surcharge applies. */
export function withLargePackageMinimum(billableOz: number, parcel: RatedParcel): number {
  return isLargePackage(parcel) ? Math.max(billableOz, LARGE_PACKAGE_MINIMUM_BILLABLE_OZ) : billableOz;
}

function exceedsHandlingDimensions(parcel: RatedParcel): boolean {
  return (
    longestSideIn(parcel) > ADDITIONAL_HANDLING_LONGEST_SIDE_IN ||
    secondLongestSideIn(parcel) > ADDITIONAL_HANDLING_SECOND_SIDE_IN ||
    lengthPlusGirthIn(parcel) > ADDITIONAL_HANDLING_LENGTH_PLUS_GIRTH_IN
  );
}

/** Large Package replaces Additional Handling; of the handling charges only the highest applies. */
function handlingLine(schedule: AccessorialSchedule, parcel: RatedParcel, scope: ServiceScope): CostLine | undefined {
  if (isLargePackage(parcel)) return line("large_package", schedule.largePackage);
  const triggered = [
    parcel.weightOz > ADDITIONAL_HANDLING_WEIGHT_OZ[scope] ? schedule.additionalHandling.weight : undefined,
    exceedsHandlingDimensions(parcel) ? schedule.additionalHandling.dimensions : undefined,
  ].filter((charge): charge is NamedCharge => charge !== undefined);
  const highest = triggered.sort((a, b) => b.cents - a.cents)[0];
  return highest ? line("additional_handling", highest) : undefined;
}

function line(kind: string, charge: NamedCharge): CostLine {
  return { kind, description: charge.description, amountCents: charge.cents };
}

/** Residential, delivery-area and handling surcharges that apply to this parcel, in invoice order. */
export function accessorialLines(
  schedule: AccessorialSchedule,
  parcel: RatedParcel,
  scope: ServiceScope,
  context: RateContext,
): CostLine[] {
  const { deliveryArea } = schedule;
  return [
    context.residential && schedule.residential ? line("residential", schedule.residential) : undefined,
    context.deliveryArea
      ? line("delivery_area", {
          description: deliveryArea.description,
          cents: context.residential ? deliveryArea.residentialCents : deliveryArea.commercialCents,
        })
      : undefined,
    handlingLine(schedule, parcel, scope),
  ].filter((candidate): candidate is CostLine => candidate !== undefined);
}

/** Fuel surcharge: a percentage of the transportation charges (base rate plus accessorials). */
export function fuelSurchargeLine(basisPoints: number, transportationLines: readonly CostLine[]): CostLine {
  const basis = sumCents(transportationLines.map((charge) => charge.amountCents));
  return {
    kind: "fuel",
    description: `Fuel Surcharge (${formatBasisPoints(basisPoints)})`,
    amountCents: percentOfCents(basis, basisPoints),
  };
}
