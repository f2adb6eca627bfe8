import { describe, expect, it } from "vitest";
import { dhlEcommerceManifests } from "../../../src/carriers/dhl-ecommerce/manifest.js";
import { uspsManifests } from "../../../src/carriers/usps/manifest.js";

describe("a manifest counts each piece under its product, whichever eHub code it was bought under", () => {
  it.each([
    ["usps_express", "Priority Mail Express"],
    ["usps_priority", "Priority Mail"],
    ["usps_ground_advantage", "USPS Ground Advantage"],
    ["usps_media_mail", "Other"],
  ])("USPS %s counts as %s", (serviceCode, counted) => {
    expect(uspsManifests.countedAs({ serviceCode, scope: "domestic" })).toBe(counted);
  });

  it.each([
    ["dhl_parcel_ground", "GND"],
    ["dhl_parcel_expedited_max", "MAX"],
    ["dhl_parcel_intl_direct", "PLT"],
    ["dhl_parcel_international_direct", "PLT"],
    ["dhl_parcel_intl_standard", "PLY"],
    ["dhl_parcel_international_standard", "PLY"],
    ["dhl_packet_intl", "PKY"],
    ["dhl_packet_international", "PKY"],
  ])("DHL eCommerce %s counts as %s", (serviceCode, counted) => {
    expect(dhlEcommerceManifests.countedAs({ serviceCode, scope: "international" })).toBe(counted);
  });
});
