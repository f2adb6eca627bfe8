import { describe, expect, it } from "vitest";
import { spacedTimes } from "../../../src/domain/tracking/refresh-tracking.js";

describe("the times of the events one report adds", () => {
  it("keeps planned times that already fall between the earliest allowed time and now", () => {
    expect(spacedTimes([1_100, 1_500, 2_000], 1_000, 2_000)).toEqual([1_100, 1_500, 2_000]);
  });

  it("scales a plan that starts before the earliest allowed time into the window, keeping its proportions", () => {
    // Planned over 0..2000, allowed from 1000: each gap is halved, the last stays at now.
    expect(spacedTimes([0, 1_000, 1_500, 2_000], 1_000, 2_000)).toEqual([1_000, 1_500, 1_750, 2_000]);
  });

  it("gives events planned at one instant distinct, increasing times", () => {
    expect(spacedTimes([2_000, 2_000, 2_000], 1_000, 2_000)).toEqual([1_998, 1_999, 2_000]);
  });

  it("with no room at all, steps 1 ms at a time from the earliest allowed time", () => {
    expect(spacedTimes([0, 10, 20], 5_000, 5_000)).toEqual([5_000, 5_001, 5_002]);
  });
});
