import type { FastifyInstance, FastifySchema, FastifyServerOptions } from "fastify";

/**
 * Ajv turns the text "Infinity", "1e308" or 400 nines into a number when it coerces a path, query,
 * XML or form value, and its `minimum`/`maximum` checks skip numbers that are not finite. This
 * keyword, put on every number and integer of every input schema, closes that gap: a number must be
 * finite, and an integer must fit the 32-bit integer columns it is compared with or stored in
 * (PostgreSQL refuses anything larger with an error), else the request is a 400.
 */
const FINITE_KEYWORD = "x-finite";

/** The largest integer a request may carry: ids and counts are 32-bit integer columns. */
export const MAX_INTEGER = 2_147_483_647;
const MIN_INTEGER = -MAX_INTEGER - 1;

type SchemaNode = Record<string, unknown>;

const isNumeric = (type: unknown) =>
  type === "number" ||
  type === "integer" ||
  (Array.isArray(type) && type.some((t) => t === "number" || t === "integer"));

const allowsOnlyIntegers = (type: unknown) =>
  type === "integer" || (Array.isArray(type) && type.includes("integer") && !type.includes("number"));

interface KeywordError {
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

type AjvPlugin = NonNullable<NonNullable<FastifyServerOptions["ajv"]>["plugins"]>[number];
type Ajv = Parameters<Extract<AjvPlugin, (...args: never[]) => unknown>>[0];

function finite(_enabled: boolean, data: unknown, parentSchema?: SchemaNode): boolean {
  if (typeof data !== "number") return true;
  const integer = allowsOnlyIntegers(parentSchema?.type);
  if (integer ? Number.isInteger(data) && data >= MIN_INTEGER && data <= MAX_INTEGER : Number.isFinite(data)) {
    return true;
  }
  finite.errors = [
    {
      keyword: FINITE_KEYWORD,
      message: integer ? `must be a whole number between ${MIN_INTEGER} and ${MAX_INTEGER}` : "must be a finite number",
      params: {},
    },
  ];
  return false;
}
finite.errors = [] as KeywordError[];

/** The Ajv plugin that teaches the validator the keyword (pass it in Fastify's `ajv.plugins`). */
export function finiteNumbersAjvPlugin(ajv: Ajv): Ajv {
  // No `type: "number"` here: Ajv would then skip the keyword for exactly the non-finite numbers.
  return ajv.addKeyword({ keyword: FINITE_KEYWORD, schemaType: "boolean", validate: finite });
}

/** Keys under which a JSON Schema holds sub-schemas (one, a list, or a map of them). */
const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

function markNumbers(node: unknown, seen: WeakSet<object>): void {
  if (typeof node !== "object" || node === null || seen.has(node)) return;
  seen.add(node);
  const schema = node as SchemaNode;
  if (isNumeric(schema.type)) schema[FINITE_KEYWORD] = true;
  for (const key of ONE) markNumbers(schema[key], seen);
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list)) for (const child of list) markNumbers(child, seen);
  }
  for (const key of MAP) {
    const map = schema[key];
    if (typeof map === "object" && map !== null) for (const child of Object.values(map)) markNumbers(child, seen);
  }
}

/** Marks the numbers of every route's params, query, headers and body as they are registered. */
export function registerFiniteNumbers(app: FastifyInstance): void {
  const seen = new WeakSet<object>();
  app.addHook("onRoute", (route) => {
    const schema = route.schema as (FastifySchema & { query?: unknown }) | undefined;
    if (!schema) return;
    for (const part of [schema.params, schema.querystring, schema.query, schema.headers, schema.body]) {
      markNumbers(part, seen);
    }
  });
}
