import { Alert, Card, Loader, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { api, failureMessage, money } from "../api";
import { PageTitle } from "../PageTitle";

interface Meter {
  balance: number;
  refill_trigger_balance: number | null;
  refill_amount: number | null;
}

/** The meter's balance in the session's mode, and its automatic refill. */
export function MeterPage() {
  const [meter, setMeter] = useState<Meter | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<{ meter: Meter }>("/api/v2/meter").then(
      (answer) => setMeter(answer.meter),
      (failure) => setError(failureMessage(failure)),
    );
  }, []);
  return (
    <>
      <PageTitle>Meter</PageTitle>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {!meter && !error && <Loader aria-label="Loading the meter" />}
      {meter && (
        <Card withBorder maw={420}>
          <Text size="sm">Balance</Text>
          <Text size="xl" fw={700} data-testid="meter-balance">
            {money(meter.balance)}
          </Text>
          <Text size="sm" mt="sm">
            {meter.refill_trigger_balance === null
              ? "Automatic refill is off."
              : `Refills ${money(meter.refill_amount)} when the balance falls below ${money(meter.refill_trigger_balance)}.`}
          </Text>
        </Card>
      )}
    </>
  );
}
