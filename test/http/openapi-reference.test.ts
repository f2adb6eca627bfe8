import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
};
interface Media {
  schema: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: unknown[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
interface Walked {
  name: string;
  operation: Operation;
}

const BODY_TYPES = ["application/json", "application/xml", "application/x-www-form-urlencoded"];

const examplesOf = (media: Media | undefined): unknown[] =>
  media
    ? [
        ...(media.example === undefined ? [] : [media.example]),
        ...Object.values(media.examples ?? {}).map((e) => e.value),
      ]
    : [];

/** The served document as a reader sees it: GET /api/v2/openapi.json, references resolved. */
async function servedDocument(t: TestApp): Promise<Walked[]> {
  const response = await t.app.inject({ url: "/api/v2/openapi.json" });
  expect(response.statusCode).toBe(200);
  const document = (await SwaggerParser.dereference(response.json())) as unknown as {
    paths: Record<string, Record<string, Operation>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
}

/** Every required field of `schema` present in `value`, as paths into it. */
function requiredPaths(schema: Schema, value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value) && schema.items) return requiredPaths(schema.items, value[0], [...path, 0]);
  if (schema.anyOf) {
    const objectBranch = schema.anyOf.find((branch) => branch.properties);
    return objectBranch && value && typeof value === "object" ? requiredPaths(objectBranch, value, path) : [];
  }
  if (!schema.properties || !value || typeof value !== "object") return [];
  const object = value as Record<string, unknown>;
  return Object.entries(schema.properties).flatMap(([key, property]) => [
    ...((schema.required ?? []).includes(key) ? [[...path, key]] : []),
    ...(key in object ? requiredPaths(property, object[key], [...path, key]) : []),
  ]);
}

function without(value: unknown, path: (string | number)[]): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  delete node[path.at(-1) as string | number];
  return copy;
}

describe("the OpenAPI document as a reference", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let operations: Walked[];
  const operation = (name: string) => {
    const found = operations.find((o) => o.name === name)?.operation;
    if (!found) throw new Error(`${name} is not in the document`);
    return found;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant, "test");
    await connectSandboxCarriers(t.services, merchant.accountId);
    operations = await servedDocument(t);
  });
  afterAll(() => t.close());

  it("describes every operation beyond its summary and the permission it needs", () => {
    expect(operations.length).toBeGreaterThan(100);
    const undescribed = operations
      .filter(({ operation }) => {
        const text = (operation.description ?? "").replace(/Needs the `\w+` permission \([^)]*\)\./, "").trim();
        return !operation.summary || text.length < 20;
      })
      .map((o) => o.name);
    expect(undescribed).toEqual([]);
  });

  it("lists the body formats Porter reads, each with an example that fits the schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    const problems: string[] = [];
    for (const { name, operation } of operations) {
      const content = operation.requestBody?.content;
      if (!content) continue;
      const missing = BODY_TYPES.filter((type) => !content[type]);
      if (missing.length > 0) problems.push(`${name}: no ${missing.join(", ")}`);
      const json = content["application/json"];
      const examples = examplesOf(json);
      if (examples.length === 0) problems.push(`${name}: no request example`);
      for (const example of examples) {
        if (!ajv.validate(json?.schema as object, example)) {
          problems.push(`${name}: request example does not fit: ${ajv.errorsText(ajv.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("shows an example answer for every success status, fitting its schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    const problems: string[] = [];
    for (const { name, operation } of operations) {
      const success = Object.keys(operation.responses)
        .filter((status) => /^2\d\d$/.test(status))
        .sort()[0];
      if (!success) {
        problems.push(`${name}: no success status`);
        continue;
      }
      const media = operation.responses[success]?.content?.["application/json"];
      if (!media) continue; // 204: no body to show
      const examples = examplesOf(media);
      if (examples.length === 0) problems.push(`${name}: no example answer for ${success}`);
      for (const example of examples) {
        if (!ajv.validate(media.schema as object, example)) {
          problems.push(`${name}: example answer does not fit: ${ajv.errorsText(ajv.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists 401, 403 and 429 wherever a key is needed, 400 and 413 on bodies, 400 on parameters, 404 on a child's routes", () => {
    const problems: string[] = [];
    for (const { name, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      // A key is needed where the document's own security applies: the operations that declare
      // theirs are public (`[]`) or the dashboard's session routes, which take no key.
      const authenticated = operation.security === undefined;
      const parameters = (operation.parameters ?? []).length > 0;
      const expected = [
        ...(authenticated ? ["401", "403", "429"] : []),
        ...(operation.requestBody ? ["400", "413"] : []),
        ...(parameters ? ["400"] : []),
        ...(name.includes("/{customer_id}/") ? ["404"] : []),
      ];
      const missing = expected.filter((status) => !statuses.includes(status));
      if (missing.length > 0) problems.push(`${name}: ${missing.join(", ")}`);
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        if (operation.responses[status]?.description === "Default Response") {
          problems.push(`${name}: ${status} undescribed`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it.each([
    ["POST /api/v2/shipments/ship", ["402", "503"]],
    ["POST /api/v2/shipments/ship_multiple", ["402", "503"]],
    ["POST /api/v2/customers/{customer_id}/shipments/ship", ["402", "503"]],
    ["PUT /api/v2/shipments/{id}/cancel", ["503"]],
    ["POST /api/v2/rates", ["503"]],
    ["POST /api/v2/carrier_accounts", ["503"]],
    ["POST /api/v2/pickups", ["503"]],
    ["POST /api/v2/shipments/batches", ["503"]],
  ])("lists what %s answers when money or a carrier fails", (name, statuses) => {
    expect(Object.keys(operation(name).responses)).toEqual(expect.arrayContaining(statuses));
  });

  it("requires no field the server fills in itself (package_type)", () => {
    const shipment = operation("POST /api/v2/shipments/ship").requestBody?.content["application/json"]?.schema
      .properties?.shipment as Schema;
    const parcel = shipment.properties?.parcels?.items as Schema;
    expect(parcel.required).not.toContain("package_type");
    const defaulted: string[] = [];
    const walk = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== "object") return;
      const node = schema as Schema;
      for (const name of Array.isArray(node.required) ? node.required : []) {
        if (node.properties?.[name]?.default !== undefined) defaulted.push(`${where}.${name}`);
      }
      for (const [key, child] of Object.entries(node)) walk(child, `${where}.${key}`);
    };
    for (const { name, operation } of operations) walk(operation.requestBody, name);
    expect(defaulted).toEqual([]);
  });

  it.each([
    ["POST /api/v2/rates", "/api/v2/rates", 10],
    ["POST /api/v2/shipments/ship", "/api/v2/shipments/ship", 15],
    ["POST /api/v2/payment_methods", "/api/v2/payment_methods", 6],
  ])(
    "%s: the example works, and each field the document requires is refused when left out",
    async (name, url, least) => {
      const media = operation(name).requestBody?.content["application/json"] as Media;
      const [example] = examplesOf(media);
      const post = (payload: unknown) =>
        t.app.inject({ method: "POST", url, headers: merchant.auth, payload: payload as object });
      const accepted = await post(example);
      expect(accepted.statusCode, accepted.body).toBe(201);

      const paths = requiredPaths(media.schema, example);
      expect(paths.length).toBeGreaterThanOrEqual(least);
      const accepting: string[] = [];
      for (const path of paths) {
        const response = await post(without(example, path));
        if (response.statusCode < 400) accepting.push(`${path.join(".")} → ${response.statusCode}`);
      }
      expect(accepting).toEqual([]);
    },
  );
});
