import type { FastifyError, FastifyInstance } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { asPartUnavailable, DomainError } from "../../domain/errors.js";
import { errorBody, statusOf } from "../errors.js";

const METHODS: HTTPMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * For a route whose body is a list of independent items (`{"shipments": [...]}`): the code a
     * schema violation inside one item answers with, so the caller hears which item failed under
     * the same code as the route's own per-item checks.
     */
    itemErrors?: { list: string; code: string };
  }
}

interface ValidationIssue {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `body/shipment/parcels/0` + missing `weight` → `shipment.parcels[0].weight`. */
function fieldPath(issue: ValidationIssue, context: string | undefined): string {
  const parts = issue.instancePath.split("/").filter(Boolean);
  if (issue.keyword === "required") parts.push(String(issue.params.missingProperty));
  if (issue.keyword === "additionalProperties") parts.push(String(issue.params.additionalProperty));
  const path = parts.reduce(
    (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
    "",
  );
  return path || (context ?? "body");
}

/**
 * The values a closed list takes: an `enum`'s own list, or the literals of a union of literals,
 * which the validator reports as one `const` failure per branch of an `anyOf` (each saying only
 * "must be equal to constant"). Undefined when the issue is of another kind.
 */
function allowedValues(issue: ValidationIssue, issues: ValidationIssue[]): unknown[] | undefined {
  if (issue.keyword === "enum" && Array.isArray(issue.params.allowedValues)) return issue.params.allowedValues;
  if (issue.keyword !== "const" || !issue.schemaPath) return undefined;
  const unionOf = (other: ValidationIssue) => other.schemaPath?.match(/^(.*\/anyOf)\/\d+\/(const|type)$/)?.[1];
  const union = unionOf(issue);
  if (!union) return [issue.params.allowedValue];
  const branches = issues.filter((other) => other.instancePath === issue.instancePath && unionOf(other) === union);
  // A literal union that also takes null (`Union([Literal, …, Null])`) says so last.
  return [
    ...branches.filter((other) => other.keyword === "const").map((other) => other.params.allowedValue),
    ...(branches.some((other) => other.keyword === "type" && other.params.type === "null") ? [null] : []),
  ];
}

/** "be one of a, b, null", or "be a" for a single value. */
function spelledValues(values: unknown[]): string {
  const spelled = values.map(String);
  return spelled.length === 1 ? `be ${spelled[0]}` : `be one of ${spelled.join(", ")}`;
}

function describeValidation(error: FastifyError): string {
  const issues = (error.validation ?? []) as ValidationIssue[];
  const issue = issues[0];
  if (!issue) return error.message;
  const where = fieldPath(issue, error.validationContext);
  const source = error.validationContext && error.validationContext !== "body" ? ` (${error.validationContext})` : "";
  if (issue.keyword === "required") return `${where}${source} is required.`;
  if (issue.keyword === "additionalProperties") return `${where}${source} is not a known field.`;
  const allowed = allowedValues(issue, issues);
  if (allowed) return `${where}${source} must ${spelledValues(allowed)}.`;
  return `${where}${source} ${issue.message ?? "is invalid"}.`;
}

/**
 * Every failure leaves in the API's error body with the right status: domain outcomes by their
 * code, framework errors (bad bodies, schema violations, size) mapped here, anything else a 500
 * with no detail beyond the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  // A shadow router of every path and method, to tell "no such path" (404) from "wrong method" (405).
  const knownPaths = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !knownPaths.hasRoute(method as HTTPMethod, route.url)) {
        knownPaths.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const allowed = METHODS.filter((method) => knownPaths.find(method, path) !== null);
    // A route of this very method that finds nothing (a file the docs do not have) is a 404.
    if (allowed.length > 0 && !allowed.includes(request.method as HTTPMethod)) {
      return reply
        .code(405)
        .header("allow", allowed.join(", "))
        .send(
          errorBody(
            "route.method_not_allowed",
            `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}.`,
          ),
        );
    }
    return reply.code(404).send(errorBody("route.not_found", `No route ${request.method} ${path}.`));
  });

  app.setErrorHandler(async (error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) {
      if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
      return reply.code(statusOf(error.code)).send(errorBody(error.code, error.message));
    }
    const unavailable = asPartUnavailable(error);
    if (unavailable) {
      // The cause (which part, why) is the operator's; the client hears only to come back.
      request.log.warn({ err: error }, "a part Porter depends on is unavailable");
      if (unavailable.retryAfterSeconds !== undefined)
        reply.header("retry-after", String(unavailable.retryAfterSeconds));
      return reply.code(503).send(errorBody(unavailable.code, unavailable.message));
    }
    if (error.validation) {
      const items = request.routeOptions.config.itemErrors;
      const first = error.validation[0] as ValidationIssue | undefined;
      const inItem =
        items !== undefined &&
        error.validationContext === "body" &&
        first?.instancePath.startsWith(`/${items.list}/`) === true;
      const described = describeValidation(error);
      if (!inItem || !items) return reply.code(400).send(errorBody("request.invalid", described));
      const index = first?.instancePath.split("/")[2];
      return reply.code(400).send(errorBody(items.code, `${items.list}[${index}]: ${described}`));
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply.code(413).send(errorBody("request.too_large", "The request body is too large."));
    }
    if (error.code?.startsWith("FST_ERR_CTP_") || (error instanceof SyntaxError && error.statusCode === 400)) {
      return reply
        .code(400)
        .send(errorBody("request.malformed_body", `The request body cannot be read: ${error.message}`));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply
      .code(500)
      .send(errorBody("errors.internal", `Something went wrong on our side; quote request id ${request.id}.`));
  });
}
