/** Labels a carrier sold in a purchase that then failed, and that could not be voided at once. */
export interface UnvoidedLabels {
  trackingNumbers: readonly string[];
  /** Why the void failed, in the carrier's or the network's words. */
  voidFailure: string;
}

const carried = new WeakMap<object, UnvoidedLabels>();

/**
 * A purchase failed after the carrier sold `sold`: voids them before `failure` is thrown, so
 * nothing stays charged. When the void fails too, the failure returned carries the labels (read
 * with `unvoidedLabelsOf`) for the purchase's caller to record and repair; its class is unchanged.
 */
export async function voidBeforeFailing(
  failure: unknown,
  sold: readonly string[],
  voidLabels: (trackingNumbers: readonly string[]) => Promise<void>,
): Promise<unknown> {
  if (sold.length === 0) return failure;
  try {
    await voidLabels(sold);
    return failure;
  } catch (error) {
    const thrown = failure instanceof Object ? failure : new Error(String(failure));
    carried.set(thrown, { trackingNumbers: sold, voidFailure: error instanceof Error ? error.message : String(error) });
    return thrown;
  }
}

/** The labels a failed purchase left sold and not voided, if any. */
export function unvoidedLabelsOf(failure: unknown): UnvoidedLabels | undefined {
  return failure instanceof Object ? carried.get(failure) : undefined;
}
