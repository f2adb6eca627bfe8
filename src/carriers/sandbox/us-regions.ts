/**
 * The US cut into the regions carriers' networks are organised by, so a simulated parcel passes
 * through the hubs that serve its origin and destination. Centroids are rough (degrees), used only
 * to find which region lies between two others; time zones give events their local hour.
 */
export const US_REGIONS = {
  new_england: { states: ["CT", "MA", "ME", "NH", "RI", "VT"], centroid: [42.4, -71.6] },
  northeast: { states: ["NY", "NJ", "PA", "DE"], centroid: [40.8, -75.5] },
  mid_atlantic: { states: ["DC", "MD", "VA", "WV", "NC", "SC"], centroid: [37.2, -78.6] },
  southeast: { states: ["GA", "FL", "AL", "MS", "TN"], centroid: [32.5, -84.8] },
  great_lakes: { states: ["MI", "OH", "IN", "KY"], centroid: [40.5, -84.6] },
  upper_midwest: { states: ["MN", "WI", "IA", "ND", "SD"], centroid: [44.8, -93.8] },
  central: { states: ["IL", "MO", "KS", "NE"], centroid: [39.6, -93.0] },
  south_central: { states: ["TX", "OK", "AR", "LA"], centroid: [32.2, -95.6] },
  mountain: { states: ["CO", "UT", "AZ", "NM", "NV", "ID", "WY", "MT"], centroid: [40.0, -109.5] },
  pacific: { states: ["CA", "OR", "WA"], centroid: [39.5, -121.5] },
  alaska: { states: ["AK"], centroid: [61.2, -149.9] },
  hawaii_pacific: { states: ["HI", "GU", "AS", "MP", "FM", "MH", "PW"], centroid: [21.3, -157.9] },
  caribbean: { states: ["PR", "VI"], centroid: [18.4, -66.1] },
} as const satisfies Record<string, { states: readonly string[]; centroid: readonly [number, number] }>;
export type UsRegion = keyof typeof US_REGIONS;

const regionOfState = new Map<string, UsRegion>(
  (Object.entries(US_REGIONS) as [UsRegion, { states: readonly string[] }][]).flatMap(([region, { states }]) =>
    states.map((state) => [state, region] as const),
  ),
);

/** The region of a US state or territory code; military (AA/AE/AP) and unknown codes go to `central`. */
export function regionOf(state: string): UsRegion {
  return regionOfState.get(state.toUpperCase()) ?? "central";
}

const CENTRAL_STATES = new Set([
  "IL",
  "MO",
  "KS",
  "NE",
  "MN",
  "WI",
  "IA",
  "ND",
  "SD",
  "TX",
  "OK",
  "AR",
  "LA",
  "AL",
  "MS",
  "TN",
]);
const MOUNTAIN_STATES = new Set(["CO", "UT", "NM", "WY", "MT", "ID"]);
const PACIFIC_STATES = new Set(["CA", "OR", "WA", "NV"]);
const OWN_ZONES: Record<string, string> = {
  AZ: "America/Phoenix",
  AK: "America/Anchorage",
  HI: "Pacific/Honolulu",
  PR: "America/Puerto_Rico",
  VI: "America/St_Thomas",
  GU: "Pacific/Guam",
  MP: "Pacific/Saipan",
  AS: "Pacific/Pago_Pago",
};

/** The IANA time zone most of a state keeps (carriers stamp events in local time). */
export function stateTimeZone(state: string): string {
  const code = state.toUpperCase();
  if (OWN_ZONES[code]) return OWN_ZONES[code];
  if (CENTRAL_STATES.has(code)) return "America/Chicago";
  if (MOUNTAIN_STATES.has(code)) return "America/Denver";
  if (PACIFIC_STATES.has(code)) return "America/Los_Angeles";
  return "America/New_York";
}

/** The region lying nearest the middle of two others, when they are far enough apart to need one. */
export function regionBetween(from: UsRegion, to: UsRegion): UsRegion | undefined {
  const [lat1, lon1] = US_REGIONS[from].centroid;
  const [lat2, lon2] = US_REGIONS[to].centroid;
  // Roughly 1,200 miles: lanes shorter than that run hub to hub without a stop between.
  if (Math.hypot(lat2 - lat1, (lon2 - lon1) * 0.8) < 18) return undefined;
  const middle = [(lat1 + lat2) / 2, (lon1 + lon2) / 2] as const;
  let best: UsRegion | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [region, { centroid }] of Object.entries(US_REGIONS) as [UsRegion, { centroid: readonly number[] }][]) {
    if (region === from || region === to || ["alaska", "hawaii_pacific", "caribbean"].includes(region)) continue;
    const distance = Math.hypot((centroid[0] as number) - middle[0], ((centroid[1] as number) - middle[1]) * 0.8);
    if (distance < bestDistance) {
      best = region;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The city where the carriers sort a state's parcels (the USPS processing and distribution center
 * city; the big carriers have hubs in or near the same cities). California and Texas have two.
 */
const SORTING_CITIES: Record<string, string> = {
  AL: "BIRMINGHAM",
  AK: "ANCHORAGE",
  AZ: "PHOENIX",
  AR: "LITTLE ROCK",
  CA: "LOS ANGELES",
  CO: "DENVER",
  CT: "HARTFORD",
  DE: "WILMINGTON",
  DC: "WASHINGTON",
  FL: "ORLANDO",
  GA: "ATLANTA",
  HI: "HONOLULU",
  ID: "BOISE",
  IL: "CHICAGO",
  IN: "INDIANAPOLIS",
  IA: "DES MOINES",
  KS: "KANSAS CITY",
  KY: "LOUISVILLE",
  LA: "NEW ORLEANS",
  ME: "PORTLAND",
  MD: "BALTIMORE",
  MA: "BOSTON",
  MI: "DETROIT",
  MN: "MINNEAPOLIS",
  MS: "JACKSON",
  MO: "SAINT LOUIS",
  MT: "BILLINGS",
  NE: "OMAHA",
  NV: "LAS VEGAS",
  NH: "MANCHESTER",
  NJ: "NEWARK",
  NM: "ALBUQUERQUE",
  NY: "NEW YORK",
  NC: "RALEIGH",
  ND: "FARGO",
  OH: "COLUMBUS",
  OK: "OKLAHOMA CITY",
  OR: "PORTLAND",
  PA: "PHILADELPHIA",
  RI: "PROVIDENCE",
  SC: "COLUMBIA",
  SD: "SIOUX FALLS",
  TN: "NASHVILLE",
  TX: "DALLAS",
  UT: "SALT LAKE CITY",
  VT: "WHITE RIVER JUNCTION",
  VA: "RICHMOND",
  WA: "SEATTLE",
  WV: "CHARLESTON",
  WI: "MILWAUKEE",
  WY: "CHEYENNE",
  PR: "SAN JUAN",
  VI: "SAINT THOMAS",
  GU: "BARRIGADA",
};

/** The sorting city of a state and ZIP (northern California and southern Texas sort elsewhere). */
export function sortingCity(state: string, postalCode: string): { city: string; state: string } {
  const code = state.toUpperCase();
  const zip3 = Number(postalCode.slice(0, 3));
  if (code === "CA" && zip3 >= 936) return { city: "SAN FRANCISCO", state: "CA" };
  if (code === "TX" && zip3 >= 770) return { city: zip3 >= 780 ? "SAN ANTONIO" : "HOUSTON", state: "TX" };
  const city = SORTING_CITIES[code];
  return city ? { city, state: code } : { city: "CHICAGO", state: "IL" };
}
