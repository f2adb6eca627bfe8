import SwaggerParser from "@apidevtools/swagger-parser";
import type { TestApp } from "./app.js";

const HTTP_METHODS = ["get", "post", "put", "delete", "patch"];

/** One operation of the served OpenAPI document, its references resolved. */
export interface ServedOperation {
  method: string;
  path: string;
  parameters: { in: string; name: string; required?: boolean; schema?: never }[];
  requestBody?: { content: Record<string, { schema: never }> };
  /** `[]` on the operations that need no key. */
  security?: unknown[];
  "x-permission"?: unknown;
}

/**
 * Every operation of the OpenAPI document the server serves at `/api/v2/openapi.json`, so tests
 * that walk the API take in an endpoint added later without a change.
 */
export async function servedOperations(t: TestApp): Promise<ServedOperation[]> {
  const document = (await t.app.inject({ url: "/api/v2/openapi.json" })).json();
  const resolved = (await SwaggerParser.dereference(structuredClone(document))) as {
    paths: Record<
      string,
      Record<string, Omit<ServedOperation, "method" | "path" | "parameters"> & Partial<ServedOperation>>
    >;
  };
  return Object.entries(resolved.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({
        ...operation,
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
      })),
  );
}
