import fc from "fast-check";
import qs from "qs";
import { hostileValue, type SchemaNode, valueFor } from "./schema-arbitraries.js";

/** One operation of the OpenAPI document, references resolved. */
export interface Operation {
  method: string;
  path: string;
  parameters: { in: string; name: string; required?: boolean; schema?: SchemaNode }[];
  body?: SchemaNode;
}

/** What the fuzzer knows of the accounts it plays: ids for path parameters, keys by number. */
export interface FuzzAccounts {
  /** The child of the main account, the one customer id that should work. */
  childId: number;
  /** Other account ids: the main one and a stranger's. */
  otherAccountIds: number[];
  /** How many credentials (an `Authorization` header, the dashboard's cookie) `authorization(i)` knows. */
  authorizations: number;
}

export interface FuzzRequest {
  method: string;
  url: string;
  authorization: number;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const PRINTABLE = fc.constantFrom(..."abcXYZ019 -_.:/!~*'()[]{}<>@#$%^&=+;,?\"\\|`\t".split(""));

const HOSTILE_SEGMENTS = [
  "Infinity",
  "-Infinity",
  "NaN",
  "-1",
  "0",
  "1.5",
  "1e3",
  "1e308",
  "0x10",
  "1".repeat(16),
  "1".repeat(101),
  "%zz",
  "%C3%28",
  "%00",
  "%2F",
  "..",
  "abc",
  "%20",
  "%F0%9F%92%A5",
];

/** Percent-encodes anything, lone surrogates included (encodeURIComponent refuses them). */
function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return Buffer.from(text).toString("hex");
  }
}

function pathSegment(name: string, schema: SchemaNode | undefined, accounts: FuzzAccounts, hostility: number) {
  const plausible =
    name === "customer_id"
      ? fc.oneof(
          { arbitrary: fc.constant(accounts.childId), weight: 6 },
          { arbitrary: fc.constantFrom(...accounts.otherAccountIds), weight: 1 },
        )
      : fc.oneof(fc.integer({ min: 1, max: 12 }), valueFor(schema ?? {}, 0, name));
  const hostile = fc.oneof(
    fc.constantFrom(...HOSTILE_SEGMENTS),
    hostileValue.map((value) => encodeLoosely(typeof value === "string" ? value : (JSON.stringify(value) ?? ""))),
  );
  const segment = hostility === 0 ? plausible : fc.oneof({ arbitrary: plausible, weight: hostility }, hostile);
  return segment.map((value) =>
    typeof value === "string" && HOSTILE_SEGMENTS.includes(value) ? value : encodeLoosely(String(value)),
  );
}

function queryString(operation: Operation, hostility: number): fc.Arbitrary<string> {
  const model = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === "query")
      .map((parameter) => [parameter.name, valueFor(parameter.schema ?? {}, hostility, parameter.name)]),
  );
  const junk =
    hostility === 0
      ? fc.constant({})
      : fc.oneof(
          { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 2 }), weight: 8 },
          { arbitrary: fc.constant({ a: "x".repeat(15_000) }), weight: 1 },
        );
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      junk,
      fc.constantFrom("indices", "repeat", "brackets") as fc.Arbitrary<"indices" | "repeat" | "brackets">,
    )
    .map(([known, extra, arrayFormat]) => {
      try {
        return qs.stringify({ ...extra, ...known }, { arrayFormat });
      } catch {
        return "q=%ED%A0%80";
      }
    });
}

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The Rails-style XML the API reads: `type="array"` lists, `nil="true"` nulls, text values. */
function xmlElement(name: string, value: unknown): string {
  const tag = /^[A-Za-z_][\w.-]*$/.test(name) ? name : "field";
  if (value === null || value === undefined) return `<${tag} nil="true"/>`;
  if (Array.isArray(value))
    return `<${tag} type="array">${value.map((item) => xmlElement("item", item)).join("")}</${tag}>`;
  if (typeof value === "object") {
    return `<${tag}>${Object.entries(value)
      .map(([key, child]) => xmlElement(key, child))
      .join("")}</${tag}>`;
  }
  return `<${tag}>${escapeXml(String(value))}</${tag}>`;
}

function toXml(value: unknown): string {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 1) return xmlElement(entries[0]?.[0] ?? "request", entries[0]?.[1]);
  }
  return xmlElement("request", value);
}

const CONTENT_TYPES = {
  json: ["application/json", "application/json; charset=utf-8"],
  xml: ["application/xml", "text/xml"],
  form: ["application/x-www-form-urlencoded"],
};
const JUNK_CONTENT_TYPES = [
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "application/json; charset=utf-16",
  "application/vnd.api+json",
  "x/y;;;=",
  "application/x-www-form-urlencoded; charset=iso-8859-1",
  "application/xml; charset=utf-16",
];

/** Bodies no encoder would write, with the content type they claim: broken UTF-8, deep text, bombs. */
const RAW_BODIES: fc.Arbitrary<{ contentType: string; payload: string | Buffer }> = fc.oneof(
  ...(
    [
      [
        "application/json",
        Buffer.concat([Buffer.from('{"customer":{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}')]),
      ],
      ["application/json", Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])],
      ["application/json", "[".repeat(100_000)],
      ["application/json", `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`],
      ["application/json", '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'],
      ["application/json", "x".repeat(1024 * 1024 + 10)],
      [
        "application/xml",
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><r>&c;&c;&c;</r>',
      ],
      ["application/xml", `<a>${"<b>".repeat(5000)}${"</b>".repeat(5000)}</a>`],
      ["application/xml", Buffer.concat([Buffer.from("<a><b>"), Buffer.from([0xc3, 0x28]), Buffer.from("</b></a>")])],
      ["application/x-www-form-urlencoded", `a${"[b]".repeat(200)}=1`],
      ["application/x-www-form-urlencoded", "a=%C3%28&b=%zz&c[=1&&&=&"],
    ] as const
  ).map(([contentType, payload]) => fc.constant({ contentType, payload })),
  fc.record({
    contentType: fc.constantFrom(...JUNK_CONTENT_TYPES),
    payload: fc.uint8Array({ maxLength: 200 }).map(Buffer.from),
  }),
  fc.record({
    contentType: fc.constantFrom(...JUNK_CONTENT_TYPES),
    payload: fc.string({ unit: "binary", maxLength: 200 }),
  }),
);

function bodyFor(
  operation: Operation,
  hostility: number,
): fc.Arbitrary<{ contentType?: string; payload?: string | Buffer }> {
  const value = valueFor(operation.body ?? { type: "object" }, hostility);
  const encoded = fc
    .tuple(value, fc.constantFrom("json", "xml", "form") as fc.Arbitrary<keyof typeof CONTENT_TYPES>)
    .chain(([body, encoding]) =>
      fc.constantFrom(...CONTENT_TYPES[encoding]).map((contentType) => ({
        contentType,
        payload:
          encoding === "json"
            ? (JSON.stringify(body) ?? "null")
            : encoding === "xml"
              ? toXml(body)
              : qs.stringify(body),
      })),
    );
  const anyType = fc.constantFrom(...Object.values(CONTENT_TYPES).flat(), ...JUNK_CONTENT_TYPES);
  if (hostility === 0) return operation.body ? encoded : fc.constant({});
  return fc.oneof(
    { arbitrary: encoded, weight: operation.body ? 8 : 1 },
    { arbitrary: fc.tuple(encoded, anyType).map(([body, contentType]) => ({ ...body, contentType })), weight: 2 },
    { arbitrary: RAW_BODIES, weight: 2 },
    { arbitrary: fc.constant({}), weight: operation.body ? 1 : 6 },
  );
}

const headerText = fc.string({ unit: PRINTABLE, maxLength: 40 });

function headersFor(hostility: number): fc.Arbitrary<Record<string, string | undefined>> {
  if (hostility === 0) return fc.record({ "idempotency-key": fc.option(headerText, { nil: undefined }) });
  return fc.record(
    {
      "idempotency-key": fc.oneof(headerText, fc.constantFrom("fuzz-1", "fuzz-2", "x".repeat(300), "")),
      "x-request-id": fc.oneof(headerText, fc.constant("r".repeat(2000))),
      accept: fc.constantFrom("application/xml", "*/*", "text/html", "application/json;q=0"),
      "x-forwarded-for": headerText,
    },
    { requiredKeys: [] },
  );
}

const abbreviate = (text: string, limit: number) =>
  text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;

/** A request as a failure report shows it. */
function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? ""
      : Buffer.isBuffer(request.payload)
        ? `\n  body (bytes, hex): ${abbreviate(request.payload.toString("hex"), 2000)}`
        : `\n  body: ${abbreviate(request.payload, 2000)}`;
  return `${request.method} ${abbreviate(request.url, 300)} (authorization #${request.authorization})\n  headers: ${abbreviate(JSON.stringify(request.headers), 300)}${payload}`;
}

/** Requests for one operation: faithful to the schema, lightly or heavily corrupted. */
export function requestsFor(operation: Operation, accounts: FuzzAccounts): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(0, 3, 12).chain((hostility) => {
    const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
    const segments = fc.tuple(
      ...names.map((name) => {
        const parameter = operation.parameters.find((p) => p.in === "path" && p.name === name);
        return pathSegment(name, parameter?.schema, accounts, hostility);
      }),
    );
    const methods = ["GET", "POST", "PUT", "DELETE", "PATCH"];
    const method =
      hostility === 0
        ? fc.constant(operation.method)
        : fc.oneof({ arbitrary: fc.constant(operation.method), weight: 12 }, fc.constantFrom(...methods));
    return fc
      .record({
        method,
        segments,
        query: queryString(operation, hostility),
        body: bodyFor(operation, hostility),
        headers: headersFor(hostility),
        authorization: fc.oneof(
          { arbitrary: fc.integer({ min: 0, max: 1 }), weight: 8 },
          fc.integer({ min: 0, max: accounts.authorizations - 1 }),
        ),
      })
      .map(({ method, segments: values, query, body, headers, authorization }) => {
        let index = 0;
        const path = operation.path.replace(/\{[^}]+\}/g, () => String(values[index++]));
        const defined = Object.fromEntries(
          Object.entries({ ...headers, "content-type": body.contentType }).filter(
            (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
          ),
        );
        const request: FuzzRequest = {
          method,
          url: query ? `${path}?${query}` : path,
          authorization,
          headers: defined,
          payload: body.payload,
        };
        // Counterexamples carry megabyte bodies: the report shows their start and size.
        return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
      });
  });
}
