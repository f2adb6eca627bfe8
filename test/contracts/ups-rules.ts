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

const PICKUP_CREATION = /^POST \/api\/pickupcreation\/[^/]+\/pickup$/;

/**
 * Pickup.yaml's Pickup Creation schema refuses what its own request example sends: each limit here
 * is one the same spec contradicts, and what it means instead is checked as a prose rule below
 * (`pickupRules`).
 */
const PICKUP_CONTRADICTIONS: { where: string; message: RegExp }[] = [
  {
    // Pickup.yaml 1957-1958 limits PickupDate to 4 characters; its description (1950) says
    // yyyyMMdd and its example (359) sends '20221214'.
    where: "body/PickupCreationRequest/PickupDateInfo/PickupDate",
    message: /must NOT have more than 4 characters/,
  },
  {
    // Pickup.yaml 2142-2143 holds TotalWeight.Weight to exactly 6 characters; its description
    // (2138-2139) gives "10.9" as an example and its request example (387) sends '5.5'.
    where: "body/PickupCreationRequest/TotalWeight/Weight",
    message: /must NOT have fewer than 6 characters/,
  },
  {
    // The body is one of a Pickup Creation and a Smart Pickup request (Pickup.yaml 343-345). When
    // the Creation branch fails by the limits above alone, the validator also reports the other
    // branch's missing wrapper and the oneOf as a whole; a real failure of the Creation branch is
    // still reported under its own path.
    where: "body",
    message: /must have required property 'PickupTriggerGWNRequest'|must match exactly one schema in oneOf/,
  },
];

/** Every violation UPS's own specs excuse (they contradict the schema), for a server checking requests against them. */
export function upsSpecExcused(violation: Violation): boolean {
  if (upsSpecContradiction(violation)) return true;
  const route = violation.request.replace(/ answered \d+$/, "");
  return (
    PICKUP_CREATION.test(route) &&
    PICKUP_CONTRADICTIONS.some((c) => c.where === violation.where && c.message.test(violation.message))
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
const many = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

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
  if (at(shipment, "ReturnService") !== undefined) {
    const packages = at(shipment, "Package");
    const list = Array.isArray(packages) ? packages : [packages];
    rule(
      at(shipment, "ShipFrom") !== undefined,
      "body/ShipmentRequest/Shipment/ShipFrom",
      "is required for return shipment (Shipping.yaml 5590)",
    );
    rule(
      list.every((p) => present(at(p, "Description"))),
      "body/ShipmentRequest/Shipment/Package/Description",
      "is required for shipment with return service (Shipping.yaml 9240-9241)",
    );
    rule(
      list.every((p) => !["24", "25"].includes(String(at(p, "Packaging", "Code")))),
      "body/ShipmentRequest/Shipment/Package/Packaging/Code",
      "24 or 25 is only allowed for shipment without return service (Shipping.yaml 10142-10143)",
    );
    rule(
      list.length === 1 || !["US", "PR"].includes(fromCountry),
      "body/ShipmentRequest/Shipment/Package",
      "US/PR origin return movements are limited to only one package (Shipping.yaml 9314-9316)",
    );
    rule(
      !["13", "59", "82", "83", "84", "85", "86", "C6", "C7", "C8"].includes(String(at(shipment, "Service", "Code"))),
      "body/ShipmentRequest/Shipment/Service/Code",
      "is not available to return shipment (Shipping.yaml 6601)",
    );
    rule(
      many(at(shipment, "PaymentInformation", "ShipmentCharge")).every((c) => at(c, "BillReceiver") === undefined),
      "body/ShipmentRequest/Shipment/PaymentInformation",
      "Bill Receiver is invalid for a return shipment (Shipping.yaml 6062-6063)",
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

/** The Pickup Creation request's rules the spec states in words where its schema says otherwise. */
function pickupRules(body: unknown): [where: string, message: string][] {
  const request = at(body, "PickupCreationRequest");
  if (request === undefined) return [];
  const broken: [string, string][] = [];
  const date = at(request, "PickupDateInfo", "PickupDate");
  if (!(typeof date === "string" && /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(date))) {
    broken.push(["body/PickupCreationRequest/PickupDateInfo/PickupDate", "must be yyyyMMdd (Pickup.yaml 1950)"]);
  }
  for (const field of ["ReadyTime", "CloseTime"]) {
    const time = at(request, "PickupDateInfo", field);
    if (!(typeof time === "string" && /^([01]\d|2[0-3])[0-5]\d$/.test(time))) {
      broken.push([`body/PickupCreationRequest/PickupDateInfo/${field}`, "must be HHmm (Pickup.yaml 1931-1933, 1946)"]);
    }
  }
  const pieces = at(request, "PickupPiece");
  if (!Array.isArray(pieces) || pieces.length === 0) {
    broken.push([
      "body/PickupCreationRequest/PickupPiece",
      "must say how many items are picked up (Pickup.yaml 2127-2129)",
    ]);
  } else if (pieces.reduce((sum: number, piece) => sum + Number(at(piece, "Quantity")), 0) > 9999) {
    broken.push(["body/PickupCreationRequest/PickupPiece", "holds 9,999 packages at most (Pickup.yaml 2128-2129)"]);
  }
  if (at(request, "PaymentMethod") === "01" && at(request, "Shipper", "Account") === undefined) {
    broken.push([
      "body/PickupCreationRequest/Shipper/Account",
      "is required when the shipper's account pays (PaymentMethod 01, Pickup.yaml 1688-1689)",
    ]);
  }
  const weight = at(request, "TotalWeight", "Weight");
  if (weight !== undefined && !(typeof weight === "string" && /^\d{1,4}(\.\d)?$/.test(weight))) {
    broken.push([
      "body/PickupCreationRequest/TotalWeight/Weight",
      "allows one decimal digit, six characters at most (Pickup.yaml 2138-2143)",
    ]);
  }
  return broken;
}

/** What a request UPS takes breaks of the rules its specs state only in prose. */
export function upsProseViolations(request: SentRequest): Violation[] {
  const url = new URL(request.url, "http://stand-in");
  const label = `${request.method} ${url.pathname}`;
  if (request.method === "DELETE" && /\/shipments\/[^/]+\/pickup\/02$/.test(url.pathname)) {
    const prn = Object.entries(request.headers).find(([name]) => name.toLowerCase() === "prn")?.[1];
    return present(prn)
      ? []
      : [
          {
            request: label,
            operation: "Pickup.yaml prose",
            where: "header.Prn",
            message: "is required when cancelling by PRN (CancelBy 02, Pickup.yaml 245-246)",
          },
        ];
  }
  const rules = PICKUP_CREATION.test(label)
    ? { operation: "Pickup.yaml prose", of: pickupRules }
    : request.method === "POST" && /\/shipments\/[^/]+\/ship$/.test(url.pathname)
      ? { operation: "Shipping.yaml prose", of: shipRules }
      : undefined;
  if (!rules) return [];
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return [];
  }
  return rules.of(body).map(([where, message]) => ({ request: label, operation: rules.operation, where, message }));
}
