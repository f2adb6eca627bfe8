import { Table, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ColumnHeads } from "./ColumnHeads";
import { Pager } from "./Pager";

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
        <ColumnHeads names={columns} />
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
      {rows === 0 && <Text mt="md">No {noun}s match.</Text>}
      <Pager page={page} pages={pages} onPage={onPage} />
    </>
  );
}
