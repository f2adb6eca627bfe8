/**
 * USPS zones as USPS defines them: the great-circle air miles between the
 * centroids of the origin and destination ZIP3 areas, cut into the zone 1–8 distance bands, plus
 * zone 9 for the Pacific territories. The centroids are our own derivation from the `zipcodes`
 * package (GeoNames data, CC BY 4.0), not USPS's zone charts.
 */
import { createRequire } from "node:module";
import type zipcodes from "zipcodes";

let zipCodeTable: typeof zipcodes.codes | undefined;

/** Read on first use: the package is one 42,000-entry source file, about a second of a server's start-up to compile. */
function zipCodes(): typeof zipcodes.codes {
  zipCodeTable ??= (createRequire(import.meta.url)("zipcodes") as typeof zipcodes).codes;
  return zipCodeTable;
}

export interface ZipLocation {
  /** The ZIP5, also when a ZIP+4 was looked up. */
  zip: string;
  city: string;
  state: string;
  /** `null` where the data has no coordinates (about 300 APO/FPO/DPO ZIPs). */
  latitude: number | null;
  longitude: number | null;
}

/** A ZIP code that is malformed or unknown, so no zone can be given for it. */
export class ZoneLookupError extends Error {
  override readonly name = "ZoneLookupError";
  /** The postal code exactly as the caller gave it. */
  readonly postalCode: string;

  constructor(postalCode: string, problem: string) {
    super(`${problem}: "${postalCode}"`);
    this.postalCode = postalCode;
  }
}

interface Coordinates {
  latitude: number;
  longitude: number;
}

/** A centroid kept in radians, with the cosine the distance formula needs precomputed. */
interface Centroid {
  latitude: number;
  longitude: number;
  cosLatitude: number;
}

const ZIP = /^(\d{5})(?:-\d{4})?$/;
const EARTH_RADIUS_MILES = 3958.8;

/** Upper bound in whole air miles of zones 1 to 7; anything farther is zone 8. */
const ZONE_UPPER_MILES = [50, 150, 300, 600, 1000, 1400, 1800] as const;

/**
 * ZIP5s zoned as an area of their own rather than with their ZIP3, like USPS's 5-digit zone-chart
 * exceptions. Left in, they would pull Hawaii's 967 and 968 centroids thousands of miles away.
 */
const OWN_AREA_ZIP5S: ReadonlySet<string> = new Set([
  "96799", // American Samoa
  "96898", // Wake Island
]);

/** Areas that are always zone 9, whatever the distance. */
const ZONE_9_AREAS: ReadonlySet<string> = new Set([
  "969", // Guam, Northern Mariana Islands, Palau, Micronesia, Marshall Islands
  "96799", // American Samoa
]);

/**
 * APO/FPO/DPO ZIP3s and the mainland gateway ZIP3 the sandbox zones them through. Their
 * coordinates are overseas bases, or missing, and say nothing about the domestic leg the postage
 * pays for. ⚠ Our choice, not a published USPS rule: AA through Miami, AE through New York (JFK),
 * AP through San Francisco. Puerto Rico, the Virgin Islands, Alaska and Hawaii have real
 * coordinates, so plain distance applies to them.
 */
const MILITARY_GATEWAYS: Readonly<Record<string, string>> = {
  "340": "331", // AA → Miami
  "090": "114", // AE → Jamaica, NY (JFK)
  "091": "114",
  "092": "114",
  "093": "114",
  "094": "114",
  "095": "114",
  "096": "114",
  "097": "114",
  "098": "114",
  "962": "941", // AP → San Francisco
  "963": "941",
  "964": "941",
  "965": "941",
  "966": "941",
};

/** Coordinates that are wrong in the package data and would otherwise skew their ZIP3 centroid. */
const COORDINATE_CORRECTIONS: Readonly<Record<string, Coordinates>> = {
  "10200": { latitude: 40.77, longitude: -73.95 }, // New York, listed with an eastern longitude
};

let areaCentroids: ReadonlyMap<string, Centroid> | undefined;

/** The data marks missing coordinates as 0,0, which is open sea, not a US location. */
function coordinatesOf(record: zipcodes.ZipCodeRecord): Coordinates | null {
  const corrected = COORDINATE_CORRECTIONS[record.zip];
  if (corrected) return corrected;
  if (record.latitude === 0 && record.longitude === 0) return null;
  return { latitude: record.latitude, longitude: record.longitude };
}

function zoneAreaOf(zip5: string): string {
  return OWN_AREA_ZIP5S.has(zip5) ? zip5 : zip5.slice(0, 3);
}

function toCentroid({ latitude, longitude }: Coordinates): Centroid {
  const radians = Math.PI / 180;
  return {
    latitude: latitude * radians,
    longitude: longitude * radians,
    cosLatitude: Math.cos(latitude * radians),
  };
}

/** Mean position of the located ZIP5s of each zone area. No area straddles the 180° meridian, so plain means work. */
function computeAreaCentroids(): ReadonlyMap<string, Centroid> {
  const sums = new Map<string, Coordinates & { count: number }>();
  for (const record of Object.values(zipCodes())) {
    if (record?.country !== "US") continue;
    const position = coordinatesOf(record);
    if (!position) continue;
    const area = zoneAreaOf(record.zip);
    const sum = sums.get(area) ?? { latitude: 0, longitude: 0, count: 0 };
    sum.latitude += position.latitude;
    sum.longitude += position.longitude;
    sum.count += 1;
    sums.set(area, sum);
  }
  const centroids = new Map<string, Centroid>();
  for (const [area, sum] of sums) {
    centroids.set(area, toCentroid({ latitude: sum.latitude / sum.count, longitude: sum.longitude / sum.count }));
  }
  return centroids;
}

/** Built on first use and kept: reading the 42,000 ZIPs once makes every later lookup a map read. */
function centroidsByArea(): ReadonlyMap<string, Centroid> {
  areaCentroids ??= computeAreaCentroids();
  return areaCentroids;
}

/** Haversine distance, in miles. */
function greatCircleMiles(from: Centroid, to: Centroid): number {
  const halfLatitudeSine = Math.sin((to.latitude - from.latitude) / 2);
  const halfLongitudeSine = Math.sin((to.longitude - from.longitude) / 2);
  const a = halfLatitudeSine ** 2 + from.cosLatitude * to.cosLatitude * halfLongitudeSine ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

function distanceZone(miles: number): number {
  const wholeMiles = Math.round(miles);
  const band = ZONE_UPPER_MILES.findIndex((upperMiles) => wholeMiles <= upperMiles);
  return band === -1 ? 8 : band + 1;
}

function zip5Of(zip: string): string | undefined {
  return ZIP.exec(zip)?.[1];
}

function knownZip5(zip: string): string {
  const zip5 = zip5Of(zip);
  if (zip5 === undefined) throw new ZoneLookupError(zip, "malformed ZIP code");
  if (zipCodes()[zip5] === undefined) throw new ZoneLookupError(zip, "unknown ZIP code");
  return zip5;
}

function centroidOf(area: string, zip: string): Centroid {
  const centroid = centroidsByArea().get(MILITARY_GATEWAYS[area] ?? area);
  if (!centroid) throw new ZoneLookupError(zip, "no coordinates for ZIP code");
  return centroid;
}

/** City, state and coordinates of a US ZIP5 or ZIP+4 (`12345-6789`); undefined when malformed or unknown. */
export function lookupZip(zip: string): ZipLocation | undefined {
  const zip5 = zip5Of(zip);
  const record = zip5 === undefined ? undefined : zipCodes()[zip5];
  if (!record) return undefined;
  const position = coordinatesOf(record);
  return {
    zip: record.zip,
    city: record.city,
    state: record.state,
    latitude: position?.latitude ?? null,
    longitude: position?.longitude ?? null,
  };
}

/** USPS zone 1–9 between two ZIP5 or ZIP+4 codes; throws `ZoneLookupError` for a malformed or unknown code. */
export function uspsZone(fromZip: string, toZip: string): number {
  const origin = zoneAreaOf(knownZip5(fromZip));
  const destination = zoneAreaOf(knownZip5(toZip));
  // The same area is USPS's "local" zone, which is priced as zone 1.
  if (origin === destination) return 1;
  if (ZONE_9_AREAS.has(origin) || ZONE_9_AREAS.has(destination)) return 9;
  return distanceZone(greatCircleMiles(centroidOf(origin, fromZip), centroidOf(destination, toZip)));
}

/**
 * Zone for UPS/FedEx-style rate tables, which run from 2 to 8: the USPS distance bands with zone 1
 * folded into 2 and zone 9 into 8. ⚠ Synthetic: the real UPS and FedEx charts (including their
 * separate Alaska, Hawaii and territory zones) were not available.
 */
export function groundZone(fromZip: string, toZip: string): number {
  return Math.min(Math.max(uspsZone(fromZip, toZip), 2), 8);
}

/** The 2-character zone the USPS APIs return, e.g. `"01"`. */
export function formatZone(zone: number): string {
  if (!Number.isInteger(zone) || zone < 1 || zone > 9) throw new RangeError(`${zone} is not a USPS zone (1–9)`);
  return String(zone).padStart(2, "0");
}
