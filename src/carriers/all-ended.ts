/**
 * `Promise.all` that answers only once every call has ended: with `Promise.all`, the first
 * refusal answered the question while the other calls of it were still on their way to the
 * carrier, so calls outlived the answer (and reached an API Porter had just stopped calling).
 */
export async function allEnded<T>(calls: readonly Promise<T>[]): Promise<T[]> {
  const outcomes = await Promise.allSettled(calls);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
