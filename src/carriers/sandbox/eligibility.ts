/**
 * Whether a service can carry a parcel at all, checked before any price is looked up. Refusals
 * name the limit and the service the way carriers word them, e.g.
 * "Weight exceeds 70 lb limit for USPS Ground Advantage".
 */
import type {
  PackageTypeDefinition,
  RateCalcType,
  RateContext,
  RatedParcel,
  RateRefusal,
  ServiceDefinition,
} from "../catalogue.js";
import { OUNCES_PER_POUND } from "./billable-weight.js";
import { lengthPlusGirthIn, longestSideIn } from "./parcel-geometry.js";

/** The generic packaging every service with an empty package-type list takes. */
export const PARCEL: PackageTypeDefinition = { type: "parcel", name: "Parcel" };

/** USPS's Cubic Soft Pack, priced by its size tier rather than its weight. */
export const CUBIC_PACKAGE_TYPE = "softpack";

/** eHub's word for how a parcel's price was found: its packaging's flat rate, a cubic tier, or weight and zone. */
export function rateCalcType(service: ServiceDefinition, packageType: string): RateCalcType {
  const packaging = service.packageTypes.find((p) => p.type === packageType);
  if (packaging?.flatRate) return "flat_rate";
  return packaging?.type === CUBIC_PACKAGE_TYPE ? "cubic" : "standard";
}

export function isRefusal(outcome: object): outcome is RateRefusal {
  return "refused" in outcome;
}

/** A limit in the unit carriers print it: pounds when whole, ounces otherwise. */
function formatWeightLimit(weightOz: number): string {
  return weightOz % OUNCES_PER_POUND === 0 ? `${weightOz / OUNCES_PER_POUND} lb` : `${weightOz} oz`;
}

/** The service's packaging named by `packageType`, or a refusal when the service does not offer it. */
export function offeredPackageType(
  service: ServiceDefinition,
  packageType: string,
): PackageTypeDefinition | RateRefusal {
  const offered = service.packageTypes.length === 0 ? [PARCEL] : service.packageTypes;
  return (
    offered.find((candidate) => candidate.type === packageType) ?? {
      refused: `Package type ${packageType} is not available for ${service.name}`,
    }
  );
}

/** Weight and size limits of the service and then of its packaging; undefined when the parcel fits. */
function refusalForLimits(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  parcel: RatedParcel,
): RateRefusal | undefined {
  if (parcel.weightOz > service.maxWeightOz) {
    return { refused: `Weight exceeds ${formatWeightLimit(service.maxWeightOz)} limit for ${service.name}` };
  }
  if (packaging.maxWeightOz !== undefined && parcel.weightOz > packaging.maxWeightOz) {
    return { refused: `Weight exceeds ${formatWeightLimit(packaging.maxWeightOz)} limit for ${packaging.name}` };
  }
  if (longestSideIn(parcel) > service.maxLengthIn) {
    return { refused: `Length exceeds ${service.maxLengthIn} in limit for ${service.name}` };
  }
  if (lengthPlusGirthIn(parcel) > service.maxLengthPlusGirthIn) {
    return { refused: `Length plus girth exceeds ${service.maxLengthPlusGirthIn} in limit for ${service.name}` };
  }
  return undefined;
}

/**
 * Length + width + height, for the few services that limit it (UPU small packets: 90 cm, which
 * USPS states as 36 in); `undefined` when the service sets no such limit.
 */
export function refusalForSumOfSides(
  service: ServiceDefinition,
  maxSumOfSidesIn: number | undefined,
  parcel: RatedParcel,
): RateRefusal | undefined {
  if (maxSumOfSidesIn === undefined) return undefined;
  if (parcel.lengthIn + parcel.widthIn + parcel.heightIn <= maxSumOfSidesIn) return undefined;
  return { refused: `Length plus width plus height exceeds ${maxSumOfSidesIn} in limit for ${service.name}` };
}

/** Services bound to one kind of address (FedEx Ground vs Home Delivery) refuse the other kind. */
function refusalForAddressKind(service: ServiceDefinition, context: RateContext): RateRefusal | undefined {
  if (service.addressKind === "commercial" && context.residential) {
    return { refused: `${service.name} does not deliver to residential addresses` };
  }
  if (service.addressKind === "residential" && !context.residential) {
    return { refused: `${service.name} delivers to residential addresses only` };
  }
  return undefined;
}

/** Runs every eligibility check in order and returns the packaging to price, or the first refusal. */
export function eligiblePackaging(
  service: ServiceDefinition,
  parcel: RatedParcel,
  context: RateContext,
): PackageTypeDefinition | RateRefusal {
  const packaging = offeredPackageType(service, parcel.packageType);
  if (isRefusal(packaging)) return packaging;
  return refusalForLimits(service, packaging, parcel) ?? refusalForAddressKind(service, context) ?? packaging;
}
