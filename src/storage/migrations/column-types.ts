import type { ColumnDefinitionBuilder, CreateTableBuilder } from "kysely";
import type { DialectName } from "../db.js";

/** An auto-numbered integer primary key, spelled the way each engine wants it. */
export function withIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: DialectName,
): CreateTableBuilder<T, "id"> {
  return dialect === "postgres"
    ? table.addColumn("id", "serial", (c: ColumnDefinitionBuilder) => c.primaryKey())
    : table.addColumn("id", "integer", (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}
