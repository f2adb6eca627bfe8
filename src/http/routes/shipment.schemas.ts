import { type Static, Type } from "typebox";
import { DomainError } from "../../domain/errors.js";
import { centsOfMoney, MoneyIn } from "./money-input.js";

const optionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

/**
 * An address takes only its documented fields: the validator drops any other (it removes what
 * `additionalProperties: false` does not allow), so nothing unchecked is stored with it.
 */
export const ADDRESS_FIELDS_ONLY = { additionalProperties: false } as const;

/** Addr-in: an address in a request. */
export const LocationIn = Type.Object(
  {
    company: optionalText(100),
    first_name: optionalText(100),
    last_name: optionalText(100),
    address1: Type.String({ minLength: 1, maxLength: 200 }),
    address2: optionalText(200),
    address3: optionalText(200),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    state: Type.String({ minLength: 1, maxLength: 50, description: "Two-letter code for a US state" }),
    country: Type.String({ pattern: "^[A-Za-z]{2}$", description: "ISO 3166-1 alpha-2" }),
    postal_code: Type.String({ minLength: 1, maxLength: 20 }),
    phone: Type.String({ minLength: 1, maxLength: 40 }),
    email: optionalText(320),
  },
  ADDRESS_FIELDS_ONLY,
);
export type LocationIn = Static<typeof LocationIn>;

/** A return address may carry a nick name. */
export const ReturnLocationIn = Type.Object(
  { ...LocationIn.properties, nick_name: optionalText(100) },
  ADDRESS_FIELDS_ONLY,
);

/** Who is asked about a price need not be called: a rate question's addresses need no phone. */
export const RateLocationIn = Type.Object({ ...LocationIn.properties, phone: optionalText(40) }, ADDRESS_FIELDS_ONLY);
export type RateLocationIn = Static<typeof RateLocationIn>;

/** Most value a parcel may be insured for here; each carrier's own limit is lower and answers 422. */
export const INSURED_AMOUNT_BOUNDS = { minimum: 0.01, maximum: 1_000_000 } as const;

/** `service_options.insurance`: the carrier's own coverage for the parcel's value. */
export const InsuranceIn = Type.Union([
  Type.Object({
    amount: MoneyIn({
      ...INSURED_AMOUNT_BOUNDS,
      description: "USD to cover with the carrier's insurance (USPS) or declared value (UPS, FedEx, DHL Express)",
    }),
  }),
  Type.Null(),
]);
export type InsuranceIn = Static<typeof InsuranceIn>;

/** The insured amount in cents, or undefined when none is asked. */
export function insuredCentsOf(insurance: InsuranceIn | undefined, path: string): number | undefined {
  if (!insurance) return undefined;
  try {
    return centsOfMoney(`${path}.amount`, insurance.amount, INSURED_AMOUNT_BOUNDS);
  } catch (error) {
    // The money rule's own code names the meter; here the field at fault is the parcel's.
    if (error instanceof DomainError && error.code === "meter.invalid_amount") {
      throw new DomainError("request.invalid", `${path}.amount must be in whole cents (at most two decimals).`);
    }
    throw error;
  }
}

const positive = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description });

export const ParcelIn = Type.Object({
  length: positive("Inches"),
  width: positive("Inches"),
  height: positive("Inches"),
  weight: positive("Ounces"),
  package_type: Type.String({
    minLength: 1,
    maxLength: 60,
    default: "parcel",
    description: "A package_types[i].type of the service; `parcel` when the service lists none",
  }),
  name: optionalText(100),
});
export type ParcelIn = Static<typeof ParcelIn>;

/**
 * A parcel to rate: its weight is enough. Without its three sides it is rated by weight alone (no
 * dimensional weight or size surcharges), and the answer warns so.
 */
export const RateParcelIn = Type.Object({
  ...ParcelIn.properties,
  length: Type.Optional(positive("Inches")),
  width: Type.Optional(positive("Inches")),
  height: Type.Optional(positive("Inches")),
  service_options: Type.Optional(
    Type.Object({ insurance: Type.Optional(InsuranceIn) }, { description: "Only `insurance` changes a rate" }),
  ),
});
export type RateParcelIn = Static<typeof RateParcelIn>;

/** Service ids arrive as integers or numeric strings (eHub accepts both). */
export const ServiceIdList = Type.Array(
  Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: "^\\d+$" })]),
  {
    maxItems: 500,
  },
);
export const CarrierCodeList = Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 20 });
