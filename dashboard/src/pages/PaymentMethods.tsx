import {
  Badge,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Loader,
  NativeSelect,
  SegmentedControl,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { api, failureMessage, methodName, type PaymentMethod } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";
import { useSubmission } from "../useSubmission";

const expiryOf = (method: PaymentMethod) =>
  method.expiry_month === null || method.expiry_year === null
    ? "—"
    : `${String(method.expiry_month).padStart(2, "0")}/${method.expiry_year}`;

/** The cards and bank accounts that pay for refills (`billing`): shown masked, added, made default, deleted. */
export function PaymentMethodsPage() {
  const [methods, setMethods] = useState<PaymentMethod[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const load = useCallback(
    () =>
      api.get<{ payment_methods: PaymentMethod[] }>("/api/v2/payment_methods").then(
        (answer) => setMethods(answer.payment_methods),
        (failure) => setError(failureMessage(failure)),
      ),
    [],
  );
  useEffect(() => {
    load();
  }, [load]);

  const act = async (change: () => Promise<unknown>, done: string) => {
    setError(null);
    setNotice(null);
    try {
      await change();
      // The list is read again before the notice shows, so what the notice says is what it lists.
      await load();
      setNotice(done);
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };
  const makeDefault = (method: PaymentMethod) =>
    act(
      () =>
        api.send("PUT", `/api/v2/payment_methods/${method.id}`, { payment_method: { default_payment_method: true } }),
      `${methodName(method)} is now the default.`,
    );
  const remove = (method: PaymentMethod) =>
    act(() => api.send("DELETE", `/api/v2/payment_methods/${method.id}`), `${methodName(method)} was deleted.`);

  return (
    <>
      <PageTitle>Payment methods</PageTitle>
      <Feedback error={error} />
      <Feedback notice={notice} />
      {!methods && !error && <Loader aria-label="Loading the payment methods" />}
      {methods && (
        <Table mb="lg">
          <Table.Caption>Refills charge the default method. Only the last four digits are kept.</Table.Caption>
          <ColumnHeads names={["Method", "Type", "Expires", "Default", "Actions"]} />
          <Table.Tbody>
            {methods.map((method) => (
              <Table.Tr key={method.id}>
                <Table.Td>
                  {method.brand} •••• {method.account_number}
                </Table.Td>
                <Table.Td>{method.type === "cc" ? "Card" : "Bank account"}</Table.Td>
                <Table.Td>{expiryOf(method)}</Table.Td>
                <Table.Td>
                  {method.default_payment_method && (
                    <Badge variant="outline" color="dark">
                      Default
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    {!method.default_payment_method && (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Make ${methodName(method)} the default`}
                        onClick={() => makeDefault(method)}
                      >
                        Make default
                      </Button>
                    )}
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Delete ${methodName(method)}`}
                      onClick={() => remove(method)}
                    >
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {methods?.length === 0 && <Text mb="md">No payment method yet.</Text>}
      <AddMethod onAdded={load} />
    </>
  );
}

const EMPTY = {
  name: "",
  account_number: "",
  expiry: "",
  verification_code: "",
  bank_name: "",
  routing_number: "",
  bank_account_type: "checking",
  account_holder_type: "business",
};
type Fields = typeof EMPTY;

const CARD_FIELDS: (keyof Fields)[] = ["name", "account_number", "expiry", "verification_code"];
const BANK_FIELDS: (keyof Fields)[] = [
  "name",
  "bank_name",
  "routing_number",
  "account_number",
  "bank_account_type",
  "account_holder_type",
];

/** The bank account's two choices, as the API names their values. */
const BANK_CHOICES: {
  key: "bank_account_type" | "account_holder_type";
  label: string;
  options: { value: string; label: string }[];
}[] = [
  {
    key: "bank_account_type",
    label: "Account type",
    options: [
      { value: "checking", label: "Checking" },
      { value: "savings", label: "Savings" },
    ],
  },
  {
    key: "account_holder_type",
    label: "Holder",
    options: [
      { value: "business", label: "Business" },
      { value: "personal", label: "Personal" },
    ],
  },
];

/** `POST /payment_methods`: the numbers go to the API once and are never shown again. */
function AddMethod({ onAdded }: { onAdded: () => Promise<unknown> }) {
  const [type, setType] = useState<"cc" | "ach">("cc");
  const [fields, setFields] = useState(EMPTY);
  const [makeDefault, setMakeDefault] = useState(false);
  const { busy, submit, outcomeAlert } = useSubmission();
  const field = (key: keyof Fields, label: string, autoComplete = "off") => (
    <TextInput
      label={label}
      required={key !== "name"}
      autoComplete={autoComplete}
      value={fields[key]}
      onChange={(event) => setFields({ ...fields, [key]: event.currentTarget.value })}
    />
  );
  const add = (event: FormEvent) => {
    event.preventDefault();
    submit(async () => {
      const sent = Object.fromEntries(
        (type === "cc" ? CARD_FIELDS : BANK_FIELDS)
          .map((key) => [key, fields[key].trim()])
          .filter(([, value]) => value !== ""),
      );
      const answer = await api.send<{ payment_method: PaymentMethod }>("POST", "/api/v2/payment_methods", {
        payment_method: { type, ...sent, ...(makeDefault ? { default_payment_method: true } : {}) },
      });
      setFields(EMPTY);
      setMakeDefault(false);
      await onAdded();
      return `${methodName(answer.payment_method)} was added.`;
    });
  };
  return (
    <form onSubmit={add} aria-label="Add a payment method">
      <Fieldset legend="Add a payment method" maw={640}>
        <SegmentedControl
          aria-label="Type"
          mb="sm"
          value={type}
          data={[
            { value: "cc", label: "Card" },
            { value: "ach", label: "Bank account" },
          ]}
          onChange={(value) => setType(value as "cc" | "ach")}
        />
        <Group grow align="start" wrap="wrap">
          {field("name", "Name of the holder", "cc-name")}
          {type === "cc" ? (
            <>
              {field("account_number", "Card number", "cc-number")}
              {field("expiry", "Expiry (MMYY)", "cc-exp")}
              {field("verification_code", "Security code (CVV)", "cc-csc")}
            </>
          ) : (
            <>
              {field("bank_name", "Bank name")}
              {field("routing_number", "Routing number")}
              {field("account_number", "Account number")}
              {BANK_CHOICES.map((choice) => (
                <NativeSelect
                  key={choice.key}
                  label={choice.label}
                  value={fields[choice.key]}
                  data={choice.options}
                  onChange={(event) => setFields({ ...fields, [choice.key]: event.currentTarget.value })}
                />
              ))}
            </>
          )}
        </Group>
        <Checkbox
          mt="sm"
          label="Make it the default (the first method becomes the default anyway)"
          checked={makeDefault}
          onChange={(event) => setMakeDefault(event.currentTarget.checked)}
        />
        <Button type="submit" mt="sm" loading={busy}>
          Add the payment method
        </Button>
        {outcomeAlert}
      </Fieldset>
    </form>
  );
}
