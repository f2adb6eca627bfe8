import { describe, expect, it } from "vitest";
import { allEnded } from "../../../src/carriers/all-ended.js";
import { deferred } from "../../helpers/deferred.js";

describe("allEnded", () => {
  it("answers every call's value in order", async () => {
    await expect(allEnded([Promise.resolve(1), Promise.resolve(2)])).resolves.toEqual([1, 2]);
  });

  it("refuses with the first refusal only once the other calls have ended", async () => {
    const slow = deferred<number>();
    let settled = false;
    const answer = allEnded([Promise.reject(new Error("refused")), slow.promise]).finally(() => {
      settled = true;
    });
    // A turn of the event loop: every promise that could settle by now has.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    slow.resolve(2);
    await expect(answer).rejects.toThrow("refused");
  });
});
