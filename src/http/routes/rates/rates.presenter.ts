import type { CostLine, ServiceDefinition } from "../../../carriers/catalogue.js";
import type { RatedService, RateResult } from "../../../domain/rates/get-rates.js";
import {
  bytesOf,
  writeBytes,
  writeDollars,
  writeNullableNumber,
  writeNullableString,
  writeString,
} from "../../json-bytes.js";

/** Integer cents to the decimal dollars of the wire (eHub sends money as plain USD numbers). */
export const dollars = (cents: number): number => cents / 100;

/*
 * A rate answer is written as bytes, straight from the rated services: per service, the keys and
 * the service's own names are bytes made once, and only the prices, days, dates and lines are
 * written per answer. Presenting objects and then `JSON.stringify` and the socket's encoding of
 * the 25 KB text were most of a new question's CPU (docs/performance.md, "Rates with distinct
 * questions"). The keys are in the order real eHub answers them, then Porter's own
 * (`package_type`, `zone`, `billable_weight`, `shipping_cost_details`); the meter is charged the
 * rate, so the meter keys repeat it; `std_rates` has no counterpart in Porter.
 */
const NULL = bytesOf("null");
const TRUE = bytesOf("true");
const FALSE = bytesOf("false");
const EMPTY_LIST = bytesOf("[]");
const OPEN = bytesOf('{"service_rates":[');
const WARNINGS = bytesOf('],"warnings":[');
const CLOSE = bytesOf("]}");
const RATE_DETAILS = bytesOf(',"rate_details":');
const METER_RATE = bytesOf(',"meter_rate":');
const METER_RATE_DETAILS = bytesOf(',"meter_rate_details":');
const RETAIL_RATE = bytesOf(',"retail_rate":');
const ERRORS = bytesOf(',"std_rates":null,"errors":');
const DELIVERY_DAYS = bytesOf(',"delivery_days":');
const MIN_DELIVERY_DAYS = bytesOf(',"min_delivery_days":');
const MAX_DELIVERY_DAYS = bytesOf(',"max_delivery_days":');
const DELIVERY_DATE = bytesOf(',"delivery_date":');
const DELIVERY_GUARANTEED = bytesOf(',"delivery_guaranteed":');
const RATE_CALC_TYPE = bytesOf(',"rate_calc_type":[');
const PRICE_GROUP = bytesOf('],"price_group":');
const PACKAGE_TYPE = bytesOf(',"package_type":');
const ZONE = bytesOf(',"zone":');
const BILLABLE_WEIGHT = bytesOf(',"billable_weight":');
const SHIPPING_COST_DETAILS = bytesOf(',"shipping_cost_details":');
const DETAIL_COST_TYPE = bytesOf('{"cost_type":');
const DETAIL_STD = bytesOf('{"cost_type":"std"');
const DETAIL_DESCRIPTION = bytesOf(',"description":');
const DETAIL_RATE = bytesOf(',"rate":');
const COST_TYPE = bytesOf('{"type":');
const COST_AMOUNT = bytesOf(',"amount":');
const COMMA = 0x2c;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const CLOSE_OBJECT = 0x7d;
/** Room for every key and number of one service (a number takes at most 25 bytes). */
const SERVICE_BYTES = 1024;
/** The same for one cost line, written three times. */
const LINE_BYTES = 3 * 128;

/** `{"service":…,"service_id":…,"service_code":…,"carrier_code":…,"rate":`, once per service. */
const servicePrefixes = new WeakMap<ServiceDefinition, Buffer>();

function servicePrefix(service: ServiceDefinition): Buffer {
  let prefix = servicePrefixes.get(service);
  if (!prefix) {
    prefix = bytesOf(
      `{"service":${JSON.stringify(service.listedName)},"service_id":${JSON.stringify(service.serviceId)},"service_code":${JSON.stringify(service.serviceCode)},"carrier_code":${JSON.stringify(service.carrierCode)},"rate":`,
    );
    servicePrefixes.set(service, prefix);
  }
  return prefix;
}

/** The answer is written here, then copied out at its length; it grows to the longest answer. */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** Makes room for `bytes` more after `at`. */
function room(at: number, bytes: number): void {
  if (at + bytes <= scratch.length) return;
  const grown = Buffer.allocUnsafe(Math.max(2 * scratch.length, at + bytes));
  scratch.copy(grown, 0, 0, at);
  scratch = grown;
}

/** Bytes a string may take as JSON (`\uXXXX` for each UTF-16 unit at worst). */
const stringRoom = (text: string | null | undefined) => (text ? 6 * text.length + 2 : 4);

/** eHub's `rate_details`: the transportation charge is its `std` line, each surcharge a line of its own kind. */
function writeRateDetails(buffer: Buffer, at: number, lines: readonly CostLine[]): number {
  buffer[at++] = OPEN_LIST;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as CostLine;
    if (i > 0) buffer[at++] = COMMA;
    at =
      line.kind === "base"
        ? writeBytes(buffer, at, DETAIL_STD)
        : writeString(buffer, writeBytes(buffer, at, DETAIL_COST_TYPE), line.kind);
    at = writeString(buffer, writeBytes(buffer, at, DETAIL_DESCRIPTION), line.description);
    at = writeDollars(buffer, writeBytes(buffer, at, DETAIL_RATE), line.amountCents);
    buffer[at++] = CLOSE_OBJECT;
  }
  buffer[at++] = CLOSE_LIST;
  return at;
}

function writeCostDetails(buffer: Buffer, at: number, lines: readonly CostLine[]): number {
  buffer[at++] = OPEN_LIST;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as CostLine;
    if (i > 0) buffer[at++] = COMMA;
    at = writeString(buffer, writeBytes(buffer, at, COST_TYPE), line.kind);
    at = writeString(buffer, writeBytes(buffer, at, DETAIL_DESCRIPTION), line.description);
    at = writeDollars(buffer, writeBytes(buffer, at, COST_AMOUNT), line.amountCents);
    buffer[at++] = CLOSE_OBJECT;
  }
  buffer[at++] = CLOSE_LIST;
  return at;
}

/** Room for one service's element. */
function serviceRoom(rated: RatedService, prefix: Buffer): number {
  let bytes = SERVICE_BYTES + prefix.length + stringRoom(rated.refusal) + stringRoom(rated.deliveryDate);
  bytes += stringRoom(rated.priceGroup) + stringRoom(rated.packageType) + stringRoom(rated.zone);
  for (const type of rated.rateCalcTypes) bytes += stringRoom(type) + 1;
  for (const line of rated.quote?.lines ?? [])
    bytes += LINE_BYTES + 3 * (stringRoom(line.kind) + stringRoom(line.description));
  return bytes;
}

/** One `service_rates[]` element. */
function writeServiceRate(buffer: Buffer, at: number, rated: RatedService, prefix: Buffer): number {
  const { service, quote } = rated;
  at = writeBytes(buffer, at, prefix);
  // The rate and its details are written once and copied for the meter's keys.
  const rateStart = at;
  at = quote ? writeDollars(buffer, at, quote.totalCents) : writeBytes(buffer, at, NULL);
  const rateEnd = at;
  at = writeBytes(buffer, at, RATE_DETAILS);
  const detailsStart = at;
  at = quote ? writeRateDetails(buffer, at, quote.lines) : writeBytes(buffer, at, NULL);
  const detailsEnd = at;
  at = writeBytes(buffer, at, METER_RATE);
  at += buffer.copy(buffer, at, rateStart, rateEnd);
  at = writeBytes(buffer, at, METER_RATE_DETAILS);
  at += buffer.copy(buffer, at, detailsStart, detailsEnd);
  at = writeBytes(buffer, at, RETAIL_RATE);
  at =
    quote && rated.retailCents !== undefined
      ? writeDollars(buffer, at, rated.retailCents)
      : writeBytes(buffer, at, NULL);
  at = writeNullableString(buffer, writeBytes(buffer, at, ERRORS), rated.refusal ?? null);
  at = writeNullableNumber(buffer, writeBytes(buffer, at, DELIVERY_DAYS), quote ? rated.deliveryDays : null);
  at = writeNullableNumber(buffer, writeBytes(buffer, at, MIN_DELIVERY_DAYS), quote ? service.transitDays.min : null);
  at = writeNullableNumber(buffer, writeBytes(buffer, at, MAX_DELIVERY_DAYS), quote ? service.transitDays.max : null);
  at = writeNullableString(buffer, writeBytes(buffer, at, DELIVERY_DATE), quote ? rated.deliveryDate : null);
  at = writeBytes(buffer, writeBytes(buffer, at, DELIVERY_GUARANTEED), service.deliveryGuaranteed ? TRUE : FALSE);
  at = writeBytes(buffer, at, RATE_CALC_TYPE);
  for (let i = 0; i < rated.rateCalcTypes.length; i++) {
    if (i > 0) buffer[at++] = COMMA;
    at = writeString(buffer, at, rated.rateCalcTypes[i] as string);
  }
  at = writeNullableString(buffer, writeBytes(buffer, at, PRICE_GROUP), rated.priceGroup);
  at = writeString(buffer, writeBytes(buffer, at, PACKAGE_TYPE), rated.packageType);
  at = writeNullableString(buffer, writeBytes(buffer, at, ZONE), rated.zone);
  at = writeNullableNumber(buffer, writeBytes(buffer, at, BILLABLE_WEIGHT), quote ? quote.billableWeightOz : null);
  at = writeBytes(buffer, at, SHIPPING_COST_DETAILS);
  at = quote ? writeCostDetails(buffer, at, quote.lines) : writeBytes(buffer, at, EMPTY_LIST);
  buffer[at++] = CLOSE_OBJECT;
  return at;
}

/** The body of a `POST /rates` answer (`service_rates` and `warnings`), as UTF-8 JSON. */
export function encodeRateAnswer(result: RateResult): Buffer {
  let at = writeBytes(scratch, 0, OPEN);
  for (let i = 0; i < result.rates.length; i++) {
    const rated = result.rates[i] as RatedService;
    const prefix = servicePrefix(rated.service);
    room(at, serviceRoom(rated, prefix));
    if (i > 0) scratch[at++] = COMMA;
    at = writeServiceRate(scratch, at, rated, prefix);
  }
  room(at, WARNINGS.length + CLOSE.length + result.warnings.reduce((bytes, text) => bytes + stringRoom(text) + 1, 0));
  at = writeBytes(scratch, at, WARNINGS);
  for (let i = 0; i < result.warnings.length; i++) {
    if (i > 0) scratch[at++] = COMMA;
    at = writeString(scratch, at, result.warnings[i] as string);
  }
  at = writeBytes(scratch, at, CLOSE);
  const body = Buffer.allocUnsafe(at);
  scratch.copy(body, 0, 0, at);
  return body;
}

/**
 * The body of a `POST /rates` answer. Identical questions share their answer (see getRates), and
 * an answer asked for again is kept encoded and sent as those bytes from then on; the first time
 * nothing of it is kept: most answers are never asked for twice, and keeping each one's 25 KB
 * until it is collected cost more than writing an answer that is asked for again a second time
 * (docs/performance.md).
 */
const encodedAnswers = new WeakMap<RateResult, Buffer>();
const sentOnce = new WeakSet<RateResult>();

export function rateResponseBody(result: RateResult): Buffer {
  const encoded = encodedAnswers.get(result);
  if (encoded) return encoded;
  const bytes = encodeRateAnswer(result);
  if (sentOnce.has(result)) encodedAnswers.set(result, bytes);
  else sentOnce.add(result);
  return bytes;
}
