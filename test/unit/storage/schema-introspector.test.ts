import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../../src/storage/migrate.js";
import { createTestDatabase, type TestDatabase, testDialect } from "../../helpers/database.js";

// The introspector exists for PostgreSQL, where one server holds many schemas.
describe.skipIf(testDialect() !== "postgres")("schema-scoped introspection", () => {
  let database: TestDatabase;
  let neighbour: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    neighbour = await createTestDatabase();
    await sql`create table only_in_neighbour (id integer)`.execute(neighbour.db.kysely);
  });
  afterAll(async () => {
    await database.drop();
    await neighbour.drop();
  });

  it("lists the connection's own schema and its tables, not another schema's", async () => {
    const introspection = database.db.kysely.introspection;
    expect(await introspection.getSchemas()).toEqual([{ name: database.schema }]);
    const tables = await introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.every((table) => table.schema === database.schema)).toBe(true);
    const names = tables.map((table) => table.name);
    expect(names).toContain("shipments");
    expect(names).toContain("kysely_migration");
    expect(names).not.toContain("only_in_neighbour");
    expect((await introspection.getTables()).map((table) => table.name)).not.toContain("kysely_migration");
  });

  it("describes columns: type, nullability, defaults and auto-numbering", async () => {
    const tables = await database.db.kysely.introspection.getTables();
    const accounts = tables.find((table) => table.name === "accounts");
    const id = accounts?.columns.find((column) => column.name === "id");
    expect(id).toMatchObject({ isAutoIncrementing: true, isNullable: false });
    expect(accounts?.columns.find((column) => column.name === "parent_id")).toMatchObject({ isNullable: true });
  });

  it("migrates while other schemas on the server are created and dropped", async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const churn = (async () => {
      for (let i = 0; i < 40; i++) {
        const name = `porter_churn_${process.pid}_${i}`;
        await admin.query(`create schema ${name}`);
        await admin.query(`create table ${name}.t (id serial primary key)`);
        await admin.query(`drop schema ${name} cascade`);
      }
    })();
    const fresh = await Promise.all([createTestDatabase(), createTestDatabase(), createTestDatabase()]);
    await churn;
    await admin.end();
    for (const each of fresh) {
      expect((await migrateToLatest(each.db)).results).toEqual([]);
      await each.drop();
    }
  });
});
