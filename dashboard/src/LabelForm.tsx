import { Alert, Button, Fieldset, Group, NumberInput, Radio, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { type Address, ApiError, api, money, type ServiceRate, type Shipment } from "./api";
import { Feedback } from "./Feedback";

export const EMPTY_ADDRESS: Address = {
  first_name: "",
  last_name: "",
  company: "",
  address1: "",
  city: "",
  state: "",
  postal_code: "",
  country: "US",
  phone: "",
};
const FIELDS: { key: keyof Address; label: string; required?: boolean; autoComplete: string }[] = [
  { key: "first_name", label: "First name", autoComplete: "given-name" },
  { key: "last_name", label: "Last name", autoComplete: "family-name" },
  { key: "company", label: "Company", autoComplete: "organization" },
  { key: "address1", label: "Street address", required: true, autoComplete: "address-line1" },
  { key: "city", label: "City", required: true, autoComplete: "address-level2" },
  { key: "state", label: "State", required: true, autoComplete: "address-level1" },
  { key: "postal_code", label: "ZIP code", required: true, autoComplete: "postal-code" },
  { key: "country", label: "Country code", required: true, autoComplete: "country" },
  { key: "phone", label: "Phone", autoComplete: "tel" },
];

/** Blank fields are left out: the API reads a missing field and an empty one differently. */
const cleaned = (address: Address) =>
  Object.fromEntries(Object.entries(address).filter(([, value]) => typeof value === "string" && value.trim() !== ""));

export const failureText = (failure: unknown) => (failure instanceof ApiError ? failure.message : String(failure));

function AddressFields({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: Address;
  onChange: (a: Address) => void;
}) {
  return (
    <Fieldset legend={legend}>
      <Group grow align="start" wrap="wrap">
        {FIELDS.map((field) => (
          <TextInput
            key={field.key}
            label={field.label}
            required={field.required}
            autoComplete={`section-${legend.replaceAll(" ", "-")} ${field.autoComplete}`}
            value={String(value[field.key] ?? "")}
            onChange={(event) => onChange({ ...value, [field.key]: event.currentTarget.value })}
          />
        ))}
      </Group>
    </Fieldset>
  );
}

/**
 * The label form that rates first: from and to addresses and one parcel, **Get rates** asks every
 * enabled service, and the chosen rate is bought (`POST /api/v2/shipments/ship`). What follows the
 * purchase is the page's: `onBought` runs with the new shipment, and its failure shows here too.
 * `blocked`, when given, says why nothing may be bought yet; `purchase` adds fields to the
 * shipment bought (not to the rating), such as the order it ships.
 */
export function LabelForm({
  to: initialTo = EMPTY_ADDRESS,
  buyText,
  blocked,
  purchase,
  onBought,
}: {
  to?: Address;
  buyText: string;
  blocked?: string | null;
  purchase?: object;
  onBought: (shipment: Shipment) => Promise<void>;
}) {
  const [from, setFrom] = useState<Address>(EMPTY_ADDRESS);
  const [to, setTo] = useState<Address>(initialTo);
  const [parcel, setParcel] = useState({ length: 10, width: 8, height: 4, weight: 16 });
  const [rates, setRates] = useState<ServiceRate[] | null>(null);
  const [chosen, setChosen] = useState<string>("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const shipment = () => ({ from_location: cleaned(from), to_location: cleaned(to), parcels: [parcel] });
  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setBusy(false);
    }
  };
  const rate = (event: FormEvent) => {
    event.preventDefault();
    void attempt(async () => {
      const answer = await api.send<{ service_rates: ServiceRate[] }>("POST", "/api/v2/rates", {
        shipment: shipment(),
      });
      setRates(answer.service_rates);
      setChosen(answer.service_rates[0] ? String(answer.service_rates[0].service_id) : "");
    });
  };
  const buy = () =>
    attempt(async () => {
      const answer = await api.send<{ shipment: Shipment }>("POST", "/api/v2/shipments/ship", {
        shipment: { ...shipment(), ...purchase, service_id: Number(chosen) },
      });
      // The rates were for this label: another one is rated anew.
      setRates(null);
      await onBought(answer.shipment);
    });
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setRates(null);
    };

  return (
    <Stack>
      <Feedback error={error} />
      <form onSubmit={rate} aria-label="Rate a shipment">
        <Stack>
          <AddressFields legend="Ship from" value={from} onChange={edited(setFrom)} />
          <AddressFields legend="Ship to" value={to} onChange={edited(setTo)} />
          <Fieldset legend="Parcel">
            <Group grow>
              {(
                [
                  ["length", "Length (in)"],
                  ["width", "Width (in)"],
                  ["height", "Height (in)"],
                  ["weight", "Weight (oz)"],
                ] as const
              ).map(([key, label]) => (
                <NumberInput
                  key={key}
                  label={label}
                  required
                  min={0.1}
                  decimalScale={2}
                  value={parcel[key]}
                  onChange={(value) => edited(setParcel)({ ...parcel, [key]: Number(value) || 0 })}
                />
              ))}
            </Group>
          </Fieldset>
          <Group>
            <Button type="submit" loading={busy && rates === null}>
              Get rates
            </Button>
          </Group>
        </Stack>
      </form>
      {rates && (
        <Fieldset legend="Rates">
          {rates.length === 0 ? (
            <Alert color="yellow">No service ships this parcel between these addresses.</Alert>
          ) : (
            <Radio.Group value={chosen} onChange={setChosen} name="rate" label="Choose a service" required>
              <Stack mt="xs">
                {rates.map((r) => (
                  <Radio
                    key={r.service_id}
                    value={String(r.service_id)}
                    label={`${r.carrier_code.toUpperCase()} ${r.service} — ${money(r.rate)}${r.delivery_days ? `, ${r.delivery_days} days` : ""}`}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}
          {blocked && (
            <Alert color="yellow" mt="md">
              {blocked}
            </Alert>
          )}
          <Button mt="md" onClick={buy} loading={busy} disabled={!chosen || Boolean(blocked)}>
            {buyText}
          </Button>
        </Fieldset>
      )}
    </Stack>
  );
}
