import { carrierSpecsAvailable, publishedContract, type SentRequest, type Violation } from "./published-specs.js";

/**
 * What USPS's published specs say beside their schemas: rules stated only in prose ("always
 * required", "required when …"), checked on what an adapter sends. Each cites its spec file and
 * line. Everything the schemas say (required fields, enums, patterns, lengths) is left to the
 * schema check.
 */

/** USPS's published specs of the APIs Porter calls (relative to the carrier specs folder). */
export const USPS_SPEC_FILES = [
  "usps/domestic-prices.yaml",
  "usps/international-prices.yaml",
  "usps/payments.yaml",
  "usps/domestic-labels.yaml",
  "usps/international-labels.yaml",
  "usps/tracking.yaml",
  "usps/addresses.yaml",
  "usps/carrier-pickup.yaml",
  "usps/scan-forms.yaml",
];

type Json = Record<string, unknown>;

interface Sent {
  body: Json;
  query: URLSearchParams;
}

interface ProseRule {
  route: string;
  where: string;
  rule: string;
  holds: (sent: Sent) => boolean;
}

const named = (address: unknown) => {
  const a = (address ?? {}) as Json;
  return Boolean((a.firstName && a.lastName) || a.firm);
};

const record = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});

/** At most 70 pounds, in the unit the description gives (pounds unless it says ounces). */
const underSeventyPounds = (description: unknown) => {
  const d = record(description);
  if (typeof d.weight !== "number") return true;
  return d.weight <= (d.weightUOM === "oz" ? 1120 : 70);
};

const roles = (body: Json) => (Array.isArray(body.roles) ? (body.roles as Json[]) : []);
const role = (body: Json, name: string) => roles(body).find((r) => r.roleName === name);
const present = (value: unknown) => typeof value === "string" && value.trim() !== "";

const LABEL = "POST /labels/v3/label";
const RETURN_LABEL = "POST /labels/v3/return-label";
const INTERNATIONAL_LABEL = "POST /international-labels/v3/international-label";
const PAYMENT = "POST /payments/v3/payment-authorization";

export const USPS_PROSE_RULES: readonly ProseRule[] = [
  {
    route: LABEL,
    where: "fromAddress",
    rule: "domestic-labels.yaml:5210 the First and Last Name or Firm Name are always required (fromAddress, toAddress)",
    holds: ({ body }) => named(body.fromAddress) && named(body.toAddress),
  },
  {
    route: LABEL,
    where: "packageDescription.weight",
    rule: "domestic-labels.yaml:4990 Items must weigh 70 pounds (1120 ounces) or less",
    holds: ({ body }) => underSeventyPounds(body.packageDescription),
  },
  {
    route: LABEL,
    where: "imageInfo.labelType",
    rule: "domestic-labels.yaml:3371 the labelType of 4X6LABEL is the only supported format with the imageType of EPL300DPI",
    holds: ({ body }) => {
      const image = record(body.imageInfo);
      return image.imageType !== "EPL300DPI" || (image.labelType ?? "4X6LABEL") === "4X6LABEL";
    },
  },
  {
    route: RETURN_LABEL,
    where: "fromAddress",
    rule: "domestic-labels.yaml:4041, 4050 the First and Last Name or Firm Name are always required (toAddress, fromAddress)",
    holds: ({ body }) => named(body.fromAddress) && named(body.toAddress),
  },
  {
    route: INTERNATIONAL_LABEL,
    where: "fromAddress",
    rule: "international-labels.yaml:1553 the First and Last Name or Firm Name are always required (fromAddress)",
    holds: ({ body }) => named(body.fromAddress),
  },
  {
    route: INTERNATIONAL_LABEL,
    where: "toAddress",
    rule: "international-labels.yaml:1751 the First and Last Name or Firm Name are always required (toAddress)",
    holds: ({ body }) => named(body.toAddress),
  },
  {
    route: INTERNATIONAL_LABEL,
    where: "toAddress.postalCode",
    rule: "international-labels.yaml:1781 to Canada, postalCode must start with a letter",
    holds: ({ body }) => {
      const to = record(body.toAddress);
      return to.countryISOAlpha2Code !== "CA" || /^[A-Z]/i.test(String(to.postalCode ?? ""));
    },
  },
  {
    route: INTERNATIONAL_LABEL,
    where: "packageDescription.weight",
    rule: "international-labels.yaml:1413 Items must weigh 70 pounds (1120 ounces) or less",
    holds: ({ body }) => underSeventyPounds(body.packageDescription),
  },
  {
    route: INTERNATIONAL_LABEL,
    where: "customsForm.contents",
    rule: "international-labels.yaml:1025 one of itemValue and itemWeight or itemTotalValue and itemTotalWeight is required",
    holds: ({ body }) => {
      const contents = record(body.customsForm).contents;
      return (Array.isArray(contents) ? (contents as Json[]) : []).every(
        (item) =>
          (item.itemValue !== undefined && item.itemWeight !== undefined) ||
          (item.itemTotalValue !== undefined && item.itemTotalWeight !== undefined),
      );
    },
  },
  {
    route: PAYMENT,
    where: "roles",
    rule: "payments.yaml:39 the PAYER and LABEL_OWNER roles are required to pay for any label transaction",
    holds: ({ body }) => role(body, "PAYER") !== undefined && role(body, "LABEL_OWNER") !== undefined,
  },
  {
    route: PAYMENT,
    where: "roles.PAYER",
    rule: "payments.yaml:40 when using the PAYER role, the accountType and CRID must be specified",
    holds: ({ body }) => {
      const payer = role(body, "PAYER");
      return !payer || (present(payer.accountType) && present(payer.CRID));
    },
  },
  {
    route: PAYMENT,
    where: "roles.LABEL_OWNER",
    rule: "payments.yaml:42 when using the LABEL_OWNER role, the CRID, MID and manifestMID must be specified",
    holds: ({ body }) => {
      const owner = role(body, "LABEL_OWNER");
      return !owner || (present(owner.CRID) && present(owner.MID) && present(owner.manifestMID));
    },
  },
  {
    route: PAYMENT,
    where: "roles.accountNumber",
    rule: "payments.yaml:353 accountNumber is required when accountType is EPS or METER",
    holds: ({ body }) =>
      roles(body).every((r) => !["EPS", "METER"].includes(String(r.accountType)) || present(r.accountNumber)),
  },
  {
    route: PAYMENT,
    where: "roles.permitNumber",
    rule: "payments.yaml:356, 360 permitNumber and permitZIP are required when accountType is PERMIT or OMAS",
    holds: ({ body }) =>
      roles(body).every(
        (r) => !["PERMIT", "OMAS"].includes(String(r.accountType)) || (present(r.permitNumber) && present(r.permitZIP)),
      ),
  },
  {
    route: "GET /addresses/v3/address",
    where: "city",
    rule: "addresses.yaml:24 must specify a street address, a state, and either a city or a ZIP Code",
    holds: ({ query }) => Boolean(query.get("city") || query.get("ZIPCode")),
  },
];

/** What a request USPS takes breaks of the rules its specs state only in prose. */
export function uspsProseViolations(request: SentRequest): Violation[] {
  const url = new URL(request.url, "http://stand-in");
  const route = `${request.method.toUpperCase()} ${url.pathname}`;
  const rules = USPS_PROSE_RULES.filter((r) => r.route === route);
  if (rules.length === 0) return [];
  let body: Json = {};
  try {
    body = record(request.body ? JSON.parse(request.body) : {});
  } catch {
    return [];
  }
  return rules
    .filter((r) => !r.holds({ body, query: url.searchParams }))
    .map((r) => ({ request: route, operation: "USPS prose", where: r.where, message: r.rule }));
}

/**
 * What USPS would refuse of a request body an adapter builds, in words: its published schema (when
 * the specs are here) and its prose rules. Headers are left out: a unit test builds bodies alone.
 */
export async function uspsBodyRefusals(method: string, path: string, body: unknown): Promise<string[]> {
  const request: SentRequest = { method, url: path, headers: {}, body: JSON.stringify(body) };
  const schema = carrierSpecsAvailable() ? (await publishedContract(USPS_SPEC_FILES)).check(request) : [];
  return [...schema.filter((v) => v.where.startsWith("body")), ...uspsProseViolations(request)].map(
    (v) => `${v.where} ${v.message}`,
  );
}
