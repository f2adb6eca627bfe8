import { Alert } from "@mantine/core";
import { useState } from "react";
import { failureMessage } from "./api";

/**
 * A form's submission: `busy` while its call runs, then what came of it as an alert, the text the
 * work answers on success, or the API's own message on failure.
 */
export function useSubmission() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (work: () => Promise<string>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ ok: true, text: await work() });
    } catch (failure) {
      setOutcome({ ok: false, text: failureMessage(failure) });
    } finally {
      setBusy(false);
    }
  };
  const outcomeAlert = outcome && (
    <Alert color={outcome.ok ? "green" : "red"} role={outcome.ok ? "status" : "alert"} mt="sm">
      {outcome.text}
    </Alert>
  );
  return { busy, submit, outcomeAlert };
}
