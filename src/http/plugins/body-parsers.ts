import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { FastifyInstance } from "fastify";
import qs from "qs";
import { DomainError } from "../../domain/errors.js";

const malformed = (message: string) => new DomainError("request.malformed_body", message);

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

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

export function parseXmlBody(body: string): unknown {
  if (body.trim() === "") throw malformed("The XML body is empty.");
  const verdict = XMLValidator.validate(body);
  if (verdict !== true) throw malformed(`The body is not well-formed XML: ${verdict.err.msg}`);
  const parsed = xml.parse(body) as Record<string, XmlNode>;
  const roots = Object.entries(parsed);
  if (roots.length !== 1) throw malformed("An XML body must have exactly one root element.");
  const [rootName, rootValue] = roots[0] as [string, XmlNode];
  const plain = xmlToPlain(rootValue);
  if (WRAPPER_ROOTS.has(rootName)) return typeof plain === "object" && plain !== null ? plain : {};
  return { [rootName]: plain };
}

export function parseFormBody(body: string): unknown {
  const start = body.trimStart()[0];
  if (start === "{" || start === "[" || start === "<") {
    throw malformed("The body looks like JSON or XML but Content-Type says form-urlencoded.");
  }
  return qs.parse(body, { depth: 12, arrayLimit: 1000, parameterLimit: 10_000, strictDepth: true });
}

/** JSON is Fastify's own; XML and form bodies are turned into the same objects before validation. */
export function registerBodyParsers(app: FastifyInstance): void {
  const parse = (parser: (body: string) => unknown) => async (_req: unknown, body: string | Buffer) => {
    try {
      return parser(body.toString());
    } catch (error) {
      throw error instanceof DomainError ? error : malformed(`The body cannot be parsed: ${(error as Error).message}`);
    }
  };
  app.addContentTypeParser(["application/xml", "text/xml"], { parseAs: "string" }, parse(parseXmlBody));
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, parse(parseFormBody));
}
