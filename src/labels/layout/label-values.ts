/** How the values of a label request read on paper: addresses, weights, dates, grouped numbers. */
import type { LabelAddress } from "../label.js";
import { countryName } from "./country-codes.js";

export interface AddressLineOptions {
  uppercase: boolean;
  phone: boolean;
}

/**
 * Name, company, street lines, "CITY ST ZIP", the country's name in capitals when it is not the
 * US (`CANADA`, as carriers and the UPU want the last line), the phone.
 */
export function addressLines(address: LabelAddress, options: AddressLineOptions): string[] {
  const cityLine = [address.city, address.state, address.postalCode].filter((part) => part.length > 0).join(" ");
  const lines = [address.name, address.company, address.address1, address.address2, address.address3, cityLine];
  const present = lines.filter((line): line is string => typeof line === "string" && line.trim().length > 0);
  const cased = options.uppercase ? present.map((line) => line.toUpperCase()) : present;
  if (address.country.trim().toUpperCase() !== "US") cased.push(countryName(address.country));
  if (options.phone && address.phone) cased.push(options.uppercase ? address.phone.toUpperCase() : address.phone);
  return cased;
}

/** `9400111206206406260787` → `9400 1112 0620 6406 2607 87`. */
export function groupCharacters(value: string, groupSize: number): string {
  return value.match(new RegExp(`.{1,${groupSize}}`, "g"))?.join(" ") ?? value;
}

/** UPS prints the 1Z number as `1Z 999 AA1 01 2345 6784`. */
export function upsTrackingGroups(trackingNumber: string): string {
  if (!/^1Z[0-9A-Z]{16}$/.test(trackingNumber)) return groupCharacters(trackingNumber, 4);
  const n = trackingNumber;
  return [n.slice(0, 2), n.slice(2, 5), n.slice(5, 8), n.slice(8, 10), n.slice(10, 14), n.slice(14)].join(" ");
}

/** `35` oz → `2 LB 3 OZ`. */
export function poundsAndOunces(weightOz: number): string {
  const ounces = Math.ceil(weightOz * 10) / 10;
  const pounds = Math.floor(ounces / 16);
  const rest = Math.round((ounces - pounds * 16) * 10) / 10;
  if (pounds === 0) return `${rest} OZ`;
  return rest === 0 ? `${pounds} LB` : `${pounds} LB ${rest} OZ`;
}

/** UPS and FedEx round up to the next pound for the label's weight field. */
export function wholePounds(weightOz: number): number {
  return Math.max(1, Math.ceil(weightOz / 16));
}

export function decimalPounds(weightOz: number): string {
  return (Math.ceil((weightOz / 16) * 100) / 100).toFixed(2);
}

export function kilograms(weightOz: number): string {
  return (Math.ceil(weightOz * 0.028349523125 * 10) / 10).toFixed(1);
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

function dateParts(shipDate: string): { year: string; month: number; day: string } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(shipDate);
  if (!match) throw new RangeError(`ship date "${shipDate}" is not YYYY-MM-DD`);
  return { year: match[1]!, month: Number(match[2]), day: match[3]! };
}

/** `2025-11-25` → `11/25/2025` (USPS, UPS). */
export function usDate(shipDate: string): string {
  const { year, month, day } = dateParts(shipDate);
  return `${String(month).padStart(2, "0")}/${day}/${year}`;
}

/** `2025-11-25` → `25NOV25` (FedEx). */
export function fedexDate(shipDate: string): string {
  const { year, month, day } = dateParts(shipDate);
  return `${day}${MONTHS[month - 1] ?? ""}${year.slice(2)}`;
}

/** Day of the year, 3 digits, as the UPS MaxiCode "Julian day of pickup". */
export function julianDay(shipDate: string): string {
  const { year, month, day } = dateParts(shipDate);
  const start = Date.UTC(Number(year), 0, 1);
  const date = Date.UTC(Number(year), month - 1, Number(day));
  return String(Math.round((date - start) / 86_400_000) + 1).padStart(3, "0");
}

export function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** `RETURN_SERVICE_REQUESTED` → `RETURN SERVICE REQUESTED`. */
export function endorsementText(endorsement: string): string {
  return endorsement.replace(/_/g, " ").trim().toUpperCase();
}

/** The first five digits of a ZIP or ZIP+4; other countries' codes as given. */
export function zip5(postalCode: string): string {
  const digits = postalCode.replace(/\D/g, "");
  return digits.length >= 5 ? digits.slice(0, 5) : postalCode;
}
