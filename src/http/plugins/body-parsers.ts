import { createRequire } from "node:module";
import type * as FastXmlParser from "fast-xml-parser";
import type { FastifyInstance, FastifyRequest } from "fastify";
import qs from "qs";
import { DomainError } from "../../domain/errors.js";
import { jsonNestsDeeperThan, MAX_BODY_DEPTH, tooDeep } from "./body-depth.js";

const malformed = (message: string) => new DomainError("request.malformed_body", message);

let xml: { parser: FastXmlParser.XMLParser; validator: typeof FastXmlParser.XMLValidator } | undefined;

/**
 * The XML parser, made with the first XML body instead of with the server: few clients send XML,
 * and the library's ES modules (two dozen files) were a part of every start-up; its CommonJS
 * build is one file (docs/performance.md, "Start-up").
 */
function xmlLibrary(): NonNullable<typeof xml> {
  if (xml) return xml;
  const { XMLParser, XMLValidator } = createRequire(import.meta.url)("fast-xml-parser") as typeof FastXmlParser;
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // The parser allows one element more than this.
    maxNestedTags: MAX_BODY_DEPTH - 1,
  });
  xml = { parser, validator: XMLValidator };
  return xml;
}
const XML_TOO_DEEP = "Maximum nested tags exceeded";

/** Root elements that only wrap a flat body, Rails-style: their children are the top-level keys. */
const WRAPPER_ROOTS = new Set(["request", "hash"]);

type XmlNode = string | { [key: string]: XmlNode | XmlNode[] };

/**
 * XML → the same object a JSON body would give: `type="array"` containers and repeated siblings
 * become arrays, `nil="true"` becomes null, text stays text (the schema coerces numbers).
 */
function xmlToPlain(node: XmlNode | XmlNode[]): unknown {
  if (Array.isArray(node)) return node.map(xmlToPlain);
  if (typeof node !== "object") return node;
  if (node["@nil"] === "true") return null;
  const children = Object.entries(node).filter(([key]) => !key.startsWith("@"));
  if (node["@type"] === "array") {
    return children.flatMap(([, value]) => (Array.isArray(value) ? value : [value]).map(xmlToPlain));
  }
  if (children.length === 1 && children[0]?.[0] === "#text") return xmlToPlain(children[0][1]);
  if (children.length === 0) return "";
  return Object.fromEntries(children.map(([key, value]) => [key, xmlToPlain(value)]));
}

/** A document type declaration anywhere: the only way to declare entities (internal or external). */
const DOCTYPE = /<!DOCTYPE/i;

/** An empty (or blank) body is no body: clients send `Content-Type` on bodiless calls too. */
const isBlank = (body: string) => body.trim() === "";

export function parseXmlBody(body: string): unknown {
  if (isBlank(body)) return undefined;
  // No request needs a DTD; refusing them leaves no declared entity to expand or fetch.
  if (DOCTYPE.test(body)) throw malformed("XML bodies may not declare a DOCTYPE.");
  const { parser, validator } = xmlLibrary();
  const verdict = validator.validate(body);
  if (verdict !== true) throw malformed(`The body is not well-formed XML: ${verdict.err.msg}`);
  let parsed: Record<string, XmlNode>;
  try {
    parsed = parser.parse(body) as Record<string, XmlNode>;
  } catch (error) {
    throw (error as Error).message === XML_TOO_DEEP ? tooDeep("elements") : error;
  }
  const roots = Object.entries(parsed);
  if (roots.length !== 1) throw malformed("An XML body must have exactly one root element.");
  const [rootName, rootValue] = roots[0] as [string, XmlNode];
  const plain = xmlToPlain(rootValue);
  if (WRAPPER_ROOTS.has(rootName)) return typeof plain === "object" && plain !== null ? plain : {};
  return { [rootName]: plain };
}

export function parseFormBody(body: string): unknown {
  if (isBlank(body)) return undefined;
  const start = body.trimStart()[0];
  if (start === "{" || start === "[" || start === "<") {
    throw malformed("The body looks like JSON or XML but Content-Type says form-urlencoded.");
  }
  try {
    return qs.parse(body, { depth: MAX_BODY_DEPTH, arrayLimit: 1000, parameterLimit: 10_000, strictDepth: true });
  } catch (error) {
    throw error instanceof RangeError && /depth/i.test(error.message) ? tooDeep("bracket levels") : error;
  }
}

type JsonTextParser = (
  request: FastifyRequest,
  text: string,
  done: (error: Error | null, body?: unknown) => void,
) => void;

/**
 * Fastify's JSON parser (which refuses prototype poisoning) behind a nesting check (deep bodies
 * overflow the stack of whatever walks them later). An empty body is no body: axios sends
 * `Content-Type: application/json` with nothing on `PUT …/cancel`.
 */
export function jsonTextParser(app: FastifyInstance): JsonTextParser {
  const json = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? "error",
    app.initialConfig.onConstructorPoisoning ?? "error",
  );
  return (request, text, done) => {
    if (isBlank(text)) return done(null, undefined);
    if (jsonNestsDeeperThan(text, MAX_BODY_DEPTH)) return done(tooDeep("objects and arrays"), undefined);
    json(request, text, done);
  };
}

/** JSON, XML and form bodies are turned into the same objects before validation. */
export function registerBodyParsers(app: FastifyInstance): void {
  const parseJson = jsonTextParser(app);
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) =>
    parseJson(request, body as string, done),
  );
  const parse = (parser: (body: string) => unknown) => async (_req: unknown, body: string | Buffer) => {
    try {
      return parser(body.toString());
    } catch (error) {
      throw error instanceof DomainError ? error : malformed(`The body cannot be parsed: ${(error as Error).message}`);
    }
  };
  app.addContentTypeParser(["application/xml", "text/xml"], { parseAs: "string" }, parse(parseXmlBody));
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, parse(parseFormBody));
  // Fastify reads text/plain as a string the schema then calls invalid; the caller's mistake is the
  // type, and saying so points at the fix. Blank stays no body, as under the other types.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser("*", { parseAs: "string" }, parse(unsupportedBody));
}

function unsupportedBody(body: string): unknown {
  if (isBlank(body)) return undefined;
  throw malformed(
    "This Content-Type is not supported; send application/json, application/xml or application/x-www-form-urlencoded.",
  );
}
