import { Table } from "@mantine/core";

/** A table's head row, each heading scoped to its column for screen readers. */
export function ColumnHeads({ names }: { names: string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {names.map((name) => (
          <Table.Th key={name} scope="col">
            {name}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
