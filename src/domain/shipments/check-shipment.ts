import type { CarrierAdapter } from "../../carriers/carrier.js";
import type { ServiceDefinition, ServiceListing } from "../../carriers/catalogue.js";
import { insuranceRefusal } from "../../carriers/insurance.js";
import { findListedService, type SoldService, soldService } from "../../carriers/registry.js";
import { returnRefusal } from "../../carriers/returns.js";
import { PARCEL } from "../../carriers/sandbox/eligibility.js";
import { isDrawableImage } from "../../labels/images/label-image.js";
import { MAX_SCALE, MIN_SCALE } from "../../labels/render-label.js";
import { carrierOf, connectedCarrierAccounts, requireCarrierApi } from "../carriers/carrier-connections.js";
import { enabledServiceIdsOf } from "../carriers/connect-carrier.js";
import { DomainError } from "../errors.js";
import { checkLabelOrderItems } from "../orders/link-label.js";
import { carrierToday } from "../rates/delivery-date.js";
import type { AccountScope, DomainServices } from "../services.js";
import { checkCustoms } from "./customs-declaration.js";
import type { NewShipment } from "./new-shipment.js";

/** USPS accepts a ship date up to 14 days ahead; other carriers ship today or later. */
const POSTAL_FUTURE_DAYS = 14;
const FUTURE_DAYS = 10;

export const ENDORSEMENTS = [
  "ADDRESS_CORRECTION",
  "CARRIER_LEAVE_IF_NO_RESPONSE",
  "CHANGE_SERVICE",
  "FORWARDING_SERVICE",
  "RETURN_SERVICE",
] as const;

const unprocessable = (code: string, message: string) => new DomainError(code, message);

/**
 * Characters per street line: UPS's and FedEx's Ship APIs take at most 35 (DHL Express 45, USPS
 * 50) and their labels print no more, so one limit holds for every carrier and label alike.
 */
export const MAX_ADDRESS_LINE_LENGTH = 35;
const ADDRESS_LINES = ["address1", "address2", "address3"] as const;

export interface CheckedShipment {
  service: ServiceDefinition;
  /** The eHub listing the client named the service by; the shipment keeps its id and code. */
  listing: ServiceListing;
  carrier: CarrierAdapter;
  /** The connection the labels are bought through. */
  carrierAccountId: number;
  shipDate: string;
  /** What the answer tells the client beside the shipment: a retired service sold as its successor. */
  warnings: string[];
}

function soldListing(input: NewShipment): SoldService | undefined {
  const named = findListedService(input.serviceId);
  return (
    named &&
    soldService(
      named,
      input.parcels.map((p) => ({ packageType: p.packageType, weightOz: p.weight })),
    )
  );
}

/**
 * The warnings an answer about buying `input` carries: a retired service (or parcels its carrier
 * now sells under another service) sold as its successor. The same on every run of one request.
 */
export function saleWarnings(input: NewShipment): string[] {
  return soldListing(input)?.warnings ?? [];
}

/**
 * The rules a shipment must meet before anything is bought: a service the account has enabled,
 * parcels the service takes, a ship date the carrier accepts, options only where they apply.
 */
export async function checkShipment(
  services: DomainServices,
  scope: AccountScope,
  input: NewShipment,
  path = "shipment",
): Promise<CheckedShipment> {
  const listed = soldListing(input);
  const service = listed?.service;
  const connections = await connectedCarrierAccounts(services, scope);
  const connection = service && connections.find((c) => c.carrier_code === service.carrierCode);
  const enabled = connection && enabledServiceIdsOf(connection);
  if (!listed || !service || !connection || (enabled && !enabled.has(service.serviceId))) {
    throw unprocessable(
      "shipment.service_unavailable",
      `${path}.service_id ${input.serviceId} is not a service enabled for this account; see GET /api/v2/services and your carrier accounts.`,
    );
  }
  await requireCarrierApi(services, scope, service.carrierCode, "label");
  const carrier = carrierOf(services, connection) as CarrierAdapter;
  if (input.parcels.length > 1 && !service.multiParcel) {
    throw unprocessable(
      "shipment.multi_parcel_unsupported",
      `${carrier.displayName} ${service.name} takes one parcel per shipment; create one shipment per parcel.`,
    );
  }
  const returnRefused = input.returnLabel && returnRefusal(service, input.returnLabel);
  if (returnRefused) {
    throw unprocessable(
      "shipment.return_unavailable",
      `${path} return label (${input.returnLabel?.type}): ${returnRefused}.`,
    );
  }
  const offered = service.packageTypes.length > 0 ? service.packageTypes : [PARCEL];
  input.parcels.forEach((parcel, index) => {
    if (!offered.some((p) => p.type === parcel.packageType)) {
      throw unprocessable(
        "shipment.package_type_unavailable",
        `${path}.parcels[${index}].package_type ${parcel.packageType} is not offered by ${service.name}; use one of ${offered.map((p) => p.type).join(", ")}.${handOverHint(service)}`,
      );
    }
    checkServiceOptions(parcel.serviceOptions, service, `${path}.parcels[${index}].service_options`);
    const insuranceRefused = parcel.insuredCents ? insuranceRefusal(service, parcel.insuredCents) : undefined;
    if (insuranceRefused) {
      throw unprocessable(
        "shipment.insurance_unavailable",
        `${path}.parcels[${index}].service_options.insurance: ${insuranceRefused}.`,
      );
    }
  });
  if (carrier.labelFormats && !carrier.labelFormats.includes(input.label.format)) {
    throw unprocessable(
      "shipment.label_format_unavailable",
      `${carrier.displayName} makes its labels itself and not as ${input.label.format}; ask for one of ${carrier.labelFormats.join(", ")}.`,
    );
  }
  if (input.label.scale != null && (input.label.format === "zpl" || input.label.format === "epl2")) {
    throw unprocessable(
      "shipment.label_option_invalid",
      `${path}.label_scale is not supported for ${input.label.format} labels.`,
    );
  }
  // Checked before the carrier sells: a label that cannot be drawn after the sale is a void.
  const scale = input.label.scale;
  if (scale != null && !(scale >= MIN_SCALE && scale <= MAX_SCALE)) {
    throw unprocessable(
      "shipment.label_option_invalid",
      `${path}.label_scale must be between ${MIN_SCALE} and ${MAX_SCALE}; got ${scale}.`,
    );
  }
  await checkLabelImages(input, path);
  checkAddressLines(input, path);
  checkCustoms(input, path);
  await checkLabelOrderItems(services, scope, input, path);
  return {
    service,
    listing: listed.listing,
    carrier,
    carrierAccountId: connection.id,
    shipDate: checkShipDate(input.shipDate, service, services.clock.now(), path),
    warnings: listed.warnings,
  };
}

function checkAddressLines(input: NewShipment, path: string): void {
  const addresses = [
    ["to_location", input.to],
    ["from_location", input.from],
    ["return_location", input.returnTo],
  ] as const;
  for (const [field, address] of addresses) {
    for (const line of ADDRESS_LINES) {
      const length = [...(address?.[line]?.trim() ?? "")].length;
      if (length <= MAX_ADDRESS_LINE_LENGTH) continue;
      throw unprocessable(
        "shipment.address_line_too_long",
        `${path}.${field}.${line} is ${length} characters; carriers take and print at most ${MAX_ADDRESS_LINE_LENGTH} per address line. Move the rest to the next address line.`,
      );
    }
  }
}

/** Where a service hands some parcels to another, the refusal says which parcels those are. */
function handOverHint(service: ServiceDefinition): string {
  const rule = service.parcelsSoldAs;
  if (!rule) return "";
  const successor = findListedService(rule.serviceId)?.service;
  return ` A ${rule.packageTypes.join(" or ")} of up to ${rule.maxWeightOz} oz is sold as ${successor?.name ?? rule.serviceId} (${rule.serviceId}).`;
}

async function checkLabelImages(input: NewShipment, path: string): Promise<void> {
  for (const [index, content] of (input.label.contents ?? []).entries()) {
    if (content.type !== "image" || !content.base64Image || (await isDrawableImage(content.base64Image))) continue;
    throw unprocessable(
      "shipment.label_option_invalid",
      `${path}.label_contents[${index}].base64_image is not an image that can be read (PNG, JPEG, GIF, WebP, TIFF or SVG).`,
    );
  }
}

function checkShipDate(shipDate: string | undefined, service: ServiceDefinition, now: Date, path: string): string {
  const today = carrierToday(now);
  if (shipDate === undefined) return today;
  const limit = service.carrierCode === "usps" ? POSTAL_FUTURE_DAYS : FUTURE_DAYS;
  const latest = new Date(`${today}T12:00:00.000Z`);
  latest.setUTCDate(latest.getUTCDate() + limit);
  if (shipDate < today)
    throw unprocessable("shipment.ship_date_invalid", `${path}.ship_date ${shipDate} is in the past.`);
  if (shipDate > latest.toISOString().slice(0, 10)) {
    throw unprocessable(
      "shipment.ship_date_invalid",
      `${path}.ship_date may be at most ${limit} days ahead for ${service.name}.`,
    );
  }
  return shipDate;
}

function checkServiceOptions(
  options: NewShipment["parcels"][number]["serviceOptions"],
  service: ServiceDefinition,
  path: string,
): void {
  if (options.endorsement != null) {
    if (service.carrierCode !== "usps") {
      throw unprocessable("shipment.option_unavailable", `${path}.endorsement applies to USPS services only.`);
    }
    if (!(ENDORSEMENTS as readonly string[]).includes(options.endorsement)) {
      throw unprocessable(
        "shipment.option_unavailable",
        `${path}.endorsement must be one of ${ENDORSEMENTS.join(", ")}.`,
      );
    }
  }
  const hazmat = options.dangerous_goods?.details?.type;
  if (hazmat != null && /[,;]/.test(hazmat)) {
    throw unprocessable(
      "shipment.option_unavailable",
      `${path}.dangerous_goods: one hazmat type per parcel; ship each type in its own parcel.`,
    );
  }
}
