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

/** What a shipment across a border needs of its parties: party, field, the rule, and its lines. */
const ABROAD_RULES = [
  ["Shipper", "AttentionName", "is required if destination is international", "5130-5133"],
  ["Shipper", "Phone", "is required if destination is international", "5207"],
  ["ShipTo", "AttentionName", "is required when ShipTo country differs from ShipFrom", "5300"],
  ["ShipTo", "Phone", "is required when ShipTo country differs from ShipFrom", "5356"],
] as const;

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
    for (const [party, field, rule_, cite] of ABROAD_RULES) {
      const path = field === "Phone" ? [party, "Phone", "Number"] : [party, field];
      rule(
        present(at(shipment, ...path)),
        `body/ShipmentRequest/Shipment/${party}/${field}`,
        `${rule_} (Shipping.yaml ${cite})`,
      );
    }
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
