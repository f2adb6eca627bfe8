import { describe, expect, it } from "vitest";
import { CARRIER_CODES } from "../../../src/carriers/catalogue.js";
import { ALL_SERVICES, findService } from "../../../src/carriers/registry.js";
import { returnCapability, returnRefusal, returnServiceName } from "../../../src/carriers/returns.js";
import { isFirstScan } from "../../../src/domain/meter/first-scan-charge.js";
import type { NewShipment } from "../../../src/domain/shipments/new-shipment.js";
import { asReturnLabel } from "../../../src/domain/shipments/return-label.js";

const customer = {
  first_name: "Ann",
  address1: "220 S State St",
  city: "Salt Lake City",
  state: "UT",
  country: "US",
  postal_code: "84111",
};
const merchant = {
  company: "Acme",
  address1: "1 Main St",
  city: "Los Angeles",
  state: "CA",
  country: "US",
  postal_code: "90035",
};
const dock = { ...merchant, company: "Acme Returns", address1: "9 Dock Rd" };

const outbound: NewShipment = {
  to: customer,
  from: merchant,
  parcels: [],
  serviceId: 1172,
  label: { format: "pdf", size: "4x6" },
};

const service = (id: number) => {
  const found = findService(id);
  if (!found) throw new Error(`no service ${id}`);
  return found;
};

describe("the return label of an outbound shipment", () => {
  it("comes from the outbound's recipient and goes to its sender", () => {
    const label = asReturnLabel(outbound, { type: "print" });
    expect(label).toMatchObject({ from: customer, to: merchant, returnLabel: { type: "print" } });
    expect(label.returnTo).toBeUndefined();
  });

  it("goes to the outbound's return address when it has one, and has none of its own", () => {
    const label = asReturnLabel({ ...outbound, returnTo: dock }, { type: "scan_based" });
    expect(label).toMatchObject({ from: customer, to: dock, returnLabel: { type: "scan_based" } });
    expect("returnTo" in label).toBe(false);
  });
});

describe("which return labels each carrier sells", () => {
  it("declares both kinds for USPS, UPS and FedEx, print for DHL Express, none for DHL eCommerce", () => {
    expect(Object.fromEntries(CARRIER_CODES.map((code) => [code, returnCapability(code)]))).toEqual({
      usps: { print: true, scanBased: true },
      ups: { print: true, scanBased: true },
      fed_ex: { print: true, scanBased: true },
      dhl_express: { print: true, scanBased: false },
      dhl_ecommerce: { print: false, scanBased: false },
    });
  });

  it("sells USPS returns on Ground Advantage, Priority Mail and Priority Mail Express only", () => {
    const usps = ALL_SERVICES.filter((s) => s.carrierCode === "usps");
    const returnable = usps.filter((s) => returnRefusal(s, { type: "scan_based" }) === undefined);
    expect(returnable.map((s) => s.serviceCode).sort()).toEqual([
      "usps_express",
      "usps_ground_advantage",
      "usps_priority",
    ]);
    expect(returnRefusal(service(688), { type: "print" })).toMatch(/no return label/);
  });

  it("refuses scan_based where the carrier sells print only, and anything where it sells none", () => {
    expect(returnRefusal(service(300), { type: "print" })).toBeUndefined();
    expect(returnRefusal(service(300), { type: "scan_based" })).toMatch(/use return_type print/);
    expect(returnRefusal(service(1043), { type: "print" })).toMatch(/no return labels/);
  });

  it("names the return product after the service", () => {
    expect(returnServiceName(service(1172))).toBe("USPS Ground Advantage Return");
  });
});

describe("when a scan-based return is charged", () => {
  it("at the carrier's first event past the label's creation, never at a client's own event", () => {
    expect(isFirstScan({ source: "carrier", status: "pre_transit" })).toBe(false);
    expect(isFirstScan({ source: "carrier", status: "in_transit" })).toBe(true);
    expect(isFirstScan({ source: "carrier", status: "delivered" })).toBe(true);
    expect(isFirstScan({ source: "custom", status: "in_transit" })).toBe(false);
  });
});
