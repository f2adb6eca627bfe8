import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRANTED_BY, PERMISSIONS, type Permission, ROLES, type Role } from "../../src/domain/accounts/roles.js";
import { addTestUser, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { servedOperations } from "../helpers/openapi.js";

const MISSING_ID = "999999";

/** The role table of docs/security.md: which roles grant each permission, and the operations it lists. */
function documentedRoleTable(): { grants: Record<string, Role[]>; listed: Record<string, string[]> } {
  const text = fs.readFileSync(new URL("../../docs/security.md", import.meta.url), "utf8");
  const section = text.slice(text.indexOf("## Roles"), text.indexOf("## Secrets at rest"));
  const lines = section.split("\n").filter((line) => line.startsWith("|"));
  const header = (lines[0] ?? "").split("|").map((cell) => cell.trim());
  const grants: Record<string, Role[]> = {};
  const listed: Record<string, string[]> = {};
  for (const line of lines.slice(2)) {
    const cells = line.split("|").map((cell) => cell.trim());
    const permission = /^`(\w+)`$/.exec(cells[1] ?? "")?.[1];
    if (!permission) continue;
    grants[permission] = header.filter(
      (name, i) => (ROLES as readonly string[]).includes(name) && cells[i] === "✓",
    ) as Role[];
    listed[permission] = [...(cells.at(-2) ?? "").matchAll(/`(GET|POST|PUT|DELETE|PATCH) ([^`]+)`/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
  }
  return { grants, listed };
}

interface Operation {
  method: string;
  path: string;
  permission: unknown;
  public: boolean;
  pathParams: { name: string; type: string }[];
}

/** Every operation the server's OpenAPI document lists, with the permission it declares. */
async function declaredOperations(t: TestApp): Promise<Operation[]> {
  return (await servedOperations(t)).map((operation) => ({
    method: operation.method,
    path: operation.path,
    permission: operation["x-permission"],
    // Behind no key: the operations that declare a security of their own without the bearer key
    // (platform webhooks, and the dashboard's session, whose user's roles the API routes check).
    public:
      Array.isArray(operation.security) &&
      !operation.security.some((scheme) => Object.hasOwn(scheme as object, "apiKey")),
    pathParams: operation.parameters
      .filter((p) => p.in === "path")
      .map((p) => ({ name: p.name, type: (p.schema as { type?: string } | undefined)?.type ?? "string" })),
  }));
}

describe("authorization: every operation of the OpenAPI document answers each role as the role table says", () => {
  const table = documentedRoleTable();
  let t: TestApp;
  let childId: number;
  let operations: Operation[];
  /** One caller per role, each holding that role alone (the key stays: the role was changed since). */
  const callers = new Map<Role, TestAccount>();

  beforeAll(async () => {
    t = await buildTestApp();
    const parent = await createTestAccount(t.services);
    childId = (await createTestAccount(t.services, { parentId: parent.accountId })).accountId;
    for (const role of ROLES) {
      const caller = await addTestUser(t.services, parent.accountId, ["API"]);
      await t.services.db.updateTable("users").set({ roles: role }).where("id", "=", caller.userId).execute();
      callers.set(role, caller);
    }
    operations = await declaredOperations(t);
  });
  afterAll(() => t.close());

  it("documents in docs/security.md the role table the server enforces", () => {
    expect(table.grants).toEqual(Object.fromEntries(PERMISSIONS.map((p) => [p, [...GRANTED_BY[p]].sort(byRole)])));
  });

  it("has every operation behind a key declare a known permission, and lists the non-shipping ones in the docs", () => {
    const undeclared = operations.filter((op) => !op.public && !PERMISSIONS.includes(op.permission as Permission));
    expect(undeclared.map((op) => `${op.method} ${op.path}`)).toEqual([]);
    expect(operations.filter((op) => op.public && op.permission !== undefined)).toEqual([]);
    for (const permission of PERMISSIONS.filter((p) => p !== "shipping")) {
      const served = operations
        .filter((op) => op.permission === permission)
        .map((op) => `${op.method} ${op.path.replace(/^\/api\/v2/, "")}`);
      expect(served.sort(), permission).toEqual([...(table.listed[permission] ?? [])].sort());
    }
  });

  it("answers 403 errors.forbidden to every role the table does not allow, and never 403 to one it does", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const op of operations.filter((o) => !o.public)) {
      const url = op.pathParams.reduce(
        (path, param) =>
          path.replace(
            `{${param.name}}`,
            param.name === "customer_id" ? String(childId) : param.type === "integer" ? MISSING_ID : "no-such-thing",
          ),
        op.path,
      );
      const allowedRoles = table.grants[op.permission as string] ?? [];
      await Promise.all(
        ROLES.map(async (role) => {
          const response = await t.app.inject({
            method: op.method as "GET",
            url,
            headers: callers.get(role)?.auth,
            ...(op.method === "POST" || op.method === "PUT" ? { payload: {} } : {}),
          });
          checked += 1;
          const allowed = allowedRoles.includes(role);
          const what = `${role} ${op.method} ${url} → ${response.statusCode} ${response.body.slice(0, 200)}`;
          if (allowed && (response.statusCode === 403 || response.statusCode === 401)) wrong.push(`allowed: ${what}`);
          if (!allowed) {
            const body = response.statusCode === 403 ? response.json() : undefined;
            if (
              body?.error_code !== "errors.forbidden" ||
              body.status !== "error" ||
              typeof body.error_message !== "string" ||
              Object.keys(body).length !== 3
            ) {
              wrong.push(`refused: ${what}`);
            }
          }
        }),
      );
    }
    expect(wrong).toEqual([]);
    // Every operation was tried with every role: a walk that found nothing proves nothing.
    expect(checked).toBe(operations.filter((o) => !o.public).length * ROLES.length);
    expect(checked).toBeGreaterThan(100 * ROLES.length);
  });
});

function byRole(a: Role, b: Role): number {
  const order = ["API", "Billing", "Primary", "Owner", "Member"];
  return order.indexOf(a) - order.indexOf(b);
}
