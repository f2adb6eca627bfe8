import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { api, failureMessage, methodName, money, type PaymentMethod, type Permission } from "../api";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";
import { useSubmission } from "../useSubmission";

interface Meter {
  balance: number;
  refill_trigger_balance: number | null;
  refill_amount: number | null;
}

/**
 * The meter's balance in the session's mode (the `shipping` permission), refills and automatic
 * refill (`billing`): a user sees the parts their roles allow.
 */
export function MeterPage({ permissions }: { permissions: Permission[] }) {
  const canRead = permissions.includes("shipping");
  const canPay = permissions.includes("billing");
  const [meter, setMeter] = useState<Meter | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!canRead) return;
    api.get<{ meter: Meter }>("/api/v2/meter").then(
      (answer) => setMeter(answer.meter),
      (failure) => setError(failureMessage(failure)),
    );
  }, [canRead]);
  return (
    <>
      <PageTitle>Meter</PageTitle>
      <Feedback error={error} />
      {canRead && !meter && !error && <Loader aria-label="Loading the meter" />}
      {!canRead && !meter && <Text mb="md">Your roles do not show the balance; it is shown after a refill.</Text>}
      {meter && (
        <Card withBorder maw={420} mb="md">
          <Text size="sm">Balance</Text>
          <Text size="xl" fw={700} data-testid="meter-balance">
            {money(meter.balance)}
          </Text>
          <Text size="sm" mt="sm" data-testid="meter-refill-setting">
            {meter.refill_trigger_balance === null
              ? "Automatic refill is off."
              : `Refills ${money(meter.refill_amount)} when the balance falls below ${money(meter.refill_trigger_balance)}.`}
          </Text>
        </Card>
      )}
      {canPay && <MeterControls meter={meter} onMeter={setMeter} />}
    </>
  );
}

function MeterControls({ meter, onMeter }: { meter: Meter | null; onMeter: (meter: Meter) => void }) {
  const [methods, setMethods] = useState<PaymentMethod[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<{ payment_methods: PaymentMethod[] }>("/api/v2/payment_methods").then(
      (answer) => setMethods(answer.payment_methods),
      (failure) => setError(failureMessage(failure)),
    );
  }, []);
  if (error) {
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  }
  if (!methods) return <Loader aria-label="Loading the payment methods" />;
  if (methods.length === 0) {
    return (
      <Text>
        Add a payment method on the <Anchor href="#/payment-methods">Payment methods</Anchor> page to refill the meter.
      </Text>
    );
  }
  return (
    <Stack maw={520}>
      <RefillForm methods={methods} onMeter={onMeter} />
      <AutomaticRefillForm key={meter ? "read" : "unread"} meter={meter} onMeter={onMeter} />
    </Stack>
  );
}

/** `POST /meter/refill`: the amount is sent as typed, a decimal string the API checks to the cent. */
function RefillForm({ methods, onMeter }: { methods: PaymentMethod[]; onMeter: (meter: Meter) => void }) {
  const [amount, setAmount] = useState("");
  const [methodId, setMethodId] = useState("");
  const { busy, submit, outcomeAlert } = useSubmission();
  const refill = (event: FormEvent) => {
    event.preventDefault();
    submit(async () => {
      const answer = await api.send<{ refill: { description: string }; meter: Meter }>("POST", "/api/v2/meter/refill", {
        amount: amount.trim(),
        ...(methodId ? { payment_method_id: Number(methodId) } : {}),
      });
      onMeter(answer.meter);
      setAmount("");
      return `${answer.refill.description}. New balance ${money(answer.meter.balance)}.`;
    });
  };
  return (
    <form onSubmit={refill} aria-label="Refill now">
      <Fieldset legend="Refill now">
        <Group align="end">
          <TextInput
            label="Amount (USD)"
            description="1.00 to 10,000.00"
            inputMode="decimal"
            required
            value={amount}
            onChange={(event) => setAmount(event.currentTarget.value)}
          />
          <NativeSelect
            label="Charge"
            value={methodId}
            data={[
              { value: "", label: "The default method" },
              ...methods.map((m) => ({ value: String(m.id), label: methodName(m) })),
            ]}
            onChange={(event) => setMethodId(event.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            Refill now
          </Button>
        </Group>
        {outcomeAlert}
      </Fieldset>
    </form>
  );
}

const asText = (value: number | null | undefined) => (value === null || value === undefined ? "" : value.toFixed(2));

/** `PUT /meter`: both settings, or both null to turn automatic refill off. */
function AutomaticRefillForm({ meter, onMeter }: { meter: Meter | null; onMeter: (meter: Meter) => void }) {
  const [on, setOn] = useState(meter ? meter.refill_trigger_balance !== null : false);
  const [trigger, setTrigger] = useState(asText(meter?.refill_trigger_balance));
  const [amount, setAmount] = useState(asText(meter?.refill_amount));
  const { busy, submit, outcomeAlert } = useSubmission();
  const save = (event: FormEvent) => {
    event.preventDefault();
    submit(async () => {
      const settings = on
        ? { refill_trigger_balance: trigger.trim(), refill_amount: amount.trim() }
        : { refill_trigger_balance: null, refill_amount: null };
      onMeter((await api.send<{ meter: Meter }>("PUT", "/api/v2/meter", { meter: settings })).meter);
      return on ? "Automatic refill saved." : "Automatic refill is off.";
    });
  };
  return (
    <form onSubmit={save} aria-label="Automatic refill">
      <Fieldset legend="Automatic refill">
        <Checkbox
          label="Refill the meter from the default method when a label would leave it low"
          checked={on}
          onChange={(event) => setOn(event.currentTarget.checked)}
          mb="sm"
        />
        <Group align="end">
          <TextInput
            label="When the balance falls below (USD)"
            inputMode="decimal"
            required={on}
            disabled={!on}
            value={trigger}
            onChange={(event) => setTrigger(event.currentTarget.value)}
          />
          <TextInput
            label="Refill amount (USD)"
            description="1.00 to 10,000.00"
            inputMode="decimal"
            required={on}
            disabled={!on}
            value={amount}
            onChange={(event) => setAmount(event.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            Save automatic refill
          </Button>
        </Group>
        {outcomeAlert}
      </Fieldset>
    </form>
  );
}
