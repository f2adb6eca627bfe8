import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "./fixtures.js";

/** A JSON schema as the route schemas and the document's components hold them. */
export type SchemaNode = Record<string, unknown>;

const WHEN = "2026-01-15T15:00:00.000Z";

/**
 * What a field of a given name holds in the examples: the tests' fixtures first (an address is the
 * Salt Lake City residence), then values the sandbox really answers with.
 */
const FIELD_VALUES: Record<string, unknown> = {
  ...LOS_ANGELES_WAREHOUSE,
  ...SALT_LAKE_RESIDENCE,
  email: "ann.lee@example.com",
  name: "Acme",
  carrier_code: "usps",
  service_code: "usps_ground_advantage",
  service_id: 1172,
  tracking_number: "9400100000000000000018",
  tracking_numbers: ["9400100000000000000018"],
  label_format: "pdf",
  label_size: "4x6",
  currency: "USD",
  url: "https://hooks.example.com/porter",
  api_key: "pk_test_…a1b2",
  order_number: "1001",
  sku: "TSHIRT-M",
  hs_tariff_code: "6109.10",
  country_of_origin: "PE",
  ship_date: "2026-01-15",
  zone: "04",
  price_group: "04",
  length: 10,
  width: 8,
  height: 4,
  weight: 24,
  rate: 7.85,
  amount: 7.85,
  quantity: 1,
  package_type: "parcel",
  status: "shipped",
};

const PATTERN_VALUES: Record<string, string> = {
  "^\\d+$": "1",
  "^[0-9]{5}$": "84111",
  "^[A-Za-z]{2}$": "US",
  "^\\d+(\\.\\d+)?$": "1",
};

export interface ExampleOptions {
  /** Resolves a `$ref` (a bare `$id` or `#/components/schemas/Name`). */
  resolve: (ref: string) => SchemaNode | undefined;
  /** Requests show only what is required (and what has a fixture); answers show every field. */
  requiredOnly: boolean;
}

const isNullSchema = (schema: SchemaNode) => schema.type === "null";

function fits(value: unknown, schema: SchemaNode): boolean {
  const type = schema.type;
  const types = Array.isArray(type) ? type : [type];
  if (type === undefined) return true;
  if (typeof value === "string") {
    if (!types.includes("string")) return false;
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) return false;
    if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
    return typeof schema.maxLength !== "number" || value.length <= schema.maxLength;
  }
  if (typeof value === "number") {
    if (!types.includes("number") && !(types.includes("integer") && Number.isInteger(value))) return false;
    if (typeof schema.minimum === "number" && value < schema.minimum) return false;
    return typeof schema.maximum !== "number" || value <= schema.maximum;
  }
  if (Array.isArray(value)) return types.includes("array");
  return false;
}

function numberFor(schema: SchemaNode): number {
  const integer = schema.type === "integer";
  let value = integer ? 1 : 12.5;
  if (typeof schema.minimum === "number" && value < schema.minimum) value = schema.minimum;
  if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) {
    value = schema.exclusiveMinimum + 1;
  }
  if (typeof schema.maximum === "number" && value > schema.maximum) value = schema.maximum;
  return value;
}

function stringFor(schema: SchemaNode, name: string): string {
  if (schema.format === "date-time" || /_at$|date_time$/.test(name)) return WHEN;
  if (schema.format === "date" || /date$/.test(name)) return WHEN.slice(0, 10);
  if (typeof schema.pattern === "string") return PATTERN_VALUES[schema.pattern] ?? "1";
  if (schema.format === "uri" || /_url$/.test(name)) return "https://porter.example/files/label.pdf";
  return name ? name.replaceAll("_", " ") : "text";
}

/**
 * A value that fits `schema`, made from the fixtures where a field name is known: the examples of
 * operations that have none written for them.
 */
export function exampleOf(schema: SchemaNode, options: ExampleOptions, name = "", depth = 0): unknown {
  if (depth > 12) return null;
  if (typeof schema.$ref === "string") {
    const target = options.resolve(schema.$ref);
    return target ? exampleOf(target, options, name, depth + 1) : null;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const union = (schema.anyOf ?? schema.oneOf) as SchemaNode[] | undefined;
  if (union) {
    const known = FIELD_VALUES[name];
    // An answer's nullable field with no fixture value shows as null, as most answers carry it.
    const nullable = !options.requiredOnly && known === undefined && union.some(isNullSchema);
    const branch = nullable
      ? union.find(isNullSchema)
      : (union.find((b) => known !== undefined && fits(known, b)) ?? union.find((b) => !isNullSchema(b)) ?? union[0]);
    return branch ? exampleOf(branch, options, name, depth + 1) : null;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (FIELD_VALUES[name] !== undefined && fits(FIELD_VALUES[name], { ...schema, type })) return FIELD_VALUES[name];
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
      const required = new Set((schema.required ?? []) as string[]);
      const entries = Object.entries(properties)
        .filter(([key]) => !options.requiredOnly || required.has(key) || FIELD_VALUES[key] !== undefined)
        .map(([key, property]) => [key, exampleOf(property, options, key, depth + 1)]);
      return Object.fromEntries(entries);
    }
    case "array": {
      const items = (schema.items ?? {}) as SchemaNode;
      const count = Math.max(1, typeof schema.minItems === "number" ? schema.minItems : 1);
      const item = exampleOf(items, options, name.replace(/s$/, ""), depth + 1);
      return Array.from({ length: count }, () => item);
    }
    case "string":
      return stringFor(schema, name);
    case "integer":
    case "number":
      return numberFor(schema);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return {};
  }
}
