import { describe, expect, it } from "vitest";
import { isTrackable, shipmentStatusOf, statusAfterEvent } from "../../../src/domain/shipments/shipment-status.js";
import { nextRefreshAt } from "../../../src/domain/tracking/refresh-schedule.js";

describe("a parcel's status after a tracking event", () => {
  it("moves forward through the journey", () => {
    expect(statusAfterEvent("shipped", "pre_transit")).toBe("shipped");
    expect(statusAfterEvent("shipped", "in_transit")).toBe("in_transit");
    expect(statusAfterEvent("manifested", "in_transit")).toBe("in_transit");
    expect(statusAfterEvent("in_transit", "out_for_delivery")).toBe("out_for_delivery");
    expect(statusAfterEvent("out_for_delivery", "delivered")).toBe("delivered");
    expect(statusAfterEvent("available_for_pickup", "returned")).toBe("returned");
    expect(statusAfterEvent("shipped", "delivered")).toBe("delivered");
  });

  it("never goes backwards: a late event is kept as an event, not as the status", () => {
    expect(statusAfterEvent("delivered", "in_transit")).toBe("delivered");
    expect(statusAfterEvent("delivered", "exception")).toBe("delivered");
    expect(statusAfterEvent("returned", "out_for_delivery")).toBe("returned");
    expect(statusAfterEvent("out_for_delivery", "in_transit")).toBe("out_for_delivery");
    expect(statusAfterEvent("in_transit", "pre_transit")).toBe("in_transit");
    expect(statusAfterEvent("available_for_pickup", "out_for_delivery")).toBe("available_for_pickup");
  });

  it("enters an exception at any point on the way and leaves it when the carrier reports progress", () => {
    expect(statusAfterEvent("out_for_delivery", "exception")).toBe("exception");
    expect(statusAfterEvent("in_transit", "exception")).toBe("exception");
    expect(statusAfterEvent("exception", "in_transit")).toBe("in_transit");
    expect(statusAfterEvent("exception", "available_for_pickup")).toBe("available_for_pickup");
    expect(statusAfterEvent("exception", "pre_transit")).toBe("exception");
    expect(statusAfterEvent("shipped", "exception")).toBe("exception");
  });

  it("leaves cancelled shipments alone", () => {
    for (const status of ["cancel_pending", "cancelled", "purchasing", "failed"]) {
      expect(isTrackable(status)).toBe(false);
      expect(statusAfterEvent(status, "in_transit")).toBe(status);
    }
    expect(isTrackable("delivered")).toBe(false);
    expect(isTrackable("exception")).toBe(true);
  });

  it("a shipment is as far along as its least advanced parcel, and does not go back either", () => {
    expect(shipmentStatusOf(["delivered", "out_for_delivery"], "in_transit")).toBe("out_for_delivery");
    expect(shipmentStatusOf(["delivered", "delivered"], "out_for_delivery")).toBe("delivered");
    expect(shipmentStatusOf(["shipped"], "manifested")).toBe("manifested");
    expect(shipmentStatusOf(["in_transit"], "delivered")).toBe("delivered");
  });
});

describe("the tracking refresh schedule", () => {
  const label = new Date("2026-01-15T15:00:00.000Z");
  const at = (hours: number) => new Date(label.getTime() + hours * 3_600_000);
  const gapMinutes = (now: Date, next: Date | null) => ((next?.getTime() ?? 0) - now.getTime()) / 60_000;

  it("backs off as the parcel ages and stops after 60 days", () => {
    expect(gapMinutes(at(2), nextRefreshAt(label, at(2), null))).toBe(30);
    expect(gapMinutes(at(48), nextRefreshAt(label, at(48), null))).toBe(60);
    expect(gapMinutes(at(5 * 24), nextRefreshAt(label, at(5 * 24), null))).toBe(180);
    expect(gapMinutes(at(10 * 24), nextRefreshAt(label, at(10 * 24), null))).toBe(360);
    expect(gapMinutes(at(30 * 24), nextRefreshAt(label, at(30 * 24), null))).toBe(720);
    expect(nextRefreshAt(label, at(61 * 24), null)).toBeNull();
  });

  it("reads sooner when the carrier says its next event is due sooner, never in the past", () => {
    const now = at(48);
    expect(nextRefreshAt(label, now, new Date(now.getTime() + 5 * 60_000))).toEqual(
      new Date(now.getTime() + 5 * 60_000),
    );
    expect(gapMinutes(now, nextRefreshAt(label, now, new Date(now.getTime() - 60_000)))).toBe(60);
  });

  it("runs faster with the sandbox's time scale", () => {
    expect(gapMinutes(at(1), nextRefreshAt(label, at(1), null, 60))).toBe(1);
    // 25 real hours at 60 times are 62 journey days: past the end of the schedule.
    expect(nextRefreshAt(label, at(25), null, 60)).toBeNull();
  });
});
