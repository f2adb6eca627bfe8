import { type AddressCapability, CarrierError } from "../../carriers/carrier.js";
import { carrierOf, connectedCarrierAccounts } from "../carriers/carrier-connections.js";
import type { AccountScope, DomainServices } from "../services.js";
import { type AddressInput, differs, type StandardizedAddress } from "./standardize-address.js";
import { validateAddress } from "./validate-address.js";

/** Whose address validation is asked first when the account has several real connections. */
const CARRIER_PREFERENCE = ["usps", "ups", "fed_ex", "dhl_express"];

/**
 * `validate_address` for an account: its real carrier connection that validates addresses
 * answers (USPS first for US addresses), else Porter's own rules. A carrier that fails to answer
 * leaves the question to Porter's rules, and the messages say so.
 */
export async function checkAddress(
  services: DomainServices,
  scope: AccountScope,
  input: AddressInput,
): Promise<StandardizedAddress> {
  const validator = await addressValidatorOf(services, scope);
  if (!validator) return validateAddress(input);
  try {
    const verdict = await validator.addresses.validate(input);
    const address = { ...input, ...dropNulls(verdict.address) };
    return {
      isValid: verdict.valid,
      reasons: verdict.reasons,
      address: { ...address, residential: verdict.residential ?? false },
      hasUpdate: differs(input, address),
    };
  } catch (error) {
    if (!(error instanceof CarrierError)) throw error;
    const own = validateAddress(input);
    return {
      ...own,
      reasons: [
        ...own.reasons,
        `${validator.name} did not validate the address (${error.message}); Porter's own rules did.`,
      ],
    };
  }
}

async function addressValidatorOf(
  services: DomainServices,
  scope: AccountScope,
): Promise<{ name: string; addresses: AddressCapability } | undefined> {
  const connections = await connectedCarrierAccounts(services, scope);
  const ordered = [...connections].sort(
    (a, b) => CARRIER_PREFERENCE.indexOf(a.carrier_code) - CARRIER_PREFERENCE.indexOf(b.carrier_code),
  );
  for (const connection of ordered) {
    const carrier = carrierOf(services, connection);
    if (carrier?.addresses) return { name: carrier.displayName, addresses: carrier.addresses };
  }
  return undefined;
}

/** The carrier's fields that carry a value; an absent line stays as sent. */
function dropNulls(address: object): Partial<AddressInput> {
  return Object.fromEntries(Object.entries(address).filter(([, value]) => value !== null && value !== undefined));
}
