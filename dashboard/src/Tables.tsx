import { Alert, Button, Group, Table, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** A failure as the pages show it: announced to screen readers as it appears. */
export function ErrorAlert({ error }: { error: string | null }) {
  return error ? (
    <Alert color="red" role="alert" mb="md">
      {error}
    </Alert>
  ) : null;
}

/** A table's header row, every cell a column header. */
export function HeadRow({ columns }: { columns: string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((column) => (
          <Table.Th key={column} scope="col">
            {column}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/**
 * One page of a paged list (`X-Total-Count` rows in all): the caption counts them, and the
 * previous and next buttons move between pages.
 */
export function PagedTable({
  noun,
  total,
  rows,
  page,
  perPage,
  onPage,
  columns,
  children,
}: {
  noun: string;
  total: number;
  rows: number;
  page: number;
  perPage: number;
  onPage: (page: number) => void;
  columns: string[];
  children: ReactNode;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <>
      <Table striped highlightOnHover>
        <Table.Caption>{`${total} ${noun}${total === 1 ? "" : "s"}, page ${page} of ${pages}`}</Table.Caption>
        <HeadRow columns={columns} />
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
      {rows === 0 && <Text mt="md">No {noun}s match.</Text>}
      <Group mt="md">
        <Button variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous page
        </Button>
        <Button variant="default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next page
        </Button>
      </Group>
    </>
  );
}
