import { Button, Group } from "@mantine/core";
import type { ReactNode } from "react";

/** Previous and next page of a paged list, after any buttons of the page's own. */
export function Pager({
  page,
  pages,
  onPage,
  children,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  children?: ReactNode;
}) {
  return (
    <Group mt="md">
      {children}
      <Button variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </Button>
      <Button variant="default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </Button>
    </Group>
  );
}
