import { describe, expect, it } from "vitest";
import { publicTrackingUrl } from "../../../src/carriers/tracking-pages.js";

describe("a carrier's public tracking page", () => {
  it("is known for Porter's carriers by code or by the names merchants write", () => {
    expect(publicTrackingUrl("usps", "9400 1")).toBe("https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201");
    expect(publicTrackingUrl(" UPS ", "1Z9")).toBe("https://www.ups.com/track?tracknum=1Z9");
    expect(publicTrackingUrl("FedEx", "7")).toBe("https://www.fedex.com/fedextrack/?trknbr=7");
    expect(publicTrackingUrl("DHL", "12")).toContain("tracking-express.html?tracking-id=12");
  });

  it("is null for a carrier Porter does not know", () => {
    expect(publicTrackingUrl("4px", "1")).toBeNull();
  });
});
