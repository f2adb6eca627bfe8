import { Type } from "typebox";
import { ADDRESS_FIELDS_ONLY, LocationIn } from "../shipment.schemas.js";

const digits = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 40, description }));

/**
 * Addr-billing-in: a shipment's address without phone and email. Omit does not
 * carry the options over, so the closing is said again: a phone or any other field is dropped.
 */
const BillingLocationIn = Type.Omit(LocationIn, ["phone", "email"], ADDRESS_FIELDS_ONLY);

export const CreatePaymentMethodBody = Type.Object({
  payment_method: Type.Object({
    type: Type.Union([Type.Literal("cc"), Type.Literal("ach")], { description: "cc (card) or ach (bank account)" }),
    name: Type.Optional(Type.String({ maxLength: 200, description: "The account holder's full name" })),
    bank_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "ACH only" })),
    bank_account_type: Type.Optional(
      Type.Union([Type.Literal("checking"), Type.Literal("savings")], { description: "ACH only" }),
    ),
    account_holder_type: Type.Optional(
      Type.Union([Type.Literal("business"), Type.Literal("personal")], { description: "ACH only" }),
    ),
    routing_number: digits("ACH only: the 9-digit ABA routing number"),
    account_number: digits("The card number, or the bank account number; only its last 4 digits are kept"),
    expiry: Type.Optional(Type.String({ maxLength: 10, description: "Cards only: expiration as MMYY" })),
    verification_code: Type.Optional(
      Type.String({ maxLength: 10, description: "Cards only: CVV/CVC, checked and never stored" }),
    ),
    billing_location: Type.Optional(BillingLocationIn),
    default_payment_method: Type.Optional(Type.Boolean({ description: "Make this the default payment method" })),
  }),
});

export const UpdatePaymentMethodBody = Type.Object({
  payment_method: Type.Object({
    default_payment_method: Type.Optional(Type.Boolean()),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    expiry: Type.Optional(Type.String({ maxLength: 10, description: "Cards only: a new expiration as MMYY" })),
    billing_location: Type.Optional(BillingLocationIn),
  }),
});

const nullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** eHub's Payment method: the number masked to its last 4 digits. */
export const PaymentMethodOut = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ enum: ["cc", "ach"] }),
    billing_location: Type.Union([Type.Ref("Address"), Type.Null()]),
    account_number: Type.String({ description: "Last 4 digits" }),
    brand: Type.String({ description: "Card brand, or the bank's name for ach" }),
    expiry_month: nullableInteger,
    expiry_year: nullableInteger,
    default_payment_method: Type.Boolean(),
  },
  { $id: "PaymentMethod" },
);
