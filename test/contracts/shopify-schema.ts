import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import {
  buildClientSchema,
  type FieldNode,
  type GraphQLError,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  Kind,
  parse,
  type SelectionSetNode,
  TypeInfo,
  type ValueNode,
  validate,
  visit,
  visitWithTypeInfo,
} from "graphql";

/**
 * Shopify's Admin GraphQL schema (its own introspection result, ISC licence), read at test time
 * from `SHOPIFY_SCHEMA_DIR` (default `../shared/reference/shopify` beside the checkout) and not
 * shipped with the project. In CI (`CI` set) a missing file fails the tests; elsewhere they say
 * they skipped.
 */
const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const SHOPIFY_SCHEMA_FILE = path.resolve(
  PROJECT_ROOT,
  process.env.SHOPIFY_SCHEMA_DIR ?? "../shared/reference/shopify",
  "admin_schema_2025-01.json.gz",
);

/** Whether the schema is here; throws in CI, where a missing schema must fail rather than skip. */
export function shopifySchemaAvailable(): boolean {
  if (fs.existsSync(SHOPIFY_SCHEMA_FILE)) return true;
  if (process.env.CI) throw new Error(`Shopify's Admin schema is missing: ${SHOPIFY_SCHEMA_FILE}`);
  console.warn(`skipped: Shopify's Admin schema is not at ${SHOPIFY_SCHEMA_FILE} (set SHOPIFY_SCHEMA_DIR)`);
  return false;
}

let cached: GraphQLSchema | undefined;

export function shopifySchema(): GraphQLSchema {
  if (!cached) {
    const introspection = JSON.parse(gunzipSync(fs.readFileSync(SHOPIFY_SCHEMA_FILE)).toString("utf8"));
    // Shopify's schema breaks one of graphql-js's own consistency checks (a few implementations
    // deprecate an interface's field); that says nothing about the documents checked against it.
    cached = buildClientSchema(introspection.data ?? introspection, { assumeValid: true });
  }
  return cached;
}

/** The schema's objections to a document, as Shopify would answer them; empty when it validates. */
export function schemaViolations(schema: GraphQLSchema, query: string): string[] {
  try {
    return validate(schema, parse(query)).map((error) => error.message);
  } catch (error) {
    return [(error as GraphQLError).message];
  }
}

/** The deprecated fields a document reads (Shopify still answers them, until a version drops them). */
export function deprecatedFields(schema: GraphQLSchema, query: string): string[] {
  const found: string[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    parse(query),
    visitWithTypeInfo(typeInfo, {
      Field() {
        const field = typeInfo.getFieldDef();
        if (field?.deprecationReason) {
          found.push(`${typeInfo.getParentType()?.name}.${field.name}: ${field.deprecationReason}`);
        }
      },
    }),
  );
  return found;
}

const MUTATION_COST = 10;
const OBJECT_COST = 1;
const CONNECTION_COST = 2;

function argumentNumber(value: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!value) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const sent = variables[value.name.value];
    return typeof sent === "number" ? sent : undefined;
  }
  return undefined;
}

/**
 * A query's requested cost by Shopify's published rules, with the variables actually sent: a
 * scalar or enum costs 0, an object 1, a connection 2 + `first` (or `last`) × the cost of one of its
 * nodes, a mutation 10. With the schema, a connection is a field whose type's name ends in
 * `Connection`; without it (a stand-in run where the schema is not at hand), a field with a
 * selection and a `first` or `last` argument.
 */
export function requestedCost(query: string, variables: Record<string, unknown>, schema?: GraphQLSchema): number {
  const document = parse(query);
  const typeInfo = schema ? new TypeInfo(schema) : undefined;
  const typeNameOf = new Map<FieldNode, string>();
  if (schema && typeInfo) {
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const type = typeInfo.getType();
          if (type) typeNameOf.set(node, getNamedType(type).name);
        },
      }),
    );
  }
  const isConnection = (field: FieldNode) => {
    const typeName = typeNameOf.get(field);
    if (typeName !== undefined) return typeName.endsWith("Connection");
    return field.selectionSet !== undefined && field.arguments?.some((a) => ["first", "last"].includes(a.name.value));
  };
  const isObject = (field: FieldNode) => {
    const typeName = typeNameOf.get(field);
    if (schema && typeName !== undefined) {
      const type = schema.getType(typeName);
      return type !== undefined && type !== null && isCompositeType(type);
    }
    return field.selectionSet !== undefined;
  };

  /** The cost of what a selection asks for; inside a connection, `edges`, `node` and `nodes` are the node itself. */
  const selectionCost = (selection: SelectionSetNode | undefined, inConnection: boolean): number => {
    let sum = 0;
    for (const part of selection?.selections ?? []) {
      if (part.kind !== Kind.FIELD) {
        if (part.kind === Kind.INLINE_FRAGMENT) sum += selectionCost(part.selectionSet, inConnection);
        continue;
      }
      const name = part.name.value;
      if (inConnection && name === "pageInfo") continue;
      if (inConnection && name === "edges") {
        sum += selectionCost(part.selectionSet, true);
        continue;
      }
      if (inConnection && (name === "node" || name === "nodes")) {
        sum += fieldCost(part, true);
        continue;
      }
      sum += fieldCost(part, false);
    }
    return sum;
  };

  const fieldCost = (field: FieldNode, forceObject: boolean): number => {
    if (isConnection(field) && !forceObject) {
      const size =
        argumentNumber(field.arguments?.find((a) => a.name.value === "first")?.value, variables) ??
        argumentNumber(field.arguments?.find((a) => a.name.value === "last")?.value, variables) ??
        0;
      return CONNECTION_COST + size * selectionCost(field.selectionSet, true);
    }
    if (forceObject || isObject(field)) return OBJECT_COST + selectionCost(field.selectionSet, false);
    return 0;
  };

  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.operation === "mutation") {
      total += MUTATION_COST * definition.selectionSet.selections.length;
      continue;
    }
    // The query root itself is not charged; what it selects is.
    total += selectionCost(definition.selectionSet, false);
  }
  return total;
}
