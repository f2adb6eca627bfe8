import type { KyselyPlugin, OperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, buildTestApp, createTestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { VISA } from "../helpers/payment-methods.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const UPS_GROUND = 666;

/** What a statement does and to which table, for a failure message that says where the count went. */
function describeNode(node: OperationNode): string {
  const table = (n: unknown): string | undefined => {
    if (!n || typeof n !== "object") return undefined;
    const record = n as Record<string, unknown>;
    if (record.kind === "TableNode") return (record.table as { identifier: { name: string } }).identifier.name;
    for (const key of ["into", "table", "from", "froms"]) {
      const value = record[key];
      const found = Array.isArray(value) ? value.map(table).find(Boolean) : table(value);
      if (found) return found;
    }
    return undefined;
  };
  return `${node.kind.replace("QueryNode", "").toLowerCase()} ${table(node) ?? "?"}`;
}

/** Counts the statements sent through the Kysely instance it is plugged into, BEGIN and COMMIT included. */
class StatementCounter implements KyselyPlugin {
  statements: string[] = [];
  transformQuery: KyselyPlugin["transformQuery"] = (args) => {
    this.statements.push(describeNode(args.node));
    return args.node;
  };
  transformResult: KyselyPlugin["transformResult"] = async (args) => args.result;
}

describe("the SQL a label purchase sends", () => {
  let t: TestApp;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("is at most 13 statements for a UPS ZPL label with automatic refill on, transactions' BEGIN and COMMIT included", async () => {
    const account = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, account.accountId);
    const card = await call(account.auth, "POST", "/payment_methods", {
      payment_method: { ...VISA, default_payment_method: true },
    });
    expect(card.statusCode, card.body).toBe(201);
    const settings = await call(account.auth, "PUT", "/meter", {
      meter: { refill_trigger_balance: 10, refill_amount: 100 },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const buy = () =>
      call(account.auth, "POST", "/shipments/ship", {
        shipment: shipmentToBuy({ service_id: UPS_GROUND, label_format: "zpl" }),
      });
    // The first purchase fills the per-process caches (carrier connections, statuses) as a running server has.
    expect((await buy()).statusCode).toBe(201);

    const counter = new StatementCounter();
    const plain = t.services.db;
    const counted = plain.withPlugin(counter);
    const transaction = counted.transaction.bind(counted);
    counted.transaction = () => {
      counter.statements.push("begin", "commit");
      return transaction();
    };
    t.services.db = counted;
    try {
      const response = await buy();
      expect(response.statusCode, response.body).toBe(201);
    } finally {
      t.services.db = plain;
    }
    expect(counter.statements.length, counter.statements.join("\n")).toBeLessThanOrEqual(13);
  });
});
