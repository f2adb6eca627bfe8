/**
 * DHL Express products and packaging. Sources: MyDHL API global product codes (in the comments)
 * and DHL packaging presets as mirrored by karrio's `dhl_express/units.py`
 * (https://github.com/karrioapi/karrio), time-definite products per
 * https://www.dhl.com/us-en/home/express/shipping-and-stuff/services.html. ⚠ The limits (70 kg,
 * 120 × 80 × 80 cm per piece) are karrio's
 * configuration, not confirmed from DHL.
 *
 * DHL Express carries no U.S. domestic shipments, so every service is international (its domestic
 * products carry shipments within one other country). Service ids, codes and names are eHub's (its
 * `GET /services`), the whole of its DHL Express catalogue: the 281–312 series answers rates; each
 * product's non-document listing and its 924–927 listing are accepted as other listings. The
 * product code each service ships as is in api/dhl-express-products.ts.
 */
import { listing, type PackageTypeDefinition, type ServiceDefinition, type ServiceListing } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;

/** Envelopes and flyers flex, so they carry weight caps (0.5, 2 and 3 kg, in ounces) but no fixed dimensions. */
const DHL_EXPRESS_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "envelope", name: "DHL Express Envelope", listedName: "Envelope", maxWeightOz: 17.6 },
  { type: "flyer", name: "DHL Standard Flyer", listedName: "DHLFlyer", maxWeightOz: 70.5 },
  { type: "dhl_large_flyer", name: "DHL Large Flyer", maxWeightOz: 105.8 },
];

const DHL_EXPRESS_DEFAULTS = {
  carrierCode: "dhl_express",
  category: "shipping",
  scope: "international",
  sortOrder: null,
  // 70 kg, 120 cm and a 120 × 80 × 80 cm piece, rounded down to U.S. units.
  maxWeightOz: 154 * POUND,
  maxLengthIn: 47,
  maxLengthPlusGirthIn: 173,
  addressKind: "any",
  deliveryGuaranteed: true,
  multiParcel: true,
} as const;

/** One DHL Express product under eHub's id, code and name; `others` are its twin listings. */
function product(
  serviceId: number,
  serviceCode: string,
  listedName: string,
  name: string,
  transitDays: { min: number; max: number },
  others: readonly ServiceListing[] = [],
): ServiceDefinition {
  return {
    ...DHL_EXPRESS_DEFAULTS,
    serviceId,
    serviceCode,
    listedName,
    name,
    otherListings: others,
    packageTypes: DHL_EXPRESS_PACKAGE_TYPES,
    transitDays,
  };
}

// Transit days are ⚠ by lane; the time-definite products deliver by their hour on the same days.
const WORLDWIDE_DAYS = { min: 1, max: 4 };
const ECONOMY_DAYS = { min: 3, max: 8 };
const DOMESTIC_DAYS = { min: 1, max: 2 };

export const DHL_EXPRESS_SERVICES: readonly ServiceDefinition[] = [
  product(300, "express_worldwide", "ExpressWorldwide", "DHL Express Worldwide", WORLDWIDE_DAYS, [
    listing(304, "express_worldwide_non_doc", "ExpressWorldwideNonDoc"),
    listing(924, "dhl_express", "DHL Worldwide Priority Express"),
  ]),
  product(294, "express1200", "Express1200", "DHL Express 12:00", { min: 1, max: 3 }, [
    listing(293, "express1200_non_doc", "Express1200NonDoc"),
    listing(926, "express1200", "DHL Express 12:00"),
  ]),
  product(295, "express900", "Express900", "DHL Express 9:00", { min: 1, max: 3 }, [
    listing(296, "express900_non_doc", "Express900NonDoc"),
    listing(925, "express900", "DHL Express 9:00"),
  ]),
  product(291, "express1030", "Express1030", "DHL Express 10:30", { min: 1, max: 3 }, [
    listing(292, "express1030_non_doc", "Express1030NonDoc"),
  ]),
  product(287, "economy_select", "EconomySelect", "DHL Economy Select", ECONOMY_DAYS, [
    listing(288, "economy_select_non_doc", "EconomySelectNonDoc"),
  ]),
  product(301, "express_worldwide_b2_c", "ExpressWorldwideB2C", "DHL Express Worldwide B2C", WORLDWIDE_DAYS, [
    listing(302, "express_worldwide_b2_c_non_doc", "ExpressWorldwideB2CNonDoc"),
  ]),
  product(303, "express_worldwide_ecx", "ExpressWorldwideECX", "DHL Express Worldwide (EU)", WORLDWIDE_DAYS),
  product(297, "express_easy", "ExpressEasy", "DHL Express Easy", WORLDWIDE_DAYS, [
    listing(298, "express_easy_non_doc", "ExpressEasyNonDoc"),
  ]),
  product(299, "express_envelope", "ExpressEnvelope", "DHL Express Envelope", WORLDWIDE_DAYS, [
    listing(927, "express_envelope", "DHL Express Envelope"),
  ]),
  product(289, "euro_pack", "EuroPack", "DHL Europack", ECONOMY_DAYS, [
    listing(290, "europack_non_doc", "EuropackNonDoc"),
  ]),
  product(281, "break_bulk_economy", "BreakBulkEconomy", "DHL Break Bulk Economy", ECONOMY_DAYS),
  product(282, "break_bulk_express", "BreakBulkExpress", "DHL Break Bulk Express", WORLDWIDE_DAYS),
  product(305, "freight_worldwide", "FreightWorldwide", "DHL Freight Worldwide", ECONOMY_DAYS),
  product(308, "jumbo_box", "JumboBox", "DHL Jumbo Box", ECONOMY_DAYS),
  product(306, "globalmail_business", "GlobalmailBusiness", "DHL GlobalMail Business", { min: 5, max: 12 }),
  product(283, "domestic_economy_select", "DomesticEconomySelect", "DHL Domestic Economy Select", { min: 2, max: 4 }),
  product(284, "domestic_express", "DomesticExpress", "DHL Domestic Express", DOMESTIC_DAYS),
  product(285, "domestic_express1030", "DomesticExpress1030", "DHL Domestic Express 10:30", DOMESTIC_DAYS),
  product(286, "domestic_express1200", "DomesticExpress1200", "DHL Domestic Express 12:00", DOMESTIC_DAYS),
  product(307, "jet_line", "JetLine", "DHL Jetline", DOMESTIC_DAYS),
  product(312, "sprint_line", "SprintLine", "DHL Sprintline", DOMESTIC_DAYS),
  product(311, "secure_line", "SecureLine", "DHL Secureline", DOMESTIC_DAYS),
  product(309, "logistics_services", "LogisticsServices", "DHL Logistics Services", ECONOMY_DAYS),
];
