import type { CarrierAddress, TrackingLocation, TrackingStatus } from "../carrier.js";
import type { CarrierCode, ServiceDefinition } from "../catalogue.js";
import { addDays } from "./carrier-calendar.js";
import { countDeliveryDays, isCarrierWorkday, localDay, localInstant } from "./local-time.js";
import { type SeededRandom, seededRandom } from "./seeded-random.js";
import { isUsDomestic } from "./us-domestic.js";
import { regionBetween, regionOf, sortingCity, stateTimeZone, type UsRegion } from "./us-regions.js";

/** What happens to a parcel, in words every carrier has its own codes for. */
export const MILESTONES = [
  "label_created",
  "partner_picked_up",
  "partner_arrived",
  "partner_departed",
  "accepted",
  "departed_origin",
  "arrived_facility",
  "departed_facility",
  "in_transit",
  "customs_cleared",
  "arrived_delivery_unit",
  "missort",
  "out_for_delivery",
  "delivery_attempted",
  "available_for_pickup",
  "delivered",
  "picked_up",
  "return_to_sender",
] as const;
export type Milestone = (typeof MILESTONES)[number];

/** Milestones a carrier may not have: partner legs, USPS's "departed post office", transit notes. */
type OptionalMilestone =
  | "partner_picked_up"
  | "partner_arrived"
  | "partner_departed"
  | "departed_origin"
  | "in_transit"
  | "customs_cleared";

export interface CarrierEventWords {
  code: string;
  secondaryCode: string | null;
  description: string;
  status: TrackingStatus;
}

/** A sorting facility, hub or gateway where a carrier scans parcels. */
export interface Facility extends TrackingLocation {
  timeZone: string;
}

/** Where a carrier's parcels pass: real facility cities, chosen by the origin's and destination's region. */
export interface CarrierNetwork {
  /** The facility sorting a state's parcels (a USPS P&DC; a UPS or FedEx hub near it). */
  stateFacility(state: string, postalCode: string): Facility;
  /** The facility linking a region to the rest of the network (a USPS NDC, a UPS or FedEx regional hub). */
  regionHub(region: UsRegion): Facility;
  /** The hub air services fly through, for carriers that have one. */
  airHub: Facility | null;
  /** Where parcels leave the US for abroad. */
  exportGateway(region: UsRegion): Facility;
  /** A carrier that carries the parcel itself and hands it to USPS near the destination. */
  handoff?: (state: string, postalCode: string) => Facility;
}

/** One carrier's tracking words and network. */
export interface TrackingVocabulary {
  events: Record<Exclude<Milestone, OptionalMilestone>, CarrierEventWords> &
    Partial<Record<OptionalMilestone, CarrierEventWords>>;
  network: CarrierNetwork;
}

/** How a journey ends; most are simply delivered. */
export const OUTCOMES = [
  "delivered",
  "attempted_then_delivered",
  "held_for_pickup",
  "returned",
  "exception_then_delivered",
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export function isOutcome(value: string): value is Outcome {
  return (OUTCOMES as readonly string[]).includes(value);
}

/**
 * Shares of each ending, near what national networks report: about one parcel in twenty-five
 * needs a second attempt or is held for pickup, one in fifty is missorted or damaged on the way,
 * one or two in a hundred go back to the sender.
 */
const OUTCOME_SHARES: readonly [Outcome, number][] = [
  ["attempted_then_delivered", 0.03],
  ["held_for_pickup", 0.025],
  ["returned", 0.012],
  ["exception_then_delivered", 0.02],
];

export interface TimelineInput {
  carrier: CarrierCode;
  service: ServiceDefinition;
  trackingNumber: string;
  from: CarrierAddress;
  to: CarrierAddress;
  labelCreatedAt: Date;
  /** The label's ship date (YYYY-MM-DD); the carrier does not take the parcel before it. */
  shipDate: string;
  /** A manifest's acceptance time, when the parcel was on one. */
  acceptedAt?: Date;
  /** The earliest acceptance when the carrier waits for the label's close-out. */
  acceptedNotBefore?: Date;
  /** Forces the ending (the sandbox's advance control); otherwise drawn from the shares. */
  outcome?: Outcome | null;
}

export interface PlannedEvent extends TrackingLocation {
  milestone: Milestone;
  at: Date;
}

export interface Timeline {
  events: PlannedEvent[];
  outcome: Outcome;
  /** The day the carrier expects to deliver (before any attempt or missort). */
  expectedDeliveryDate: string;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Main international arrival gateways, by destination country; elsewhere the destination city. */
const IMPORT_GATEWAYS: Record<string, [string, string | null, string]> = {
  CA: ["TORONTO", "ON", "America/Toronto"],
  MX: ["MEXICO CITY", "CMX", "America/Mexico_City"],
  GB: ["LONDON", null, "Europe/London"],
  DE: ["FRANKFURT", null, "Europe/Berlin"],
  FR: ["PARIS", null, "Europe/Paris"],
  AU: ["SYDNEY", "NSW", "Australia/Sydney"],
  JP: ["TOKYO", null, "Asia/Tokyo"],
  CN: ["SHANGHAI", null, "Asia/Shanghai"],
};

const COUNTRY_ZONES: Record<string, string> = {
  CA: "America/Toronto",
  MX: "America/Mexico_City",
  GB: "Europe/London",
  IE: "Europe/Dublin",
  AU: "Australia/Sydney",
  JP: "Asia/Tokyo",
  CN: "Asia/Shanghai",
  BR: "America/Sao_Paulo",
  IN: "Asia/Kolkata",
};

function zoneOf(address: CarrierAddress): string {
  const country = address.country.toUpperCase();
  if (isUsDomestic(country)) return stateTimeZone(country === "US" ? address.state : country);
  return COUNTRY_ZONES[country] ?? "Europe/Paris";
}

function placeOf(address: CarrierAddress): TrackingLocation {
  return {
    city: address.city.toUpperCase(),
    state: address.state || null,
    postalCode: address.postal_code.slice(0, 5),
    country: address.country.toUpperCase(),
  };
}

function drawOutcome(random: SeededRandom): Outcome {
  let roll = random.next();
  for (const [outcome, share] of OUTCOME_SHARES) {
    if (roll < share) return outcome;
    roll -= share;
  }
  return "delivered";
}

/** The next day the carrier works, from `day` on. */
function workdayFrom(day: string, carrier: CarrierCode): string {
  let date = day;
  while (!isCarrierWorkday(date, carrier)) date = addDays(date, 1);
  return date;
}

/** The facilities a parcel passes between its origin and its destination (or the export gateway). */
function routeFacilities(network: CarrierNetwork, input: TimelineInput, express: boolean): Facility[] {
  const fromState = input.from.state;
  const origin = network.stateFacility(fromState, input.from.postal_code);
  const fromRegion = regionOf(fromState);
  if (!isUsDomestic(input.to.country)) return dedupe([origin, network.exportGateway(fromRegion)]);
  const toRegion = regionOf(input.to.country.toUpperCase() === "US" ? input.to.state : input.to.country);
  const destination = network.stateFacility(
    input.to.country.toUpperCase() === "US" ? input.to.state : input.to.country,
    input.to.postal_code,
  );
  if (fromRegion === toRegion) return dedupe([origin, destination]);
  const middle = express ? network.airHub : regionBetween(fromRegion, toRegion);
  const hubs = [
    network.regionHub(fromRegion),
    ...(middle === undefined || middle === null
      ? []
      : [typeof middle === "string" ? network.regionHub(middle) : middle]),
    network.regionHub(toRegion),
  ];
  return dedupe([origin, ...hubs, destination]);
}

/** A partner's own hubs between the origin's region and the destination's. */
function partnerFacilities(network: CarrierNetwork, input: TimelineInput): Facility[] {
  const fromRegion = regionOf(input.from.state);
  const toRegion = regionOf(input.to.state);
  const middle = regionBetween(fromRegion, toRegion);
  return dedupe([
    network.regionHub(fromRegion),
    ...(middle ? [network.regionHub(middle)] : []),
    network.regionHub(toRegion),
  ]);
}

function dedupe(facilities: Facility[]): Facility[] {
  return facilities.filter((f, i) => i === 0 || f.city !== facilities[i - 1]?.city);
}

/**
 * A parcel's whole journey, planned at once and the same every time for the same tracking number:
 * label data, acceptance (at the manifest's time when there was one, else the ship date's
 * afternoon), the facilities of its lane, arrival at the delivery unit on a day within the
 * service's delivery standard, then the ending. Times are local working hours at each place.
 */
export function planTimeline(input: TimelineInput, vocabulary: TrackingVocabulary): Timeline {
  const random = seededRandom(`${input.carrier}|${input.trackingNumber}`);
  const outcome = input.outcome ?? drawOutcome(random);
  const { network } = vocabulary;
  const originZone = zoneOf(input.from);
  const destinationZone = zoneOf(input.to);
  const origin = placeOf(input.from);
  const destination = placeOf(input.to);
  const events: PlannedEvent[] = [];
  const add = (milestone: Milestone, at: Date, place: TrackingLocation) => {
    if (vocabulary.events[milestone] === undefined) return;
    events.push({
      milestone,
      at,
      city: place.city,
      state: place.state,
      postalCode: place.postalCode,
      country: place.country,
    });
  };
  const at = (day: string, fromMinute: number, toMinute: number, zone: string) =>
    localInstant(day, random.between(fromMinute, toMinute), zone);

  add("label_created", input.labelCreatedAt, origin);

  // Acceptance: the manifest's time, or the first afternoon pickup on or after the ship date that
  // comes at least an hour after the label (and after its close-out, for a carrier that waits for
  // one). GDE parcels reach USPS after the partner's own leg.
  const domestic = isUsDomestic(input.to.country);
  const partnerLeg = domestic && network.handoff !== undefined && input.service.gde !== true;
  const injected = domestic && (input.service.gde === true || partnerLeg);
  let accepted: Date;
  if (input.acceptedAt) {
    accepted = input.acceptedAt;
  } else {
    const earliest = Math.max(input.labelCreatedAt.getTime() + HOUR, input.acceptedNotBefore?.getTime() ?? 0);
    const labelDay = localDay(new Date(earliest), originZone);
    // The later of two YYYY-MM-DD days.
    let day = workdayFrom([input.shipDate, labelDay].sort()[1] as string, input.carrier);
    accepted = at(day, 14 * 60, 18 * 60 + 30, originZone);
    while (accepted.getTime() < earliest) {
      day = workdayFrom(addDays(day, 1), input.carrier);
      accepted = at(day, 14 * 60, 18 * 60 + 30, originZone);
    }
  }
  const acceptedDay = localDay(accepted, originZone);
  const { min, max } = input.service.transitDays;
  const transitDays = random.between(min, max);
  let deliveryDay = countDeliveryDays(acceptedDay, Math.max(1, transitDays), input.carrier);
  const express = max <= 2;
  let unitArrival = at(deliveryDay, 5 * 60, 7 * 60 + 30, destinationZone);
  // A parcel accepted late (a late manifest) still needs its night on the road.
  while (unitArrival.getTime() < accepted.getTime() + 8 * HOUR) {
    deliveryDay = workdayFrom(addDays(deliveryDay, 1), input.carrier);
    unitArrival = at(deliveryDay, 5 * 60, 7 * 60 + 30, destinationZone);
  }

  let stops: Facility[];
  let cursor: Date;
  if (injected) {
    // The partner carries the parcel to a hub near the destination and hands it to USPS there.
    const handoff = (network.handoff ?? network.stateFacility)(input.to.state, input.to.postal_code);
    const partnerHubs = partnerLeg ? partnerFacilities(network, input) : [];
    if (partnerLeg) add("partner_picked_up", accepted, origin);
    cursor = accepted;
    const partnerSpan = (unitArrival.getTime() - accepted.getTime()) * 0.6;
    for (const [index, hub] of partnerHubs.entries()) {
      const arrival = new Date(accepted.getTime() + (partnerSpan * (index + 0.5)) / (partnerHubs.length + 0.5));
      add("partner_arrived", arrival, hub);
      add("partner_departed", new Date(arrival.getTime() + random.between(3, 7) * HOUR), hub);
      cursor = arrival;
    }
    const inducted = new Date(
      Math.max(cursor.getTime() + 10 * HOUR, unitArrival.getTime() - random.between(10, 16) * HOUR),
    );
    add("accepted", inducted, handoff);
    stops = [];
    cursor = inducted;
  } else {
    add("accepted", accepted, origin);
    add("departed_origin", new Date(accepted.getTime() + random.between(60, 150) * MINUTE), origin);
    stops = routeFacilities(network, input, express);
    cursor = new Date(accepted.getTime() + random.between(3, 5) * HOUR);
  }

  const gateway = IMPORT_GATEWAYS[input.to.country.toUpperCase()];
  const abroad: Facility | undefined = !domestic
    ? gateway
      ? {
          city: gateway[0],
          state: gateway[1],
          postalCode: null,
          country: input.to.country.toUpperCase(),
          timeZone: gateway[2],
        }
      : { ...destination, postalCode: null, timeZone: destinationZone }
    : undefined;
  const allStops = abroad ? [...stops, abroad] : stops;
  const lastDeparture = unitArrival.getTime() - random.between(90, 180) * MINUTE;
  const slot = allStops.length > 0 ? Math.max(0, lastDeparture - cursor.getTime()) / allStops.length : 0;
  for (const [index, stop] of allStops.entries()) {
    const arrival = new Date(cursor.getTime() + index * slot + random.between(0, Math.floor(slot * 0.2)));
    add("arrived_facility", arrival, stop);
    if (stop === abroad) add("customs_cleared", new Date(arrival.getTime() + random.between(2, 6) * HOUR), stop);
    const stay = Math.min(slot * 0.4, random.between(2, 7) * HOUR);
    const departure = new Date(arrival.getTime() + Math.max(stay, stop === abroad ? 7 * HOUR : HOUR));
    add("departed_facility", departure, stop);
    // Long hauls between facilities show the carrier's "in transit to next facility" notes.
    const next = index + 1 < allStops.length ? arrival.getTime() + slot : lastDeparture;
    for (let note = departure.getTime() + 14 * HOUR; note < next - 6 * HOUR; note += random.between(14, 20) * HOUR) {
      add("in_transit", new Date(note), { city: null, state: null, postalCode: null, country: stop.country });
    }
  }

  addEnding(outcome, deliveryDay, unitArrival, { add, at, random, input, destination, destinationZone, network });
  // Whole seconds, each event strictly after the one before, whatever the draws did.
  for (const [i, event] of events.entries()) {
    event.at = new Date(Math.floor(event.at.getTime() / 1000) * 1000);
    const previous = i > 0 ? (events[i - 1] as PlannedEvent).at.getTime() : 0;
    if (event.at.getTime() <= previous) event.at = new Date(previous + random.between(5, 25) * MINUTE);
  }
  return { events, outcome, expectedDeliveryDate: deliveryDay };
}

interface EndingContext {
  add(milestone: Milestone, at: Date, place: TrackingLocation): void;
  at(day: string, fromMinute: number, toMinute: number, zone: string): Date;
  random: SeededRandom;
  input: TimelineInput;
  destination: TrackingLocation;
  destinationZone: string;
  network: CarrierNetwork;
}

/** From the delivery unit on: delivered, or the attempt, pickup, return or missort on the way. */
function addEnding(outcome: Outcome, day: string, unitArrival: Date, context: EndingContext): void {
  const { add, at, input, destination, destinationZone: zone } = context;
  const nextDay = (after: string, days = 1) => {
    let date = after;
    for (let i = 0; i < days; i++) date = workdayFrom(addDays(date, 1), input.carrier);
    return date;
  };
  add("arrived_delivery_unit", unitArrival, destination);
  if (outcome === "exception_then_delivered") {
    add("missort", new Date(unitArrival.getTime() + context.random.between(30, 90) * MINUTE), destination);
    const facility = isUsDomestic(input.to.country)
      ? context.network.stateFacility(input.to.state, input.to.postal_code)
      : { ...destination, timeZone: zone };
    add("arrived_facility", at(day, 20 * 60, 23 * 60, zone), facility);
    const retry = nextDay(day);
    add("arrived_delivery_unit", at(retry, 5 * 60, 6 * 60 + 45, zone), destination);
    add("out_for_delivery", at(retry, 7 * 60, 9 * 60, zone), destination);
    add("delivered", at(retry, 10 * 60 + 30, 18 * 60, zone), destination);
    return;
  }
  add("out_for_delivery", at(day, 7 * 60 + 30, 9 * 60 + 30, zone), destination);
  if (outcome === "delivered") {
    add("delivered", at(day, 10 * 60 + 30, 18 * 60 + 30, zone), destination);
    return;
  }
  add("delivery_attempted", at(day, 11 * 60, 17 * 60, zone), destination);
  if (outcome === "attempted_then_delivered") {
    const retry = nextDay(day);
    add("out_for_delivery", at(retry, 7 * 60 + 30, 9 * 60 + 30, zone), destination);
    add("delivered", at(retry, 10 * 60 + 30, 18 * 60, zone), destination);
    return;
  }
  add("available_for_pickup", at(day, 17 * 60 + 15, 19 * 60, zone), destination);
  if (outcome === "held_for_pickup") {
    add("picked_up", at(nextDay(day, 2), 10 * 60, 18 * 60, zone), destination);
    return;
  }
  // Unclaimed: carriers hold a parcel about two weeks before sending it back.
  add("return_to_sender", at(nextDay(day, 12), 9 * 60, 12 * 60, zone), destination);
}

/** A US facility by name, city and state, on that state's clock. */
export function usFacility(city: string, state: string): Facility {
  return { city, state, postalCode: null, country: "US", timeZone: stateTimeZone(state) };
}

/** The sorting city of a state's parcels, as a facility named by its city. */
export function sortingFacility(state: string, postalCode: string): Facility {
  const sorting = sortingCity(state, postalCode);
  return usFacility(sorting.city, sorting.state);
}

const WESTERN_REGIONS: readonly UsRegion[] = ["pacific", "mountain", "alaska", "hawaii_pacific"];

/**
 * The network of a carrier with its own hubs (UPS, FedEx): sorting in the state's city, a hub per
 * region, one air hub, and abroad through the air hub or, from the West, a western gateway.
 */
export function hubNetwork(
  hubs: Record<UsRegion, readonly [string, string]>,
  airHub: readonly [string, string],
  westernGateway: readonly [string, string],
): CarrierNetwork {
  return {
    stateFacility: sortingFacility,
    regionHub: (region) => usFacility(...hubs[region]),
    airHub: usFacility(...airHub),
    exportGateway: (region) => usFacility(...(WESTERN_REGIONS.includes(region) ? westernGateway : airHub)),
  };
}
