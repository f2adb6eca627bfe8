import { describe, expect, it } from "vitest";
import type { PickupRequest, PickupShipment } from "../../../src/carriers/carrier.js";
import { dhlPickupRequest, requestorName } from "../../../src/carriers/dhl-express/api/dhl-express-pickups.js";
import { DHL_EXPRESS_PICKUP_RULE } from "../../../src/carriers/dhl-express/pickups.js";
import { DHL_EXPRESS_SERVICES } from "../../../src/carriers/dhl-express/services.js";
import {
  availabilityVerdict,
  cancelPickupRequest,
  createPickupRequest,
  fedexPickupCarrier,
  packageLocation,
  pickupAvailabilityRequest,
} from "../../../src/carriers/fedex/api/fedex-pickups.js";
import { FEDEX_SERVICES } from "../../../src/carriers/fedex/services.js";
import { courierAvailability, pickupWindow } from "../../../src/carriers/pickup-calendar.js";
import {
  pickupCancelled,
  pickupCreationRequest,
  pickupPieces,
  pickupRequestNumber,
} from "../../../src/carriers/ups/api/ups-pickups.js";
import { UPS_PICKUP_RULE } from "../../../src/carriers/ups/pickups.js";
import { UPS_SERVICES } from "../../../src/carriers/ups/services.js";
import { upsProseViolations } from "../../contracts/ups-rules.js";
import { LOS_ANGELES_WAREHOUSE } from "../../helpers/shipments.js";

const service = (services: readonly { serviceCode: string }[], code: string) => {
  const found = services.find((s) => s.serviceCode === code);
  if (!found) throw new Error(`no service ${code}`);
  return found as PickupShipment["service"];
};
const BOX = { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" };
/** Written as people write phones: the carriers get the digits. */
const LOS_ANGELES = { ...LOS_ANGELES_WAREHOUSE, phone: "(310) 555-0100" };

function pickupRequest(shipments: PickupShipment[], overrides: Partial<PickupRequest> = {}): PickupRequest {
  return {
    location: LOS_ANGELES,
    pickupDate: "2026-01-16",
    packageCount: shipments.reduce((n, s) => n + s.parcels.length, 0),
    weightOz: shipments.reduce((n, s) => n + s.parcels.reduce((w, p) => w + p.weightOz, 0), 0),
    serial: 7,
    locationDetail: null,
    specialInstructions: null,
    shipments,
    now: new Date("2026-01-15T15:00:00Z"),
    ...overrides,
  };
}

describe("the couriers' pickup calendar", () => {
  it("judges the day and the same-day cut-off in the address's local time", () => {
    // 14:59 in Los Angeles, 16:59 in Chicago: UPS still comes today in Los Angeles, not in Chicago.
    const now = new Date("2026-01-15T22:59:00Z");
    expect(courierAvailability(UPS_PICKUP_RULE, "2026-01-15", now, LOS_ANGELES)).toMatchObject({ available: true });
    const chicago = courierAvailability(UPS_PICKUP_RULE, "2026-01-15", now, { country: "US", state: "IL" });
    expect(chicago).toMatchObject({ available: false, pickupDate: "2026-01-16" });
    expect(chicago.reason).toContain("until 15:00 local time");
  });

  it("skips weekends and past days, and keeps DHL Express within ten days", () => {
    const now = new Date("2026-01-15T15:00:00Z");
    expect(courierAvailability(UPS_PICKUP_RULE, "2026-01-17", now, LOS_ANGELES)).toMatchObject({
      available: false,
      pickupDate: "2026-01-19",
      reason: "UPS cannot pick up on 2026-01-17: UPS picks up Monday to Friday",
    });
    expect(courierAvailability(UPS_PICKUP_RULE, "2026-01-14", now, LOS_ANGELES)).toMatchObject({
      available: false,
      pickupDate: "2026-01-15",
    });
    const far = courierAvailability(DHL_EXPRESS_PICKUP_RULE, "2026-01-26", now, LOS_ANGELES);
    expect(far).toMatchObject({ available: false, pickupDate: "2026-01-15" });
    expect(far.reason).toContain("up to 10 days ahead");
    expect(courierAvailability(DHL_EXPRESS_PICKUP_RULE, "2026-01-23", now, LOS_ANGELES).available).toBe(true);
  });

  it("books from the ready time, or from now on a same-day pickup, with the local offset of that day", () => {
    expect(pickupWindow(UPS_PICKUP_RULE, "2026-01-16", new Date("2026-01-15T15:00:00Z"), LOS_ANGELES)).toEqual({
      readyTime: "09:00",
      closeTime: "17:00",
      utcOffset: "-08:00",
      timeZone: "America/Los_Angeles",
    });
    // 10:07 in New York in July (daylight time): ready from 10:15.
    expect(
      pickupWindow(UPS_PICKUP_RULE, "2026-07-15", new Date("2026-07-15T14:07:00Z"), { country: "US", state: "NY" }),
    ).toMatchObject({ readyTime: "10:15", utcOffset: "-04:00" });
  });
});

describe("UPS pickup requests", () => {
  const ground = service(UPS_SERVICES, "ups_ground");
  const express = service(UPS_SERVICES, "ups_express");
  const window = { readyTime: "09:00", closeTime: "17:00", utcOffset: "-08:00", timeZone: "America/Los_Angeles" };

  it("counts the pieces by three-digit service code, destination and container", () => {
    expect(
      pickupPieces([
        { service: ground, trackingNumbers: [], toCountry: "US", parcels: [BOX, BOX] },
        { service: ground, trackingNumbers: [], toCountry: "us", parcels: [{ ...BOX, packageType: "ups_letter" }] },
        { service: express, trackingNumbers: [], toCountry: "CA", parcels: [BOX] },
      ]),
    ).toEqual([
      { ServiceCode: "003", Quantity: "2", DestinationCountryCode: "US", ContainerCode: "01" },
      { ServiceCode: "003", Quantity: "1", DestinationCountryCode: "US", ContainerCode: "02" },
      { ServiceCode: "007", Quantity: "1", DestinationCountryCode: "CA", ContainerCode: "01" },
    ]);
  });

  it("writes a Pickup Creation request that keeps the rules Pickup.yaml states in prose", () => {
    const request = pickupRequest([{ service: ground, trackingNumbers: [], toCountry: "US", parcels: [BOX, BOX] }], {
      locationDetail: "Loading dock at the back of the building",
      specialInstructions: "Ask for Sam at the front desk, who has the parcels",
    });
    const body = pickupCreationRequest(request, "A1B2C3", window);
    if ("refusal" in body) throw new Error(body.refusal);
    expect(body.PickupCreationRequest).toMatchObject({
      PickupDateInfo: { ReadyTime: "0900", CloseTime: "1700", PickupDate: "20260116" },
      PickupAddress: { CompanyName: "Acme Fulfillment", ResidentialIndicator: "N", Phone: { Number: "3105550100" } },
      TotalWeight: { Weight: "3.0", UnitOfMeasurement: "LBS" },
      OverweightIndicator: "N",
      PaymentMethod: "01",
    });
    expect(body.PickupCreationRequest.SpecialInstruction).toHaveLength(57);
    const sent = (pickup: unknown) =>
      upsProseViolations({
        method: "POST",
        url: "/api/pickupcreation/v2409/pickup",
        headers: {},
        body: JSON.stringify({ PickupCreationRequest: pickup }),
      }).map((v) => v.where);
    expect(sent(body.PickupCreationRequest)).toEqual([]);
    expect(sent({ ...body.PickupCreationRequest, PickupPiece: [] })).toEqual([
      "body/PickupCreationRequest/PickupPiece",
    ]);
  });

  it("refuses without a phone at the address, and reads UPS's answers", () => {
    const request = pickupRequest([{ service: ground, trackingNumbers: [], toCountry: "US", parcels: [BOX] }], {
      location: { ...LOS_ANGELES, phone: null },
    });
    expect(pickupCreationRequest(request, "A1B2C3", window)).toEqual({
      refusal: "UPS needs a phone number at the pickup address (location phone).",
    });
    expect(pickupRequestNumber({ PickupCreationResponse: { PRN: " 2929602E9CP " } })).toBe("2929602E9CP");
    expect(pickupRequestNumber({ PickupCreationResponse: {} })).toBeUndefined();
    expect(pickupCancelled({ PickupCancelResponse: { Response: { ResponseStatus: { Code: "1" } } } })).toBe(true);
    expect(pickupCancelled({})).toBe(false);
  });
});

describe("FedEx pickup requests", () => {
  const home = service(FEDEX_SERVICES, "fedex_ground_home");
  const twoDay = service(FEDEX_SERVICES, "fedex_2day");
  const credentials = { clientId: "id", clientSecret: "secret", accountNumber: "740561073" };
  const window = { readyTime: "09:00", closeTime: "17:00", utcOffset: "-08:00", timeZone: "America/Los_Angeles" };

  it("sends Ground to FedEx Ground, the rest to FedEx Express, and never both in one pickup", () => {
    const shipment = (s: PickupShipment["service"]) => ({
      service: s,
      trackingNumbers: [],
      toCountry: "US",
      parcels: [BOX],
    });
    expect(fedexPickupCarrier([shipment(home)])).toBe("FDXG");
    expect(fedexPickupCarrier([shipment(twoDay)])).toBe("FDXE");
    expect(fedexPickupCarrier([shipment(home), shipment(twoDay)])).toMatchObject({
      refusal: expect.stringContaining("pick up separately"),
    });
  });

  it("asks availability and creates the pickup in local time without a zone designator", () => {
    const request = pickupRequest([{ service: home, trackingNumbers: [], toCountry: "CA", parcels: [BOX] }], {
      locationDetail: "garage",
      specialInstructions: "Ring",
    });
    expect(pickupAvailabilityRequest(request, credentials, "FDXG", window, "2026-01-15")).toMatchObject({
      dispatchDate: "2026-01-16",
      pickupRequestType: ["FUTURE_DAY"],
      countryRelationship: "INTERNATIONAL",
      shipmentAttributes: { serviceType: "GROUND_HOME_DELIVERY" },
    });
    const body = createPickupRequest(request, credentials, "FDXG", window, "2026-01-16");
    expect(body).toMatchObject({
      associatedAccountNumber: { value: "740561073" },
      originDetail: {
        readyDateTimestamp: "2026-01-16T09:00:00",
        customerCloseTime: "17:00:00",
        pickupDateType: "SAME_DAY",
        packageLocation: "NONE",
      },
      totalWeight: { units: "LB", value: 1.5 },
      remarks: "garage. Ring",
    });
    expect(packageLocation("Side entrance")).toBe("SIDE");
  });

  it("reads FedEx's verdict on the day, its cut-off included, and cancels with the company and location", () => {
    const option = { carrier: "FDXE", available: true, pickupDate: "2026-01-16", cutOffTime: "18:00:00" };
    expect(availabilityVerdict({ output: { options: [option] } }, "FDXE", "2026-01-16", window)).toEqual({
      available: true,
    });
    expect(
      availabilityVerdict(
        { output: { options: [{ ...option, cutOffTime: "08:30:00" }] } },
        "FDXE",
        "2026-01-16",
        window,
      ),
    ).toEqual({ refusal: "FedEx takes pickups on 2026-01-16 ready by 08:30 local time, not from 09:00." });
    expect(
      availabilityVerdict(
        { output: { options: [{ ...option, available: false }], alerts: [{ message: "Closed." }] } },
        "FDXE",
        "2026-01-16",
        window,
      ),
    ).toEqual({ refusal: "FedEx does not pick up at this address on 2026-01-16: Closed." });
    expect(
      cancelPickupRequest(credentials, {
        confirmationNumber: "7",
        pickupDate: "2026-01-16",
        details: { carrierCode: "FDXE", location: "LOSA" },
      }),
    ).toEqual({
      associatedAccountNumber: { value: "740561073" },
      pickupConfirmationCode: "7",
      carrierCode: "FDXE",
      scheduledDate: "2026-01-16",
      location: "LOSA",
    });
  });
});

describe("DHL Express pickup requests", () => {
  const worldwide = service(DHL_EXPRESS_SERVICES, "express_worldwide");
  const window = { readyTime: "09:00", closeTime: "17:00", utcOffset: "-08:00", timeZone: "America/Los_Angeles" };

  it("lists each shipment by its product (documents apart), waybill and packages, at the local time with its offset", () => {
    const request = pickupRequest(
      [
        { service: worldwide, trackingNumbers: ["1234567890"], toCountry: "CA", parcels: [BOX] },
        {
          service: worldwide,
          trackingNumbers: ["1234567891"],
          toCountry: "GB",
          parcels: [{ ...BOX, packageType: "envelope" }],
        },
      ],
      { specialInstructions: "Ring" },
    );
    const body = dhlPickupRequest(request, "123456789", window);
    expect(body).toMatchObject({
      plannedPickupDateAndTime: "2026-01-16T09:00:00GMT-08:00",
      closeTime: "17:00",
      locationType: "business",
      specialInstructions: [{ value: "Ring" }],
      shipmentDetails: [
        { productCode: "P", isCustomsDeclarable: true, shipmentTrackingNumber: "1234567890" },
        { productCode: "D", isCustomsDeclarable: false, shipmentTrackingNumber: "1234567891" },
      ],
    });
    expect(requestorName(request)).toBe("Acme Fulfillment");
    expect(dhlPickupRequest({ ...request, location: { ...LOS_ANGELES, phone: "" } }, "123456789", window)).toEqual({
      refusal: "DHL Express needs a phone number at the pickup address (location phone).",
    });
  });
});
