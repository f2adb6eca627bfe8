import { expect, it } from "vitest";
import type { TestApp } from "./app.js";
import type { realCarrierCalls } from "./real-carrier-calls.js";

type Calls = ReturnType<typeof realCarrierCalls>;

/** The carrier a real-carrier test connects, as its tests name it. */
export interface RealCarrier {
  /** How Porter's messages name the carrier ("FedEx"). */
  name: string;
  /** Credentials the carrier accepts (`carrier_account` of `POST /carrier_accounts`). */
  account: { carrier_code: string; credentials: Record<string, string> };
  /** The credential that must never be returned or stored in the clear. */
  secret: string;
  /** A sandbox carrier connected beside it, to show the carriers mixing in one answer. */
  beside: string;
}

/** Credentials the carrier rejects are refused in the carrier's own `words`, and nothing is stored. */
export function itRefusesRejectedCredentials(
  app: () => TestApp,
  calls: Calls,
  carrier: RealCarrier,
  rejected: Record<string, string>,
  words: string,
): void {
  it(`refuses credentials ${carrier.name} rejects, in ${carrier.name}'s words, and stores nothing`, async () => {
    const response = await calls.connect({
      ...carrier.account,
      credentials: { ...carrier.account.credentials, ...rejected },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error_code).toBe("carrier.rejected");
    expect(response.json().error_message).toContain(words);
    expect(await app().services.db.selectFrom("carrier_accounts").selectAll().execute()).toEqual([]);
  });
}

/** Connecting asks the carrier for one OAuth token; the credentials stay sealed and are never returned. */
export function itConnectsWithAToken(app: () => TestApp, calls: Calls, carrier: RealCarrier, tokenCalls: () => number) {
  it(`connects with a token from ${carrier.name}; the credentials stay sealed and are never returned`, async () => {
    const tokensBefore = tokenCalls();
    const response = await calls.connect(carrier.account);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().carrier_account).toMatchObject({
      carrier_code: carrier.account.carrier_code,
      mode: "test",
      has_credentials: true,
    });
    expect(tokenCalls()).toBe(tokensBefore + 1);
    expect(response.body).not.toContain(carrier.secret);
    const stored = await app().services.db.selectFrom("carrier_accounts").selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(carrier.secret);
    expect((await calls.get("/api/v2/carrier_accounts")).body).not.toContain(carrier.secret);
    expect((await calls.connect({ carrier_code: carrier.beside })).statusCode).toBe(201);
  });
}

/**
 * A carrier failing to rate (`failRating` makes it) is one warning saying it is unavailable, while
 * the sandbox carrier beside it still answers; `recover` undoes the failure before the next test.
 */
export function itWarnsWhenRatingFails(
  calls: Calls,
  carrier: RealCarrier,
  failRating: (fault: "500" | "timeout" | "malformed") => void,
  recover: () => void,
): void {
  for (const fault of ["500", "timeout", "malformed"] as const) {
    it(`turns a ${carrier.name} ${fault} into a warning while the other carriers still answer`, async () => {
      failRating(fault);
      const { response, rates, warnings } = await calls.rate();
      recover();
      expect(response.statusCode).toBe(201);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(`${carrier.name} is unavailable: `);
      expect(rates.every((r) => r.carrier_code !== carrier.account.carrier_code)).toBe(true);
      expect(rates.some((r) => r.carrier_code === carrier.beside && r.rate !== null)).toBe(true);
    });
  }
}
