/**
 * The carriers' return labels: which kinds each sells, and on which services. The sandbox carriers
 * and the real connections read this one declaration, so a return Porter accepts is one the carrier
 * sells.
 */
import type { ReturnLabelRequest } from "./carrier.js";
import type { CarrierCode, ServiceDefinition } from "./catalogue.js";

/** The return labels a carrier sells: paid at purchase (`print`), or at its first scan (`scanBased`). */
export interface ReturnCapability {
  print: boolean;
  scanBased: boolean;
}

interface ReturnProduct extends ReturnCapability {
  /** The product's name in messages. */
  product: string;
  /** The services it is sold on; absent: every service of the carrier. */
  serviceCodes?: readonly string[];
}

/**
 * USPS sells returns as their own mail classes (Ground Advantage, Priority Mail and Priority Mail
 * Express Return Service), paid when the label is first scanned (domestic-labels.yaml
 * `imageInfo.returnLabel`). UPS (Print Return Label) and FedEx (return shipments) bill a return
 * label only when it is used, but their APIs have no separate pay-on-use product: a scan-based one
 * is the same printed label, charged by Porter at the first scan rather than at purchase. DHL
 * Express's return is a prepaid shipment (MyDHL API has no pay-on-use return). DHL eCommerce's
 * return products have no rates in its API, so Porter sells none.
 */
const RETURN_PRODUCTS: Record<CarrierCode, ReturnProduct> = {
  usps: {
    product: "USPS Return Service",
    print: true,
    scanBased: true,
    serviceCodes: ["usps_ground_advantage", "usps_priority", "usps_express"],
  },
  ups: { product: "UPS Print Return Label", print: true, scanBased: true },
  fed_ex: { product: "FedEx Return", print: true, scanBased: true },
  dhl_express: { product: "DHL Express Return", print: true, scanBased: false },
  dhl_ecommerce: { product: "DHL eCommerce returns", print: false, scanBased: false },
};

/** What return labels a carrier sells. */
export function returnCapability(code: CarrierCode): ReturnCapability {
  const { print, scanBased } = RETURN_PRODUCTS[code];
  return { print, scanBased };
}

/** Why the service cannot carry this return label, in words; undefined when it can. */
export function returnRefusal(service: ServiceDefinition, returnLabel: ReturnLabelRequest): string | undefined {
  const product = RETURN_PRODUCTS[service.carrierCode];
  if (!product.print && !product.scanBased) return `${service.name}: the carrier sells no return labels through Porter`;
  if (product.serviceCodes && !product.serviceCodes.includes(service.serviceCode)) {
    return `${service.name} has no return label (${product.product} covers ${product.serviceCodes.join(", ")})`;
  }
  if (returnLabel.type === "scan_based" && !product.scanBased) {
    return `${product.product} is paid when bought; scan_based (pay-on-use) labels are not sold, use return_type print`;
  }
  if (returnLabel.type === "print" && !product.print) return `${product.product} is sold only as scan_based`;
  return undefined;
}

/** The return product's name as the label prints it, e.g. "USPS Ground Advantage Return". */
export function returnServiceName(service: ServiceDefinition): string {
  return `${service.name} Return`;
}
