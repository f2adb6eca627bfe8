import { Title } from "@mantine/core";
import { type ReactNode, useEffect, useRef } from "react";

/**
 * A page's heading, which takes the keyboard's focus when the page opens, as a page load would:
 * the next Tab goes on from the page's content, not from where the last page left it.
 */
export function PageTitle({ children }: { children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Title order={1} tabIndex={-1} ref={heading} mb="md">
      {children}
    </Title>
  );
}
