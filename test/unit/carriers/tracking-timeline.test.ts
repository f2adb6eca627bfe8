import { describe, expect, it } from "vitest";
import type { CarrierAddress, CarrierTrackingEvent, TrackingRequest } from "../../../src/carriers/carrier.js";
import type { CarrierCode, ServiceDefinition } from "../../../src/carriers/catalogue.js";
import { CARRIERS, findCarrier } from "../../../src/carriers/registry.js";
import { countDeliveryDays, localDay } from "../../../src/carriers/sandbox/local-time.js";
import { OUTCOMES, planTimeline } from "../../../src/carriers/sandbox/tracking-timeline.js";
import { stateTimeZone } from "../../../src/carriers/sandbox/us-regions.js";
import { USPS_TRACKING } from "../../../src/carriers/usps/tracking-events.js";
import { statusAfterEvent } from "../../../src/domain/shipments/shipment-status.js";
import { LOS_ANGELES_WAREHOUSE, TORONTO_RESIDENCE } from "../../helpers/shipments.js";

const BOSTON: CarrierAddress = {
  first_name: "Ann",
  address1: "1 Franklin St",
  city: "Boston",
  state: "MA",
  country: "US",
  postal_code: "02110",
};
const LABEL_AT = new Date("2026-01-15T15:00:00.000Z");
const FAR_AHEAD = new Date("2027-06-01T00:00:00.000Z");

function serviceOf(code: CarrierCode, serviceCode?: string): ServiceDefinition {
  const carrier = findCarrier(code);
  const service = serviceCode
    ? carrier?.services.find((s) => s.serviceCode === serviceCode)
    : carrier?.services.find((s) => (code === "dhl_express" ? true : s.scope === "domestic" && !s.gde));
  if (!service) throw new Error(`no service for ${code}`);
  return service;
}

function request(code: CarrierCode, overrides: Partial<TrackingRequest> = {}): TrackingRequest {
  return {
    trackingNumber: `${code}-0001`,
    service: serviceOf(code),
    from: LOS_ANGELES_WAREHOUSE,
    to: code === "dhl_express" ? TORONTO_RESIDENCE : BOSTON,
    labelCreatedAt: LABEL_AT,
    shipDate: "2026-01-15",
    promisedDeliveryDate: "2026-01-22",
    asOf: FAR_AHEAD,
    simulation: { timeScale: 1, shiftMs: 0, outcome: "delivered" },
    ...overrides,
  };
}

const track = async (code: CarrierCode, overrides: Partial<TrackingRequest> = {}) =>
  (await findCarrier(code)?.track(request(code, overrides))) ?? {
    events: [],
    estimatedDeliveryDate: null,
    nextEventAt: null,
  };

const codes = (events: CarrierTrackingEvent[]) => events.map((e) => e.code);

/** The carrier's own words for the first event, acceptance, out for delivery and delivery. */
const VOCABULARY: Record<CarrierCode, { label: string; accepted: string; out: string; delivered: string }> = {
  usps: { label: "GX", accepted: "03", out: "OF", delivered: "01" },
  ups: { label: "M", accepted: "I", out: "I", delivered: "D" },
  fed_ex: { label: "OC", accepted: "PU", out: "OD", delivered: "DL" },
  dhl_ecommerce: { label: "MA", accepted: "80", out: "OF", delivered: "01" },
  dhl_express: { label: "DUMMY_PU", accepted: "PU", out: "WC", delivered: "OK" },
};

describe.each(CARRIERS.map((c) => [c.code] as const))("sandbox tracking timeline of %s", (code) => {
  it("runs from label data through acceptance to out for delivery and delivery, in the carrier's codes", async () => {
    const { events } = await track(code);
    const words = VOCABULARY[code];
    expect(events[0]).toMatchObject({ code: words.label, status: "pre_transit", occurredAt: LABEL_AT });
    expect(events[1]).toMatchObject({ code: words.accepted, status: "in_transit" });
    expect(events.at(-2)).toMatchObject({ code: words.out, status: "out_for_delivery" });
    expect(events.at(-1)).toMatchObject({ code: words.delivered, status: "delivered" });
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    for (const event of events.slice(1, -2)) expect(event.status).toBe("in_transit");
  });

  it("is the same journey every time for one tracking number, and another for another", async () => {
    const once = await track(code);
    const again = await track(code);
    expect(again).toEqual(once);
    const other = await track(code, { trackingNumber: `${code}-0002` });
    expect(other.events.map((e) => e.occurredAt.getTime())).not.toEqual(once.events.map((e) => e.occurredAt.getTime()));
  });

  it("keeps events in time order, in whole seconds, and shows none after the moment asked about", async () => {
    const { events } = await track(code);
    for (const [i, event] of events.entries()) {
      expect(event.occurredAt.getTime() % 1000).toBe(0);
      if (i > 0)
        expect(event.occurredAt.getTime()).toBeGreaterThan(
          (events[i - 1] as CarrierTrackingEvent).occurredAt.getTime(),
        );
    }
    const middle = events[Math.floor(events.length / 2)] as CarrierTrackingEvent;
    const partial = await track(code, { asOf: middle.occurredAt });
    expect(partial.events).toEqual(events.slice(0, events.indexOf(middle) + 1));
    expect(partial.nextEventAt).toEqual(events[events.indexOf(middle) + 1]?.occurredAt);
  });

  it("delivers within the service's delivery standard, by day in working hours at the destination", async () => {
    for (let n = 0; n < 40; n++) {
      const service = serviceOf(code);
      const { events, estimatedDeliveryDate } = await track(code, { trackingNumber: `${code}-${n}`, service });
      const accepted = events.find((e) => e.status === "in_transit") as CarrierTrackingEvent;
      const delivered = events.at(-1) as CarrierTrackingEvent;
      const zone = code === "dhl_express" ? "America/Toronto" : stateTimeZone("MA");
      const acceptedDay = localDay(accepted.occurredAt, stateTimeZone("CA"));
      const deliveredDay = localDay(delivered.occurredAt, zone);
      expect(deliveredDay).toBe(estimatedDeliveryDate);
      expect(deliveredDay >= countDeliveryDays(acceptedDay, Math.max(1, service.transitDays.min), code)).toBe(true);
      expect(deliveredDay <= countDeliveryDays(acceptedDay, service.transitDays.max, code)).toBe(true);
      const hour = Number(
        new Intl.DateTimeFormat("en-US", { timeZone: zone, hour: "numeric", hourCycle: "h23" }).format(
          delivered.occurredAt,
        ),
      );
      expect(hour).toBeGreaterThanOrEqual(10);
      expect(hour).toBeLessThan(19);
    }
  });

  it("moves the parcel's status only forward, ending delivered or returned, whatever the ending", async () => {
    for (const outcome of OUTCOMES) {
      const { events } = await track(code, { simulation: { timeScale: 1, shiftMs: 0, outcome } });
      let status = "shipped";
      const seen: string[] = [];
      for (const event of events) {
        status = statusAfterEvent(status, event.status);
        seen.push(status);
      }
      expect(status).toBe(outcome === "returned" ? "returned" : "delivered");
      const rank = (s: string) =>
        ["shipped", "in_transit", "out_for_delivery", "available_for_pickup", "delivered"].indexOf(s);
      for (const [i, current] of seen.entries()) {
        const before = seen[i - 1];
        if (before && current !== "exception" && before !== "exception" && rank(current) >= 0 && rank(before) >= 0) {
          expect(rank(current)).toBeGreaterThanOrEqual(rank(before));
        }
      }
    }
  });

  it("ends with an attempt, a pickup, a return or a missort when the journey has that ending", async () => {
    const statuses = async (outcome: string) =>
      (await track(code, { simulation: { timeScale: 1, shiftMs: 0, outcome } })).events.map((e) => e.status);
    expect((await statuses("returned")).slice(-4)).toEqual([
      "out_for_delivery",
      "exception",
      "available_for_pickup",
      "returned",
    ]);
    expect((await statuses("held_for_pickup")).slice(-2)).toEqual(["available_for_pickup", "delivered"]);
    expect((await statuses("attempted_then_delivered")).slice(-4)).toEqual([
      "out_for_delivery",
      "exception",
      "out_for_delivery",
      "delivered",
    ]);
    expect(await statuses("exception_then_delivered")).toContain("exception");
  });
});

describe("sandbox tracking routes and timing", () => {
  it("passes real facilities of the lane: USPS distribution centers and NDCs, UPS and FedEx hubs", async () => {
    const cities = async (code: CarrierCode) => (await track(code)).events.map((e) => e.city);
    const usps = await cities("usps");
    expect(usps).toEqual(
      expect.arrayContaining([
        "LOS ANGELES CA DISTRIBUTION CENTER",
        "LOS ANGELES CA NETWORK DISTRIBUTION CENTER",
        "SPRINGFIELD MA NETWORK DISTRIBUTION CENTER",
        "BOSTON MA DISTRIBUTION CENTER",
        "BOSTON",
      ]),
    );
    expect(await cities("ups")).toEqual(expect.arrayContaining(["ONTARIO", "SHREWSBURY", "BOSTON"]));
    expect(await cities("fed_ex")).toEqual(expect.arrayContaining(["BLOOMINGTON", "NORTHBOROUGH", "BOSTON"]));
    const overnight = await track("fed_ex", { service: serviceOf("fed_ex", "fedex_overnight_priority") });
    expect(overnight.events.map((e) => e.city)).toContain("MEMPHIS");
    const abroad = await track("dhl_express");
    expect(abroad.events.map((e) => e.code)).toContain("CR");
    expect(abroad.events.at(-1)).toMatchObject({ city: "TORONTO", country: "CA" });
  });

  it("DHL eCommerce carries the parcel itself (80, 81, 82) and hands it to USPS near the destination", async () => {
    const { events } = await track("dhl_ecommerce");
    expect(codes(events).slice(0, 3)).toEqual(["MA", "80", "81"]);
    const handoff = events.find((e) => e.code === "03");
    expect(handoff?.city).toBe("BOSTON MA DISTRIBUTION CENTER");
    expect(codes(events).slice(-3)).toEqual(["07", "OF", "01"]);
  });

  it("GDE services leave the gap before USPS acceptance to the shipper's own 80, 81 and 82 events", async () => {
    const { events } = await track("usps", { service: serviceOf("usps", "usps_ground_advantage_gde") });
    expect(codes(events)).not.toEqual(expect.arrayContaining(["80"]));
    expect(codes(events).slice(0, 2)).toEqual(["GX", "03"]);
    expect(events[1]?.city).toBe("BOSTON MA DISTRIBUTION CENTER");
  });

  it("takes the parcel at the manifest's time when it was manifested", async () => {
    const acceptedAt = new Date("2026-01-16T23:30:00.000Z");
    const { events } = await track("usps", { acceptedAt });
    expect(events[1]).toMatchObject({ code: "03", occurredAt: acceptedAt });
  });

  it("waits for the label's close-out when the carrier takes parcels only after it", async () => {
    const closeOut = new Date("2026-01-16T08:00:00.000Z");
    const { events } = await track("usps", { acceptedNotBefore: closeOut });
    expect(events[1]?.code).toBe("03");
    expect(events[1]?.occurredAt.getTime()).toBeGreaterThan(closeOut.getTime());
    expect(localDay(events[1]?.occurredAt as Date, "America/Los_Angeles")).toBe("2026-01-16");
  });

  it("accepts a label bought after the afternoon pickup on the next working day", async () => {
    // Friday 2026-01-16 at 23:00 Los Angeles time: UPS picks up on Monday.
    const late = new Date("2026-01-17T07:00:00.000Z");
    const { events } = await track("ups", { labelCreatedAt: late, shipDate: "2026-01-16" });
    expect(localDay(events[1]?.occurredAt as Date, "America/Los_Angeles")).toBe("2026-01-19");
  });

  it("runs SANDBOX_TIME_SCALE times faster and moves ahead by the advance control's shift", async () => {
    const normal = (await track("usps")).events;
    const fast = (await track("usps", { simulation: { timeScale: 10, shiftMs: 0, outcome: "delivered" } })).events;
    const start = LABEL_AT.getTime();
    expect(fast.map((e) => e.occurredAt.getTime() - start)).toEqual(
      normal.map((e) => (e.occurredAt.getTime() - start) / 10),
    );
    const shift = 3_600_000;
    const ahead = (await track("usps", { simulation: { timeScale: 1, shiftMs: shift, outcome: "delivered" } })).events;
    expect(ahead.map((e) => e.occurredAt.getTime())).toEqual(normal.map((e) => e.occurredAt.getTime() - shift));
  });

  it("ends most journeys delivered at once, and a few with an attempt, a pickup, a return or a missort", () => {
    const counts = new Map<string, number>();
    for (let n = 0; n < 4000; n++) {
      const { outcome } = planTimeline(
        {
          carrier: "usps",
          service: serviceOf("usps"),
          trackingNumber: `9400100000000000${n}`,
          from: LOS_ANGELES_WAREHOUSE,
          to: BOSTON,
          labelCreatedAt: LABEL_AT,
          shipDate: "2026-01-15",
        },
        USPS_TRACKING,
      );
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([...OUTCOMES].sort());
    const share = (outcome: string) => (counts.get(outcome) ?? 0) / 4000;
    expect(share("delivered")).toBeGreaterThan(0.87);
    expect(share("delivered")).toBeLessThan(0.95);
    expect(share("returned")).toBeLessThan(0.03);
  });
});
