import { Alert } from "@mantine/core";

/**
 * What the last action did: a notice read out politely (`status`), an error read out at once
 * (`alert`).
 */
export function Feedback({ notice, error }: { notice?: string | null; error?: string | null }) {
  return (
    <>
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </>
  );
}
