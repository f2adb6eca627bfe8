import fc from "fast-check";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";

/** A JSON Schema node as the OpenAPI document gives it, references already resolved. */
export interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  default?: unknown;
}

/**
 * Values real clients send, by field name: with them a generated body is now and then a request
 * the domain accepts (a rate, a purchase), so the fuzzer reaches past validation.
 */
export const REALISTIC: Record<string, unknown[]> = {
  ...Object.fromEntries(
    Object.keys({ ...SALT_LAKE_RESIDENCE, ...LOS_ANGELES_WAREHOUSE }).map((key) => [
      key,
      [SALT_LAKE_RESIDENCE, LOS_ANGELES_WAREHOUSE].flatMap((address) =>
        key in address ? [address[key as keyof typeof address]] : [],
      ),
    ]),
  ),
  ...Object.fromEntries(Object.entries(SMALL_BOX).map(([key, value]) => [key, [value]])),
  to_location: [SALT_LAKE_RESIDENCE],
  from_location: [LOS_ANGELES_WAREHOUSE],
  parcels: [[SMALL_BOX]],
  service_id: [1172, "1172"],
  service_ids: [[1172]],
  carrier_code: ["usps", "ups", "fed_ex"],
  label_format: ["pdf", "png", "zpl"],
  label_size: ["4x6"],
  email: ["fuzz@example.com"],
  name: ["Acme Outlet"],
  to_postal_code: ["84111"],
  from_postal_codes: ["90035,10001"],
  to_country: ["US"],
  from_country: ["US"],
  date_from: ["2026-11-26"],
  date_to: ["2026-11-27"],
};

/** Numbers as text that coercion, bounds checks and SQL get wrong. */
const NUMERAL_TEXT = [
  "Infinity",
  "-Infinity",
  "NaN",
  "1e308",
  "-1e308",
  "9".repeat(400),
  "-0",
  "0x10",
  "",
  "1.5",
  "-1",
  "12abc",
  " 7",
];

const HOSTILE_NUMBERS = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -1, 0, -0, 0.5, 1.5, 1e-300];

/** Text that breaks parsers, coercion, SQL and headers. */
const HOSTILE_TEXT = [
  ...NUMERAL_TEXT,
  " ",
  "null",
  "true",
  "%zz",
  "%C3%28",
  "../../etc/passwd",
  "'; drop table shipments; --",
  "<x>&unknown;</x>",
  "{}",
  "[]",
  "\u0000",
  "\uD800",
  "\uFFFE",
  "𝕏".repeat(40),
  "a".repeat(20_000),
];

/** Objects or arrays nested `levels` deep, built without recursion. */
function nested(levels: number, asArray: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value };
  return value;
}

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(true, false, null),
  fc.string({ unit: "binary", maxLength: 40 }),
);

/** A value of the wrong shape, size or depth, for any place in a request. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileScalar, weight: 6 },
  { arbitrary: fc.array(hostileScalar, { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileScalar, { maxKeys: 4 }), weight: 1 },
  { arbitrary: fc.tuple(fc.integer({ min: 20, max: 200 }), fc.boolean()).map(([n, a]) => nested(n, a)), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);

const typesOf = (schema: SchemaNode): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

const HOSTILE_NUMERALS: fc.Arbitrary<unknown> = fc.constantFrom(...NUMERAL_TEXT, ...HOSTILE_NUMBERS);

/** Wrong for this node in particular: non-finite numerals for numbers, the wrong kind for the rest. */
function hostileFor(schema: SchemaNode): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const targeted: fc.Arbitrary<unknown>[] = [];
  if (types.includes("integer") || types.includes("number")) targeted.push(HOSTILE_NUMERALS);
  if (types.includes("string")) {
    const tooLong = (schema.maxLength ?? 1000) + 1;
    targeted.push(fc.constantFrom("x".repeat(Math.min(tooLong, 100_000)), 12, { a: 1 }, ["x"]));
  }
  if (types.includes("array")) {
    targeted.push(
      fc.constantFrom(
        "x",
        { 0: "x" },
        Array.from({ length: (schema.maxItems ?? 1000) + 1 }, () => 1),
      ),
    );
  }
  if (types.includes("object")) targeted.push(fc.constantFrom("x", 1, [], nested(40, false)));
  return targeted.length === 0
    ? hostileValue
    : fc.oneof({ arbitrary: fc.oneof(...targeted), weight: 3 }, { arbitrary: hostileValue, weight: 2 });
}

function scalarFor(type: string, schema: SchemaNode): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      if (schema.pattern === "^\\d+$") return fc.integer({ min: 1, max: 2000 }).map(String);
      if (schema.pattern === "^[A-Za-z]{2}$") return fc.constantFrom("US", "CA", "GB", "us");
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 24, 24) });
    case "integer":
      return fc.integer({ min: Math.max(schema.minimum ?? -5, -5), max: Math.min(schema.maximum ?? 2000, 2000) });
    case "number":
      return fc.double({
        min: Math.max(schema.minimum ?? schema.exclusiveMinimum ?? -5, -5),
        max: Math.min(schema.maximum ?? 1000, 1000),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Values that follow the schema, with a realistic value for known field names now and then, and
 * (when `hostility` > 0) a hostile value in place of any node with odds 1 in `hostility`.
 */
export function valueFor(schema: SchemaNode, hostility: number, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const faithful = faithfulValueFor(schema, hostility, name, depth);
  if (hostility === 0) return faithful;
  return fc.oneof({ arbitrary: faithful, weight: hostility }, { arbitrary: hostileFor(schema), weight: 1 });
}

function faithfulValueFor(schema: SchemaNode, hostility: number, name: string | undefined, depth: number) {
  const realistic = name !== undefined ? REALISTIC[name] : undefined;
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) options.push(fc.constantFrom(...schema.enum));
  else if (schema.const !== undefined) options.push(fc.constant(schema.const));
  else if (schema.anyOf || schema.oneOf) {
    for (const branch of schema.anyOf ?? schema.oneOf ?? []) options.push(valueFor(branch, hostility, name, depth + 1));
  } else if (schema.allOf) {
    options.push(valueFor(Object.assign({}, ...schema.allOf), hostility, name, depth + 1));
  } else {
    for (const type of typesOf(schema)) {
      if (type === "object") options.push(objectFor(schema, hostility, depth));
      else if (type === "array") options.push(arrayFor(schema, hostility, name, depth));
      else options.push(scalarFor(type, schema));
    }
  }
  if (options.length === 0) options.push(fc.jsonValue({ maxDepth: 2 }));
  const generated = options.length === 1 ? (options[0] as fc.Arbitrary<unknown>) : fc.oneof(...options);
  return realistic ? fc.oneof({ arbitrary: fc.constantFrom(...realistic), weight: 3 }, generated) : generated;
}

function objectFor(schema: SchemaNode, hostility: number, depth: number): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant({});
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, child]) => [key, valueFor(child, hostility, key, depth + 1)]),
  );
  const required = (schema.required ?? []).filter((key) => key in model);
  const record = fc.record(model, { requiredKeys: required });
  const extras =
    schema.additionalProperties && typeof schema.additionalProperties === "object"
      ? fc.dictionary(
          fc.string({ maxLength: 10 }),
          valueFor(schema.additionalProperties, hostility, undefined, depth + 1),
          {
            maxKeys: 3,
          },
        )
      : fc.constant({});
  if (hostility === 0) {
    // Optional fields are many and each may be refused: often only the required ones are sent.
    const requiredOnly = fc.record(
      Object.fromEntries(required.map((key) => [key, model[key] as fc.Arbitrary<unknown>])),
    );
    return fc.oneof(
      requiredOnly,
      fc.tuple(record, extras).map(([known, more]) => ({ ...more, ...known })),
    );
  }
  // Hostile bodies also lose required fields and gain unknown ones.
  const dropped = fc.record(model, { requiredKeys: [] });
  const unknown = fc.dictionary(fc.string({ maxLength: 10 }), hostileValue, { maxKeys: 2 });
  return fc
    .tuple(fc.oneof({ arbitrary: record, weight: hostility }, dropped), extras, unknown)
    .map(([known, more, junk]) => ({ ...junk, ...more, ...known }));
}

function arrayFor(schema: SchemaNode, hostility: number, name: string | undefined, depth: number) {
  const items = schema.items ?? {};
  const minLength = Math.min(schema.minItems ?? 0, 3);
  return fc.array(valueFor(items, hostility, name, depth + 1), {
    minLength,
    maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)),
  });
}
