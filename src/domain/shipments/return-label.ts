import type { ReturnLabelRequest } from "../../carriers/carrier.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { cancelShipment } from "./cancel-shipment.js";
import { checkShipment } from "./check-shipment.js";
import type { NewShipment } from "./new-shipment.js";
import { buyChecked } from "./purchase-shipment.js";
import type { ShipmentRecord } from "./shipments.repository.js";

/**
 * The return label of an outbound shipment, as EasyPost swaps it: the parcel comes from the
 * outbound's recipient (the customer) and goes to where the outbound's returns go (its
 * `return_location`, else its sender). The label has no return address of its own: an
 * undeliverable return goes back to the customer who sent it.
 */
export function asReturnLabel(outbound: NewShipment, returnLabel: ReturnLabelRequest): NewShipment {
  // The return brings nothing of the order: its items were shipped by the outbound.
  const { returnTo, orderItems: _shipped, ...rest } = outbound;
  return { ...rest, from: outbound.to, to: returnTo ?? outbound.from, returnLabel };
}

/** An outbound shipment and the return label bought with it. */
export interface ShipmentWithReturn {
  outbound: ShipmentRecord;
  returned: ShipmentRecord;
}

/**
 * Buys an outbound shipment and its return label together (`with_return`). Both are checked before
 * either is bought, so a return the carrier does not sell refuses the pair with nothing bought. A
 * return whose purchase still fails (the carrier down) voids the outbound as a cancel does, its
 * refund on the meter, so nothing stays charged without both labels; the error says so.
 */
export async function purchaseWithReturn(
  services: DomainServices,
  scope: AccountScope,
  outbound: NewShipment,
  returnLabel: ReturnLabelRequest,
  requestKey?: string,
): Promise<ShipmentWithReturn> {
  const returnInput = asReturnLabel(outbound, returnLabel);
  const [checkedOutbound, checkedReturn] = await Promise.all([
    checkShipment(services, scope, outbound),
    checkShipment(services, scope, returnInput, "shipment.with_return"),
  ]);
  const bought = await buyChecked(services, scope, outbound, checkedOutbound, requestKey);
  try {
    const returned = await buyChecked(
      services,
      scope,
      { ...returnInput, outboundShipmentId: bought.shipment.id },
      checkedReturn,
      requestKey === undefined ? undefined : `${requestKey}/return`,
    );
    return { outbound: bought, returned };
  } catch (error) {
    const id = bought.shipment.id;
    const undone = await cancelShipment(services, scope, id).then(
      () => `outbound shipment ${id} was voided and its price refunded as a cancel is`,
      (failure: unknown) =>
        `outbound shipment ${id} stays bought (voiding it failed: ${failure instanceof Error ? failure.message : String(failure)}); cancel it with POST /api/v2/shipments/${id}/cancel`,
    );
    if (!(error instanceof DomainError)) throw error;
    throw new DomainError(
      error.code,
      `The return label could not be bought (${error.message.replace(/\.$/, "")}); the ${undone}.`,
      error.retryAfterSeconds,
    );
  }
}
