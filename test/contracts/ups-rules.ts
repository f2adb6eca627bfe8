import type { SentRequest, Violation } from "./published-specs.js";

/**
 * What UPS's published specs say beside their schemas: rules stated only in prose ("required
 * if …"), checked on what an adapter sends, and the one schema limit the same spec contradicts.
 * Each cites its spec file and line.
 */

/**
 * Rating.yaml 78 limits the `requestoption` path segment to 10 characters, while its own list of
 * valid values (Rating.yaml 83-84) names `Ratetimeintransit` and `Shoptimeintransit`.
 */
export function upsSpecContradiction(violation: Violation): boolean {
  return (
    violation.where === "path.requestoption" &&
    /^POST \/api\/rating\/[^/]+\/(Ratetimeintransit|Shoptimeintransit)$/i.test(violation.request)
  );
}

type Json = Record<string, unknown>;

function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Json)[key];
  }
  return current;
}

const present = (value: unknown) => typeof value === "string" && value.trim() !== "";

/** Where the Shipping spec takes `Shipment.InvoiceLineTotal`: from the US to Canada and Puerto Rico. */
const INVOICE_LINE_TOTAL_ROUTES = ["US>CA", "US>PR"];

/** The Shipping request's prose rules, for a `POST …/shipments/{version}/ship`. */
function shipRules(body: unknown): [where: string, message: string][] {
  const shipment = at(body, "ShipmentRequest", "Shipment");
  if (shipment === undefined) return [];
  const broken: [string, string][] = [];
  const rule = (holds: boolean, where: string, message: string) => {
    if (!holds) broken.push([where, message]);
  };
  const fromCountry = String(
    at(shipment, "ShipFrom", "Address", "CountryCode") ?? at(shipment, "Shipper", "Address", "CountryCode"),
  );
  const toCountry = String(at(shipment, "ShipTo", "Address", "CountryCode"));
  const abroad = fromCountry !== toCountry;
  if (abroad) {
    rule(
      present(at(shipment, "Shipper", "AttentionName")),
      "body/ShipmentRequest/Shipment/Shipper/AttentionName",
      "is required if destination is international (Shipping.yaml 5130-5133)",
    );
    rule(
      present(at(shipment, "Shipper", "Phone", "Number")),
      "body/ShipmentRequest/Shipment/Shipper/Phone",
      "is required if destination is international (Shipping.yaml 5207)",
    );
    rule(
      present(at(shipment, "ShipTo", "AttentionName")),
      "body/ShipmentRequest/Shipment/ShipTo/AttentionName",
      "is required when ShipTo country differs from ShipFrom (Shipping.yaml 5300)",
    );
    rule(
      present(at(shipment, "ShipTo", "Phone", "Number")),
      "body/ShipmentRequest/Shipment/ShipTo/Phone",
      "is required when ShipTo country differs from ShipFrom (Shipping.yaml 5356)",
    );
  }
  if (at(shipment, "Service", "Code") === "14") {
    rule(
      present(at(shipment, "ShipTo", "AttentionName")) && present(at(shipment, "ShipTo", "Phone", "Number")),
      "body/ShipmentRequest/Shipment/ShipTo",
      "needs AttentionName and Phone for UPS Next Day Air Early (Shipping.yaml 5300, 5356)",
    );
  }
  const forms = at(shipment, "ShipmentServiceOptions", "InternationalForms");
  const formTypes = at(forms, "FormType");
  if (Array.isArray(formTypes) && formTypes.includes("01")) {
    rule(
      present(at(forms, "InvoiceNumber")),
      "body/ShipmentRequest/Shipment/ShipmentServiceOptions/InternationalForms/InvoiceNumber",
      "is required for Invoice forms (Shipping.yaml 7141-7143)",
    );
    rule(
      present(at(forms, "InvoiceDate")) && present(at(forms, "ReasonForExport")),
      "body/ShipmentRequest/Shipment/ShipmentServiceOptions/InternationalForms",
      "needs InvoiceDate and ReasonForExport for Invoice forms (Shipping.yaml 7151, 7181)",
    );
    rule(
      at(forms, "Contacts", "SoldTo") !== undefined,
      "body/ShipmentRequest/Shipment/ShipmentServiceOptions/InternationalForms/Contacts/SoldTo",
      "is required if Invoice is requested (Contacts_SoldTo, Shipping.yaml 8212-8215)",
    );
  }
  const totalAllowed = INVOICE_LINE_TOTAL_ROUTES.includes(`${fromCountry}>${toCountry}`);
  const total = at(shipment, "InvoiceLineTotal");
  rule(
    totalAllowed ? total !== undefined : total === undefined,
    "body/ShipmentRequest/Shipment/InvoiceLineTotal",
    totalAllowed
      ? "is required from the US to Canada and Puerto Rico (Shipping.yaml 6637-6640)"
      : "is allowed only from the US to Canada and Puerto Rico (Shipping.yaml 6637-6640)",
  );
  return broken;
}

/** What a request UPS takes breaks of the rules its specs state only in prose. */
export function upsProseViolations(request: SentRequest): Violation[] {
  const url = new URL(request.url, "http://stand-in");
  const label = `${request.method} ${url.pathname}`;
  if (request.method !== "POST" || !/\/shipments\/[^/]+\/ship$/.test(url.pathname)) return [];
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return [];
  }
  return shipRules(body).map(([where, message]) => ({
    request: label,
    operation: "Shipping.yaml prose",
    where,
    message,
  }));
}
