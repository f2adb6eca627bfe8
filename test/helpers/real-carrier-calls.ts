import { afterAll, beforeEach } from "vitest";
import type { TestAccount, TestApp } from "./app.js";
import { rateShipment, shipmentToBuy } from "./shipments.js";

/** One `service_rates` entry, the keys the real-carrier tests read. */
export interface RateEntry {
  service_id: number;
  carrier_code: string;
  rate: number | null;
  zone: string | null;
  rate_details: { cost_type: string; description: string; rate: number }[] | null;
  errors: string | null;
  delivery_days: number | null;
  delivery_date: string | null;
}

type Auth = TestAccount["auth"];

/**
 * The requests a real-carrier test makes, as `account` unless told otherwise: connecting a
 * carrier, rating a fresh question each time so no remembered answer stands in for the
 * carrier's (`question` changes the shipment asked about), and buying. Getters, because the app
 * and account are made in `beforeAll`.
 */
export function realCarrierCalls(
  app: () => TestApp,
  account: () => TestAccount,
  question: Record<string, unknown> = {},
) {
  let asked = 0;
  const post = (url: string, payload: object, auth: Auth = account().auth) =>
    app().app.inject({ method: "POST", url, headers: auth, payload });
  const get = (url: string, auth: Auth = account().auth) => app().app.inject({ method: "GET", url, headers: auth });
  const connect = (carrier_account: object, auth: Auth = account().auth) =>
    post("/api/v2/carrier_accounts", { carrier_account }, auth);
  const rate = async (auth: Auth = account().auth) => {
    asked += 1;
    const response = await post("/api/v2/rates", rateShipment({ ...question, reference: `q${asked}` }), auth);
    return {
      response,
      rates: response.json().service_rates as RateEntry[],
      warnings: response.json().warnings as string[],
    };
  };
  /** Buys the shipment `shipmentToBuy` makes of `shipment`. */
  const buy = (shipment: Record<string, unknown>, auth: Auth = account().auth) =>
    post("/api/v2/shipments/ship", { shipment: shipmentToBuy(shipment) }, auth);
  return { post, get, connect, rate, buy };
}

/**
 * `realCarrierCalls` for a `describe` whose app talks to `standIn`: each test reaches the carrier
 * afresh (the account's remembered test connection forgotten), and the app and stand-in are
 * closed after the tests.
 */
export function realCarrierSuite(
  app: () => TestApp,
  account: () => TestAccount,
  standIn: () => { stop(): Promise<void> },
  question: Record<string, unknown> = {},
) {
  afterAll(async () => {
    await app().close();
    await standIn().stop();
  });
  beforeEach(() => {
    app().services.caches.carrierConnections.forget(`${account().accountId}:test`);
  });
  return realCarrierCalls(app, account, question);
}
