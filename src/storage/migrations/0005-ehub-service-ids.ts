/**
 * Services take eHub's own ids, codes and package types instead of the ones Porter had made up.
 * Stored rows follow: a shipment's service id and code, the services a carrier connection enables,
 * and a parcel's package type. The tables below are frozen: they say what the old names meant.
 */
import type { Kysely } from "kysely";

/** Old service id → eHub's id and code (or Porter's own, for services eHub lacks). */
export const EHUB_SERVICE_BY_OLD_ID: Readonly<Record<number, { serviceId: number; serviceCode: string }>> = {
  91001: { serviceId: 684, serviceCode: "usps_priority" },
  91002: { serviceId: 685, serviceCode: "usps_express" },
  91003: { serviceId: 688, serviceCode: "usps_media_mail" },
  91004: { serviceId: 687, serviceCode: "usps_library_mail" },
  91051: { serviceId: 690, serviceCode: "usps_intl_first_class_package" },
  91052: { serviceId: 691, serviceCode: "usps_intl_priority" },
  91053: { serviceId: 692, serviceCode: "usps_intl_express" },
  92001: { serviceId: 666, serviceCode: "ups_ground" },
  92002: { serviceId: 677, serviceCode: "ups_3day_select" },
  92003: { serviceId: 675, serviceCode: "ups_2nd_day" },
  92004: { serviceId: 676, serviceCode: "ups_2nd_day_am" },
  92005: { serviceId: 673, serviceCode: "ups_next_day_saver" },
  92006: { serviceId: 672, serviceCode: "ups_next_day" },
  92007: { serviceId: 674, serviceCode: "ups_next_day_am" },
  92051: { serviceId: 668, serviceCode: "ups_saver" },
  92052: { serviceId: 671, serviceCode: "ups_expedited" },
  92053: { serviceId: 667, serviceCode: "ups_standard" },
  93001: { serviceId: 392, serviceCode: "fedex_ground" },
  93002: { serviceId: 402, serviceCode: "fedex_ground_home" },
  93003: { serviceId: 395, serviceCode: "fedex_express_saver" },
  93004: { serviceId: 394, serviceCode: "fedex_2day_am" },
  93005: { serviceId: 396, serviceCode: "fedex_overnight_standard" },
  93006: { serviceId: 398, serviceCode: "fedex_overnight_priority" },
  93007: { serviceId: 397, serviceCode: "fedex_overnight_1st" },
  93051: { serviceId: 401, serviceCode: "fedex_intl_priority" },
  93052: { serviceId: 399, serviceCode: "fedex_intl_economy" },
  94001: { serviceId: 1043, serviceCode: "dhl_parcel_ground" },
  94002: { serviceId: 1041, serviceCode: "dhl_parcel_expedited" },
  94003: { serviceId: 1042, serviceCode: "dhl_parcel_expedited_max" },
  94004: { serviceId: 1045, serviceCode: "dhl_bpm_ground" },
  94005: { serviceId: 1044, serviceCode: "dhl_bpm_expedited" },
  // eHub has no Global Direct Entry service: the id stays Porter's, the code follows eHub's style.
  94006: { serviceId: 94006, serviceCode: "dhl_parcel_ground_gde" },
  94051: { serviceId: 1046, serviceCode: "dhl_parcel_intl_direct" },
  94052: { serviceId: 1047, serviceCode: "dhl_parcel_intl_standard" },
  94053: { serviceId: 1048, serviceCode: "dhl_packet_intl" },
  95051: { serviceId: 300, serviceCode: "express_worldwide" },
  95052: { serviceId: 294, serviceCode: "express1200" },
  95053: { serviceId: 295, serviceCode: "express900" },
};

/** Old package type → eHub's name for the same packaging. */
export const EHUB_PACKAGE_TYPE_BY_OLD_TYPE: Readonly<Record<string, string>> = {
  legal_flat_rate_envelope: "flat_rate_legal_envelope",
  padded_flat_rate_envelope: "flat_rate_padded_envelope",
  large_flat_rate_box_apo_fpo: "military_flat_rate_box",
  fedex_small_box: "fedex_box_small",
  fedex_medium_box: "fedex_box_medium",
  fedex_large_box: "fedex_box_large",
  fedex_extra_large_box: "fedex_box_extra_large",
  ups_express_box_small: "ups_box_small",
  ups_express_box_medium: "ups_box_medium",
  ups_express_box_large: "ups_box_large",
  dhl_express_envelope: "envelope",
  dhl_flyer: "flyer",
};

/** A stored `enabled_service_ids` list under eHub's ids; ids that kept their number pass through. */
export function ehubEnabledServiceIds(stored: string): string {
  const ids = JSON.parse(stored) as number[];
  return JSON.stringify([...new Set(ids.map((id) => EHUB_SERVICE_BY_OLD_ID[id]?.serviceId ?? id))]);
}

/** The columns this migration touches, as they were when it was written. */
interface TouchedTables {
  shipments: { service_id: number; service_code: string };
  parcels: { package_type: string };
  carrier_accounts: { id: number; enabled_service_ids: string | null };
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<TouchedTables>;
  for (const [oldId, { serviceId, serviceCode }] of Object.entries(EHUB_SERVICE_BY_OLD_ID)) {
    await db
      .updateTable("shipments")
      .set({ service_id: serviceId, service_code: serviceCode })
      .where("service_id", "=", Number(oldId))
      .execute();
  }
  for (const [oldType, newType] of Object.entries(EHUB_PACKAGE_TYPE_BY_OLD_TYPE)) {
    await db.updateTable("parcels").set({ package_type: newType }).where("package_type", "=", oldType).execute();
  }
  const connections = await db
    .selectFrom("carrier_accounts")
    .select(["id", "enabled_service_ids"])
    .where("enabled_service_ids", "is not", null)
    .execute();
  for (const { id, enabled_service_ids } of connections) {
    if (enabled_service_ids === null) continue;
    const mapped = ehubEnabledServiceIds(enabled_service_ids);
    if (mapped !== enabled_service_ids) {
      await db.updateTable("carrier_accounts").set({ enabled_service_ids: mapped }).where("id", "=", id).execute();
    }
  }
}
