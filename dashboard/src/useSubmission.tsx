import { Alert } from "@mantine/core";
import { useState } from "react";
import { failureMessage } from "./api";

/**
 * A call the page makes on the user's behalf: `busy` while it runs, and `error`, the API's own
 * message (or the browser's), when it fails.
 */
export function useAttempt() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, attempt };
}

/**
 * A form's submission: `busy` while its call runs, then what came of it as an alert, the text the
 * work answers on success, or the API's own message on failure.
 */
export function useSubmission() {
  const { busy, error, attempt } = useAttempt();
  const [done, setDone] = useState<string | null>(null);
  const submit = (work: () => Promise<string>) => {
    setDone(null);
    return attempt(async () => setDone(await work()));
  };
  const outcome = error ? { ok: false, text: error } : done === null ? null : { ok: true, text: done };
  const outcomeAlert = outcome && (
    <Alert color={outcome.ok ? "green" : "red"} role={outcome.ok ? "status" : "alert"} mt="sm">
      {outcome.text}
    </Alert>
  );
  return { busy, submit, outcomeAlert };
}
