import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, rateShipment, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";

/**
 * Every (id, carrier, code, name) of eHub's own `GET /services` answer for a service Porter offers,
 * copied from a recorded real answer: a client written against eHub finds each of them here.
 */
const EHUB_LISTINGS: readonly [number, string, string, string][] = [
  [157, "usps", "usps_first_class", "First Class Mail"],
  [158, "usps", "usps_priority", "Priority Mail"],
  [159, "usps", "usps_media_mail", "Media Mail"],
  [161, "usps", "usps_express", "Priority Mail Express"],
  [162, "usps", "usps_library_mail", "Library Mail"],
  [163, "usps", "usps_intl_express", "Express Mail International"],
  [164, "usps", "usps_intl_priority", "Priority Mail International"],
  [166, "usps", "usps_parcel_select", "Parcel Select"],
  [167, "usps", "usps_intl_first_class_package", "First Class Package International Service"],
  [293, "dhl_express", "express1200_non_doc", "Express1200NonDoc"],
  [294, "dhl_express", "express1200", "Express1200"],
  [295, "dhl_express", "express900", "Express900"],
  [296, "dhl_express", "express900_non_doc", "Express900NonDoc"],
  [300, "dhl_express", "express_worldwide", "ExpressWorldwide"],
  [304, "dhl_express", "express_worldwide_non_doc", "ExpressWorldwideNonDoc"],
  [392, "fed_ex", "fedex_ground", "FEDEX_GROUND"],
  [393, "fed_ex", "fedex_2day", "FEDEX_2_DAY"],
  [394, "fed_ex", "fedex_2day_am", "FEDEX_2_DAY_AM"],
  [395, "fed_ex", "fedex_express_saver", "FEDEX_EXPRESS_SAVER"],
  [396, "fed_ex", "fedex_overnight_standard", "STANDARD_OVERNIGHT"],
  [397, "fed_ex", "fedex_overnight_1st", "FIRST_OVERNIGHT"],
  [398, "fed_ex", "fedex_overnight_priority", "PRIORITY_OVERNIGHT"],
  [399, "fed_ex", "fedex_intl_economy", "INTERNATIONAL_ECONOMY"],
  [401, "fed_ex", "fedex_intl_priority", "INTERNATIONAL_PRIORITY"],
  [402, "fed_ex", "fedex_ground_home", "GROUND_HOME_DELIVERY"],
  [666, "ups", "ups_ground", "Ground"],
  [667, "ups", "ups_standard", "UPSStandard"],
  [668, "ups", "ups_saver", "UPSSaver"],
  [669, "ups", "ups_express", "Express"],
  [670, "ups", "ups_express_plus", "ExpressPlus"],
  [671, "ups", "ups_expedited", "Expedited"],
  [672, "ups", "ups_next_day", "NextDayAir"],
  [673, "ups", "ups_next_day_saver", "NextDayAirSaver"],
  [674, "ups", "ups_next_day_am", "NextDayAirEarlyAM"],
  [675, "ups", "ups_2nd_day", "2ndDayAir"],
  [676, "ups", "ups_2nd_day_am", "2ndDayAirAM"],
  [677, "ups", "ups_3day_select", "3DaySelect"],
  [684, "usps", "usps_priority", "Priority Mail"],
  [685, "usps", "usps_express", "Priority Mail Express"],
  [686, "usps", "usps_parcel_select", "Parcel Select"],
  [687, "usps", "usps_library_mail", "Library Mail"],
  [688, "usps", "usps_media_mail", "Media Mail"],
  [690, "usps", "usps_intl_first_class_package", "First Class Package International Service"],
  [691, "usps", "usps_intl_priority", "Priority Mail International"],
  [692, "usps", "usps_intl_express", "Express Mail International"],
  [744, "fed_ex", "fedex_overnight_priority", "FedEx Priority Overnight"],
  [745, "fed_ex", "fedex_2day", "FedEx 2Day"],
  [746, "fed_ex", "fedex_overnight_standard", "FedEx Standard Overnight"],
  [747, "fed_ex", "fedex_overnight_1st", "FedEx First Overnight"],
  [748, "fed_ex", "fedex_express_saver", "FedEx Express Saver"],
  [749, "fed_ex", "fedex_2day_am", "FedEx 2Day A.M."],
  [753, "fed_ex", "fedex_home", "FedEx Home Delivery"],
  [754, "fed_ex", "fedex_ground", "FedEx Ground"],
  [755, "fed_ex", "fedex_intl_priority", "FedEx International Priority"],
  [756, "fed_ex", "fedex_intl_economy", "FedEx International Economy"],
  [765, "ups", "ups_next_day", "UPS Next Day Air"],
  [766, "ups", "ups_2nd_day", "UPS 2nd Day Air"],
  [767, "ups", "ups_ground", "UPS Ground"],
  [768, "ups", "ups_3day_select", "UPS 3 Day Select"],
  [769, "ups", "ups_next_day_saver", "UPS Next Day Air Saver"],
  [770, "ups", "ups_next_day_am", "UPS Next Day Air Early AM"],
  [771, "ups", "ups_2nd_day_am", "UPS 2nd Day Air AM"],
  [772, "ups", "ups_ww_express", "UPS Worldwide Express"],
  [773, "ups", "ups_ww_expedited", "UPS Worldwide Expedited"],
  [774, "ups", "ups_standard", "UPS Standard"],
  [775, "ups", "ups_ww_express_plus", "UPS Worldwide Express Plus"],
  [776, "ups", "ups_ww_express_saver", "UPS Worldwide Saver"],
  [784, "usps", "usps_first_class", "First Class Mail"],
  [785, "usps", "usps_library_mail", "Library"],
  [786, "usps", "usps_media_mail", "Media"],
  [787, "usps", "usps_parcel_select", "Parcel Select Ground"],
  [789, "usps", "usps_intl_express", "Priority Mail Express International"],
  [790, "usps", "usps_intl_priority", "Priority Mail International"],
  [791, "usps", "usps_intl_first_class_package", "First Class Mail International"],
  [924, "dhl_express", "dhl_express", "DHL Worldwide Priority Express"],
  [925, "dhl_express", "express900", "DHL Express 9:00"],
  [926, "dhl_express", "express1200", "DHL Express 12:00"],
  [983, "usps", "usps_first_class", "First Class Mail"],
  [984, "usps", "usps_priority", "Priority Mail"],
  [985, "usps", "usps_express", "Priority Mail Express"],
  [986, "usps", "usps_parcel_select", "Parcel Select"],
  [987, "usps", "usps_media_mail", "Media Mail"],
  [988, "usps", "usps_library_mail", "Library Mail"],
  [989, "usps", "usps_intl_express", "Express Mail International"],
  [990, "usps", "usps_intl_priority", "Priority Mail International"],
  [991, "usps", "usps_intl_first_class_package", "First Class Package International Service"],
  [1041, "dhl_ecommerce", "dhl_parcel_expedited", "DHL Ecommerce Parcel Expedited"],
  [1042, "dhl_ecommerce", "dhl_parcel_expedited_max", "DHL Ecommerce Parcel Expedited Max"],
  [1043, "dhl_ecommerce", "dhl_parcel_ground", "DHL Ecommerce Parcel Ground"],
  [1044, "dhl_ecommerce", "dhl_bpm_expedited", "DHL Ecommerce BPM Expedited"],
  [1045, "dhl_ecommerce", "dhl_bpm_ground", "DHL Ecommerce BPM Ground"],
  [1046, "dhl_ecommerce", "dhl_parcel_intl_direct", "DHL Ecommerce International Direct"],
  [1047, "dhl_ecommerce", "dhl_parcel_intl_standard", "DHL Ecommerce International Standard"],
  [1048, "dhl_ecommerce", "dhl_packet_intl", "DHL Ecommerce Packet International"],
  [1053, "ups", "ups_ww_express_plus", "UPS Worldwide Express Plus"],
  [1054, "ups", "ups_ww_express", "UPS Worldwide Express"],
  [1055, "ups", "ups_ww_express_saver", "UPS Worldwide Express Saver"],
  [1056, "ups", "ups_ww_expedited", "UPS Worldwide Expedited"],
  [1172, "usps", "usps_ground_advantage", "USPS Ground Advantage"],
  [1175, "usps", "usps_ground_advantage", "Ground Advantage"],
  [1187, "dhl_ecommerce", "dhl_parcel_international_direct", "DHL Parcel International Direct"],
  [1188, "dhl_ecommerce", "dhl_parcel_international_standard", "DHL Parcel International Standard"],
  [1189, "dhl_ecommerce", "dhl_packet_international", "DHL Packet International"],
];

/** The series a real eHub account is rated under (First-Class Mail keeps 683, the id the reference shows). */
const RATED_SERIES: Record<string, readonly [number, number][]> = {
  usps: [
    [683, 692],
    [1172, 1174],
  ],
  ups: [
    [666, 682],
    [1051, 1056],
  ],
  fed_ex: [
    [392, 402],
    [1192, 1192],
  ],
  dhl_ecommerce: [
    [1041, 1050],
    [1187, 1191],
  ],
  dhl_express: [
    [281, 312],
    [924, 927],
  ],
};

interface ServiceOut {
  service_id: number;
  service: string;
  service_code: string;
  carrier_code: string;
}

describe("eHub's own service ids and codes", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, auth = merchant.auth) =>
    t.app.inject({ method: "POST", url, headers: auth, payload });
  const get = (url: string) => t.app.inject({ method: "GET", url, headers: merchant.auth });

  it("lists every id eHub lists for a service Porter offers, with eHub's code and name", async () => {
    const services = (await get("/api/v2/services")).json().services as ServiceOut[];
    const byId = new Map(services.map((s) => [s.service_id, s]));
    for (const [id, carrier_code, service_code, service] of EHUB_LISTINGS) {
      expect(byId.get(id), `${id}`).toMatchObject({ carrier_code, service_code, service });
    }
    const priority = services.filter((s) => s.service_code === "usps_priority").map((s) => s.service_id);
    expect(priority).toEqual([158, 684, 984]);
    // The rest of eHub's catalogue, and the ids that are Porter's own, are checked in service-catalogue.test.ts.
  });

  it("answers rates under the ids of the series a real account is rated with", async () => {
    const rates = (await post("/api/v2/rates", rateShipment())).json().service_rates as ServiceOut[];
    expect(rates.length).toBeGreaterThan(10);
    for (const rate of rates) {
      const inSeries = RATED_SERIES[rate.carrier_code]!.some(
        ([low, high]) => rate.service_id >= low && rate.service_id <= high,
      );
      expect(inSeries || rate.service_code.includes("_gde"), `${rate.service_id} ${rate.service_code}`).toBe(true);
    }
  });

  it.each([
    [158, 684],
    [984, 684],
    [685, 685],
    [767, 666],
    [754, 392],
  ])("rates include_services %s as the service rated under %s", async (asked, answered) => {
    const response = await post("/api/v2/rates", rateShipment({ include_services: [String(asked)] }));
    expect(response.statusCode).toBe(201);
    expect(response.json().service_rates.map((r: ServiceOut) => r.service_id)).toEqual([answered]);
  });

  const ship = (service_id: number) =>
    post("/api/v2/shipments/ship", {
      shipment: {
        to_location: SALT_LAKE_RESIDENCE,
        from_location: LOS_ANGELES_WAREHOUSE,
        parcels: [SMALL_BOX],
        service_id,
        label_format: "zpl",
        label_size: "4x6",
      },
    });

  it("keeps the id and code a shipment was bought under", async () => {
    const response = await ship(984);
    expect(response.statusCode, response.body).toBe(201);
    const shipment = response.json().shipment;
    const expected = { service_id: 984, service_code: "usps_priority", service: "Priority Mail", carrier_code: "usps" };
    expect(shipment.shipping_service).toMatchObject(expected);
    const read = await get(`/api/v2/shipments/${shipment.id}`);
    expect(read.json().shipment.shipping_service).toMatchObject(expected);
  });

  it("buys UPS Ground under 666 and FedEx Home Delivery under its other code's id 753", async () => {
    const ups = await ship(666);
    expect(ups.statusCode, ups.body).toBe(201);
    expect(ups.json().shipment.shipping_service).toMatchObject({ service_id: 666, service_code: "ups_ground" });
    const home = await ship(753);
    expect(home.statusCode, home.body).toBe(201);
    expect(home.json().shipment.shipping_service).toMatchObject({ service_id: 753, service_code: "fedex_home" });
  });

  it("stores a carrier connection's enabled services under the ids rates answer with", async () => {
    const owner = await createTestAccount(t.services);
    const response = await post(
      "/api/v2/carrier_accounts",
      { carrier_account: { carrier_code: "fed_ex", enabled_service_ids: [754, 392, 745] } },
      owner.auth,
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().carrier_account.enabled_service_ids).toEqual([392, 393]);
    const foreign = await post(
      "/api/v2/carrier_accounts",
      { carrier_account: { carrier_code: "ups", enabled_service_ids: [684] } },
      owner.auth,
    );
    expect(foreign.json()).toMatchObject({ error_code: "carrier_account.unknown_service" });
  });
});
