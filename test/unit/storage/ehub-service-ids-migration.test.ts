import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findService } from "../../../src/carriers/registry.js";
import { migrateToLatest } from "../../../src/storage/migrate.js";
import {
  EHUB_PACKAGE_TYPE_BY_OLD_TYPE,
  EHUB_SERVICE_BY_OLD_ID,
  ehubEnabledServiceIds,
} from "../../../src/storage/migrations/0005-ehub-service-ids.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.js";

const STAMP = "2026-01-05T15:00:00.000Z";

describe("the old service ids and package types map to eHub's", () => {
  it("to a service Porter offers, under the code that service is listed with", () => {
    for (const { serviceId, serviceCode } of Object.values(EHUB_SERVICE_BY_OLD_ID)) {
      const service = findService(serviceId);
      expect(service?.serviceId, `${serviceId}`).toBe(serviceId);
      expect(service?.serviceCode).toBe(serviceCode);
    }
  });

  it("to package types the service offers", () => {
    const offered = new Set(
      Object.values(EHUB_SERVICE_BY_OLD_ID).flatMap(({ serviceId }) =>
        findService(serviceId)!.packageTypes.map((p) => p.type),
      ),
    );
    for (const type of Object.values(EHUB_PACKAGE_TYPE_BY_OLD_TYPE)) expect(offered.has(type), type).toBe(true);
  });

  it("rewrites an enabled-services list, keeping ids that did not change and dropping repeats", () => {
    expect(ehubEnabledServiceIds("[93001,393,93002,1172]")).toBe("[392,393,402,1172]");
    expect(ehubEnabledServiceIds("[92001,666]")).toBe("[666]");
  });
});

describe("migration 0005 on rows written before it", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("0003-shipments");
  });
  afterAll(() => t.drop());

  it("moves shipments, their parcels and carrier connections to eHub's ids, codes and package types", async () => {
    const db = t.db.kysely;
    const account = await db
      .insertInto("accounts")
      .values({ parent_id: null, name: "Old Co", email: null, phone: null, external_id: null, created_at: STAMP })
      .returning("id")
      .executeTakeFirstOrThrow();
    const connection = (enabled: string | null, carrier_code: string) => ({
      account_id: account.id,
      carrier_code,
      mode: "test" as const,
      description: null,
      credentials_ciphertext: "sealed",
      enabled_service_ids: enabled,
      created_at: STAMP,
      disconnected_at: null,
    });
    await db
      .insertInto("carrier_accounts")
      .values([connection("[93001,393]", "fed_ex"), connection(null, "usps")])
      .execute();
    const shipment = (service_id: number, service_code: string) => ({
      account_id: account.id,
      mode: "test" as const,
      status: "purchased",
      status_reason: null,
      carrier_code: "x",
      service_id,
      service_code,
      order_id: null,
      account_reference: null,
      to_location: "{}",
      from_location: "{}",
      return_location: null,
      ship_date: "2026-01-05",
      label_format: "pdf",
      label_size: "4x6",
      label_text1: null,
      label_text2: null,
      rate_cents: 1234,
      cost_details: "[]",
      zone: null,
      delivery_days: null,
      delivery_date: null,
      delivery_guaranteed: 0,
      batch_id: null,
      shipped_at: null,
      cancel_requested_at: null,
      created_at: STAMP,
      updated_at: STAMP,
    });
    const shipments = await db
      .insertInto("shipments")
      .values([
        shipment(91002, "usps_priority_express"),
        shipment(92001, "ups_ground"),
        shipment(1172, "usps_ground_advantage"),
        shipment(94006, "dhl_ecommerce_parcel_ground_gde"),
      ])
      .returning("id")
      .execute();
    await db
      .insertInto("parcels")
      .values(
        ["padded_flat_rate_envelope", "parcel"].map((package_type, position) => ({
          shipment_id: shipments[0]!.id,
          position,
          length: 10,
          width: 6,
          height: 1,
          weight: 8,
          package_type,
          name: null,
          status: "purchased",
          tracking_number: null,
          barcode_data: null,
          cost_cents: 0,
          cost_details: "[]",
          parcel_items: "[]",
          customs_data: null,
          service_options: "{}",
          created_at: STAMP,
          updated_at: STAMP,
        })),
      )
      .execute();

    await migrateToLatest(t.db);

    const migrated = await db.selectFrom("shipments").select(["service_id", "service_code"]).orderBy("id").execute();
    expect(migrated).toEqual([
      { service_id: 685, service_code: "usps_express" },
      { service_id: 666, service_code: "ups_ground" },
      { service_id: 1172, service_code: "usps_ground_advantage" },
      { service_id: 94006, service_code: "dhl_parcel_ground_gde" },
    ]);
    const types = await db.selectFrom("parcels").select("package_type").orderBy("position").execute();
    expect(types.map((p) => p.package_type)).toEqual(["flat_rate_padded_envelope", "parcel"]);
    const enabled = await db
      .selectFrom("carrier_accounts")
      .select(["carrier_code", "enabled_service_ids"])
      .orderBy("id")
      .execute();
    expect(enabled).toEqual([
      { carrier_code: "fed_ex", enabled_service_ids: "[392,393]" },
      { carrier_code: "usps", enabled_service_ids: null },
    ]);
  });
});
