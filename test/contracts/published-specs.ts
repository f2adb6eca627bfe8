import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { ErrorObject, ValidateFunction } from "ajv";
import AjvDraft04 from "ajv-draft-04";
import formats from "ajv-formats";
import { load as parseYaml } from "js-yaml";

/**
 * The carriers' published OpenAPI specifications, read at test time from `CARRIER_SPECS_DIR`
 * (default `../shared/carrier-apis` beside the checkout). They stay outside the project: their
 * licences do not let us ship them. In CI (`CI` set) a missing folder fails the contract tests;
 * elsewhere they say they skipped.
 */
const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const CARRIER_SPECS_DIR = path.resolve(PROJECT_ROOT, process.env.CARRIER_SPECS_DIR ?? "../shared/carrier-apis");

/** Whether the spec files are here; throws in CI, where a missing folder must fail rather than skip. */
export function carrierSpecsAvailable(): boolean {
  if (fs.existsSync(CARRIER_SPECS_DIR)) return true;
  if (process.env.CI) throw new Error(`the carriers' API specifications are missing: ${CARRIER_SPECS_DIR}`);
  console.warn(`skipped: the carriers' API specifications are not at ${CARRIER_SPECS_DIR} (set CARRIER_SPECS_DIR)`);
  return false;
}

/** A request as it left an adapter. */
export interface SentRequest {
  method: string;
  /** Path and query, as sent (the stand-in's origin removed). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body's text; parsed as JSON when the operation takes JSON. */
  body: string;
}

export interface Violation {
  /** `METHOD /path` as sent. */
  request: string;
  /** The spec file and its operation, when one matched. */
  operation?: string;
  /** Where in the request: `body/…`, `query.x`, `header.x`, `path.x`, or `route`. */
  where: string;
  message: string;
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: object;
}

interface Operation {
  file: string;
  method: string;
  template: string;
  pattern: RegExp;
  pathNames: string[];
  parameters: { parameter: Parameter; validate?: ValidateFunction }[];
  bodyRequired: boolean;
  jsonBody?: ValidateFunction;
  otherBodyTypes: string[];
  /** The JSON answers the operation documents, by status (`200`, `4XX`, `default`). */
  answers: Map<string, { validate?: ValidateFunction; example?: unknown }>;
  /** Each JSON media type's answer by status, for a request whose Accept names one (compiled when first asked). */
  answersByType: Map<string, Map<string, { validate: () => ValidateFunction | undefined; example?: unknown }>>;
}

type MediaType = { schema?: object; example?: unknown; examples?: Record<string, { value?: unknown }> };

type OpenApiDocument = {
  servers?: { url: string }[];
  paths?: Record<string, Record<string, unknown>>;
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** One spec file, parsed and dereferenced. Some carriers' YAML carries tabs that strict parsers refuse. */
async function readSpec(file: string): Promise<OpenApiDocument> {
  const text = fs.readFileSync(path.join(CARRIER_SPECS_DIR, file), "utf8");
  const document = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text.replace(/\t/g, "  "));
  const dereferenced = (await SwaggerParser.dereference(document as never, {
    dereference: { circular: "ignore" },
  })) as OpenApiDocument;
  closeComposedSchemas(dereferenced, new Set());
  return dereferenced;
}

type SchemaNode = {
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  properties?: Record<string, object>;
  required?: string[];
  additionalProperties?: unknown;
};

/** The media type a request's Accept header names (its first), lower case; "" without one. */
function acceptedType(request: SentRequest): string {
  const accept = Object.entries(request.headers).find(([name]) => name.toLowerCase() === "accept")?.[1];
  const first = (Array.isArray(accept) ? accept[0] : accept)?.split(",")[0] ?? "";
  return first.split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The property names a schema declares, its own and those of its `allOf` parts. */
function declaredProperties(schema: SchemaNode): string[] {
  return [...Object.keys(schema.properties ?? {}), ...(schema.allOf ?? []).flatMap(declaredProperties)];
}

/**
 * A schema composed with `allOf` whose whole or one of whose parts says `additionalProperties:
 * false` (USPS's do) means no property beyond those the parts declare together. Read literally,
 * draft-04 counts only that schema's own `properties` and would refuse its siblings' (even those
 * the same part requires); their names are added to it (allowing anything there: the part
 * declaring each still checks it).
 */
function closeComposedSchemas(node: unknown, seen: Set<object>): void {
  if (typeof node !== "object" || node === null || seen.has(node)) return;
  seen.add(node);
  const schema = node as SchemaNode;
  if (Array.isArray(schema.allOf)) {
    const names = declaredProperties(schema);
    for (const closed of [schema, ...schema.allOf].filter((s) => s.additionalProperties === false)) {
      const properties = { ...closed.properties };
      for (const name of names) properties[name] ??= {};
      closed.properties = properties;
    }
  }
  // A `oneOf` of one-property objects that require nothing (USPS's contact: an email or a cell
  // number) matches every branch at once, so nothing passes; each branch is read as requiring its property.
  if (
    Array.isArray(schema.oneOf) &&
    schema.oneOf.every((s) => !s.required && Object.keys(s.properties ?? {}).length === 1)
  ) {
    schema.oneOf = schema.oneOf.map((s) => ({ ...s, required: Object.keys(s.properties ?? {}) }));
  }
  for (const value of Object.values(node)) closeComposedSchemas(value, seen);
}

function serverPrefixes(document: OpenApiDocument, extra: readonly string[]): string[] {
  const prefixes = new Set<string>(extra);
  for (const server of document.servers ?? []) {
    const pathname = new URL(server.url, "http://relative").pathname.replace(/\/+$/, "");
    prefixes.add(pathname === "/" ? "" : pathname);
  }
  if (prefixes.size === 0) prefixes.add("");
  return [...prefixes];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Every operation a request is checked against, from spec files of one carrier. */
export class PublishedContract {
  readonly #operations: Operation[];

  private constructor(operations: Operation[]) {
    this.#operations = operations;
  }

  /**
   * Reads `files` (relative to the specs folder). `prefixes` adds path prefixes the carrier serves
   * an API under besides its spec's `servers` (a spec whose server is `/`).
   */
  static async load(files: readonly string[], prefixes: readonly string[] = []): Promise<PublishedContract> {
    // OpenAPI 3.0 schemas are draft-04 JSON Schema (a boolean `exclusiveMinimum`) with `nullable`;
    // formats the carriers invent (`Date`) are not checked, and not reported on every compile;
    // patterns are read as the carriers wrote them (DHL escapes `-`, which a Unicode pattern refuses);
    // schemas are not held to the meta-schema (DHL repeats values in an enum, which is harmless).
    // Both packages are CommonJS: under ESM their default export is the module, the class its `default`.
    const ajv = new AjvDraft04.default({
      strict: false,
      allErrors: true,
      logger: false,
      unicodeRegExp: false,
      validateSchema: false,
    });
    formats.default(ajv);
    const operations: Operation[] = [];
    for (const file of files) {
      const document = await readSpec(file);
      for (const prefix of serverPrefixes(document, prefixes)) {
        for (const [template, item] of Object.entries(document.paths ?? {})) {
          const shared = (item.parameters as Parameter[] | undefined) ?? [];
          for (const method of METHODS) {
            const operation = item[method] as
              | {
                  parameters?: Parameter[];
                  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
                  responses?: Record<string, { content?: Record<string, MediaType> }>;
                }
              | undefined;
            if (!operation) continue;
            const pathNames: string[] = [];
            const pattern = new RegExp(
              `^${escapeRegExp(prefix)}${template
                .split(/(\{[^}]+\})/)
                .map((part) => {
                  const name = /^\{([^}]+)\}$/.exec(part)?.[1];
                  if (!name) return escapeRegExp(part);
                  pathNames.push(name);
                  return "([^/]+)";
                })
                .join("")}/?$`,
            );
            const byKey = new Map<string, Parameter>();
            for (const p of [...shared, ...(operation.parameters ?? [])])
              byKey.set(`${p.in}:${p.name.toLowerCase()}`, p);
            const content = operation.requestBody?.content ?? {};
            const jsonType = Object.keys(content).find((type) => /json/i.test(type));
            operations.push({
              file,
              method: method.toUpperCase(),
              template: `${prefix}${template}`,
              pattern,
              pathNames,
              parameters: [...byKey.values()].map((parameter) => ({
                parameter,
                validate: parameter.schema ? ajv.compile(parameter.schema) : undefined,
              })),
              bodyRequired: operation.requestBody?.required === true,
              jsonBody:
                jsonType && content[jsonType]?.schema ? ajv.compile(content[jsonType].schema as object) : undefined,
              otherBodyTypes: Object.keys(content).filter((type) => type !== jsonType),
              answers: new Map(
                Object.entries(operation.responses ?? {}).map(([status, response]) => {
                  const media: MediaType | undefined = Object.entries(response.content ?? {}).find(([type]) =>
                    /json/i.test(type),
                  )?.[1];
                  return [
                    status,
                    {
                      validate: media?.schema ? ajv.compile(media.schema) : undefined,
                      example: media?.example ?? Object.values(media?.examples ?? {})[0]?.value,
                    },
                  ];
                }),
              ),
              answersByType: new Map(
                Object.entries(operation.responses ?? {}).map(([status, response]) => [
                  status,
                  new Map(
                    Object.entries(response.content ?? {})
                      .filter(([type]) => /json/i.test(type))
                      .map(([type, media]) => {
                        let compiled: ValidateFunction | undefined;
                        const validate = () => {
                          if (media.schema) compiled ??= ajv.compile(media.schema);
                          return compiled;
                        };
                        return [
                          type,
                          { validate, example: media.example ?? Object.values(media.examples ?? {})[0]?.value },
                        ];
                      }),
                  ),
                ]),
              ),
            });
          }
        }
      }
    }
    // A literal path wins over a template that also matches it (`/labels/search` over `/labels/{id}`).
    operations.sort((a, b) => a.pathNames.length - b.pathNames.length);
    return new PublishedContract(operations);
  }

  /** The operation a request is for, if the spec has one. */
  operationOf(request: SentRequest): string | undefined {
    const found = this.#match(request);
    return found && `${found.operation.method} ${found.operation.template}`;
  }

  /** What in `request` the published operation does not allow; empty when it conforms. */
  check(request: SentRequest): Violation[] {
    const url = new URL(request.url, "http://stand-in");
    const label = `${request.method} ${url.pathname}`;
    const found = this.#match(request);
    if (!found)
      return [
        { request: label, where: "route", message: "no operation of the published spec has this method and path" },
      ];
    const { operation, pathValues } = found;
    const name = `${operation.file}: ${operation.method} ${operation.template}`;
    const violations: Violation[] = [];
    const add = (where: string, message: string) =>
      violations.push({ request: label, operation: name, where, message });
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));

    for (const { parameter, validate } of operation.parameters) {
      const where = `${parameter.in}.${parameter.name}`;
      let raw: string | undefined;
      if (parameter.in === "path") raw = pathValues[parameter.name];
      else if (parameter.in === "query") raw = url.searchParams.get(parameter.name) ?? undefined;
      else if (parameter.in === "header") {
        const value = headers[parameter.name.toLowerCase()];
        raw = Array.isArray(value) ? value.join(", ") : value;
      } else continue;
      if (raw === undefined) {
        if (parameter.required) add(where, "is required");
        continue;
      }
      if (validate && !validate(fromText(raw, parameter.schema))) add(where, describe(validate.errors));
    }

    if (request.body.length === 0) {
      if (operation.bodyRequired) add("body", "is required");
      return violations;
    }
    if (!operation.jsonBody) {
      if (operation.otherBodyTypes.length === 0) add("body", "the operation takes no body");
      return violations;
    }
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      add("body", "is not JSON");
      return violations;
    }
    if (!operation.jsonBody(body)) {
      for (const error of (operation.jsonBody.errors ?? []).filter(failing))
        add(`body${error.instancePath}`, describe([error]));
    }
    return violations;
  }

  /**
   * The spec's own example of the operation's first documented success answer, for a stand-in
   * that answers what the carrier documents rather than what we think it sends.
   */
  exampleAnswer(request: SentRequest): { status: number; body: unknown } | undefined {
    const found = this.#match(request);
    if (!found) return undefined;
    const accepted = acceptedType(request);
    for (const [status, answer] of [...found.operation.answers].sort(([a], [b]) => a.localeCompare(b))) {
      const example = found.operation.answersByType.get(status)?.get(accepted)?.example ?? answer.example;
      if (/^2\d\d$/.test(status) && example !== undefined) return { status: Number(status), body: example };
    }
    return undefined;
  }

  /** What in an answer to `request` the published operation does not document; empty when it conforms. */
  checkAnswer(request: SentRequest, status: number, body: unknown): Violation[] {
    const found = this.#match(request);
    const label = `${request.method} ${new URL(request.url, "http://stand-in").pathname} answered ${status}`;
    if (!found)
      return [
        { request: label, where: "route", message: "no operation of the published spec has this method and path" },
      ];
    const { answers, answersByType, file, method, template } = found.operation;
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => answers.has(k));
    const asAccepted = key === undefined ? undefined : answersByType.get(key)?.get(acceptedType(request));
    const answer = asAccepted ? { validate: asAccepted.validate() } : key === undefined ? undefined : answers.get(key);
    if (!answer)
      return [
        { request: label, operation: `${file}: ${method} ${template}`, where: "status", message: "is not documented" },
      ];
    if (!answer.validate || answer.validate(body)) return [];
    return (answer.validate.errors ?? []).filter(failing).map((error) => ({
      request: label,
      operation: `${file}: ${method} ${template}`,
      where: `answer${error.instancePath}`,
      message: describe([error]),
    }));
  }

  #match(request: SentRequest): { operation: Operation; pathValues: Record<string, string> } | undefined {
    const pathname = new URL(request.url, "http://stand-in").pathname;
    for (const operation of this.#operations) {
      if (operation.method !== request.method.toUpperCase()) continue;
      const match = operation.pattern.exec(pathname);
      if (!match) continue;
      const pathValues = Object.fromEntries(
        operation.pathNames.map((n, i) => [n, decodeURIComponent(match[i + 1] ?? "")]),
      );
      return { operation, pathValues };
    }
    return undefined;
  }
}

/** A path, query or header value as its schema's type: text arrives for every type. */
function fromText(raw: string, schema: object | undefined): unknown {
  const type = (schema as { type?: string } | undefined)?.type;
  if (type === "integer" || type === "number") return raw.trim() === "" ? raw : Number(raw);
  if (type === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  if (type === "array") return raw.split(",");
  return raw;
}

/**
 * FedEx's specs list their sample payloads as a body's `oneOf`, and a request fits several of
 * them: a `oneOf` that more than one alternative passes is read as `anyOf`. One that none passes
 * still fails, with the alternatives' own errors.
 */
function failing(error: ErrorObject): boolean {
  return !(error.keyword === "oneOf" && Array.isArray((error.params as { passingSchemas?: unknown }).passingSchemas));
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => `${e.instancePath || "(value)"} ${e.message ?? ""}${paramsText(e)}`.trim())
    .join("; ");
}

function paramsText(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (params.allowedValues) return ` (${(params.allowedValues as unknown[]).join(", ")})`;
  if (params.missingProperty) return "";
  if (params.additionalProperty) return ` (${params.additionalProperty})`;
  return "";
}

const loaded = new Map<string, Promise<PublishedContract>>();

/** The contract of `files`, read once per test process (a large spec takes a second to read). */
export function publishedContract(
  files: readonly string[],
  prefixes: readonly string[] = [],
): Promise<PublishedContract> {
  const key = JSON.stringify([files, prefixes]);
  let contract = loaded.get(key);
  if (!contract) {
    contract = PublishedContract.load(files, prefixes);
    loaded.set(key, contract);
  }
  return contract;
}
