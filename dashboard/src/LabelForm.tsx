import {
  Alert,
  Button,
  Fieldset,
  Group,
  NativeSelect,
  NumberInput,
  Radio,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { type FormEvent, useState } from "react";
import { CONTENT_TYPES, NON_DELIVERY_OPTIONS } from "../../src/carriers/customs-terms";
import { customsRequirement } from "../../src/domain/customs/customs-rules";
import { LABEL_FORMATS } from "../../src/labels/label";
import { type Address, api, money, type ServiceRate, type Shipment } from "./api";
import { useAttempt } from "./useSubmission";

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

interface ParcelRow {
  key: number;
  length: number;
  width: number;
  height: number;
  weight: number;
}
interface ItemRow {
  key: number;
  /** Index into the parcels: every parcel abroad declares the items it carries. */
  parcel: number;
  description: string;
  quantity: number;
  value: number;
  weight: number;
  hs_tariff_code: string;
  country_of_origin: string;
}
const PARCEL_FIELDS = [
  ["length", "Length (in)"],
  ["width", "Width (in)"],
  ["height", "Height (in)"],
  ["weight", "Weight (oz)"],
] as const;
const ITEM_NUMBERS = [
  ["quantity", "Quantity", 1, 0],
  ["value", "Value each (USD)", 0.01, 2],
  ["weight", "Weight each (oz)", 0.1, 2],
] as const;
const ITEM_TEXTS = [
  ["description", "Description"],
  ["hs_tariff_code", "HS tariff code"],
  ["country_of_origin", "Origin country code"],
] as const;

let nextKey = 1;
const newParcel = (): ParcelRow => ({ key: nextKey++, length: 10, width: 8, height: 4, weight: 16 });
const newItem = (): ItemRow => ({
  key: nextKey++,
  parcel: 0,
  description: "",
  quantity: 1,
  value: 0,
  weight: 1,
  hs_tariff_code: "",
  country_of_origin: "US",
});
const words = (code: string) => code.replaceAll("_", " ");

/**
 * The label form that rates first: addresses, parcels, the label format and, for a shipment that
 * crosses a customs border (the API's own rule, src/domain/customs), its declaration; **Get rates**
 * asks every enabled service, and the chosen rate is bought (`POST /api/v2/shipments/ship`). What
 * follows the purchase is the page's: `onBought` runs with the new shipment, and its failure shows
 * here too. `blocked`, when given, says why nothing may be bought yet; `purchase` adds fields to
 * the shipment bought (not to the rating), such as the order it ships.
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
  const [parcels, setParcels] = useState<ParcelRow[]>(() => [newParcel()]);
  const [format, setFormat] = useState("pdf");
  const [customs, setCustoms] = useState({
    content_type: "merchandise",
    no_delivery: "return",
    eel_pfc: "NOEEI 30.37(a)",
  });
  const [items, setItems] = useState<ItemRow[]>(() => [newItem()]);
  const [rates, setRates] = useState<ServiceRate[] | null>(null);
  const [chosen, setChosen] = useState<string>("");
  const { busy, error, attempt } = useAttempt();

  const place = (a: Address) => ({ country: a.country, state: a.state, postalCode: a.postal_code, city: a.city });
  const declares = customsRequirement(place(from), place(to)) !== "none";
  const dimensions = ({ length, width, height, weight }: ParcelRow) => ({ length, width, height, weight });
  const declared = (index: number) =>
    items
      .filter((item) => item.parcel === index)
      .map(({ description, quantity, value, weight, hs_tariff_code, country_of_origin }) => ({
        description,
        quantity,
        weight,
        country_of_origin: country_of_origin.trim() || null,
        customs_data: { ...customs, value, hs_tariff_code: hs_tariff_code.trim() || null },
      }));
  const addresses = () => ({ from_location: cleaned(from), to_location: cleaned(to) });
  const rate = (event: FormEvent) => {
    event.preventDefault();
    void attempt(async () => {
      const answer = await api.send<{ service_rates: ServiceRate[] }>("POST", "/api/v2/rates", {
        shipment: { ...addresses(), parcels: parcels.map(dimensions) },
      });
      setRates(answer.service_rates);
      setChosen(answer.service_rates[0] ? String(answer.service_rates[0].service_id) : "");
    });
  };
  const buy = () =>
    attempt(async () => {
      const answer = await api.send<{ shipment: Shipment }>("POST", "/api/v2/shipments/ship", {
        shipment: {
          ...addresses(),
          parcels: parcels.map((parcel, index) =>
            declares ? { ...dimensions(parcel), parcel_items: declared(index) } : dimensions(parcel),
          ),
          label_format: format,
          ...purchase,
          service_id: Number(chosen),
        },
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
  const editParcel = (key: number, change: Partial<ParcelRow>) =>
    edited(setParcels)(parcels.map((p) => (p.key === key ? { ...p, ...change } : p)));
  const removeParcel = (index: number) => {
    edited(setParcels)(parcels.filter((_, i) => i !== index));
    // Items of the removed parcel go to the first; those after it keep their parcel.
    setItems(
      items.map((item) => ({ ...item, parcel: item.parcel === index ? 0 : item.parcel - Number(item.parcel > index) })),
    );
  };
  const editItem = (key: number, change: Partial<ItemRow>) =>
    setItems(items.map((item) => (item.key === key ? { ...item, ...change } : item)));
  const failure = error && (
    <Alert color="red" role="alert" title="The API refused this">
      {error}
    </Alert>
  );

  return (
    <Stack>
      <form onSubmit={rate} aria-label="Rate a shipment">
        <Stack>
          <AddressFields legend="Ship from" value={from} onChange={edited(setFrom)} />
          <AddressFields legend="Ship to" value={to} onChange={edited(setTo)} />
          {parcels.map((parcel, index) => (
            <Fieldset key={parcel.key} legend={`Parcel ${index + 1}`}>
              <Group grow align="end">
                {PARCEL_FIELDS.map(([key, label]) => (
                  <NumberInput
                    key={key}
                    label={label}
                    required
                    min={0.1}
                    decimalScale={2}
                    value={parcel[key]}
                    onChange={(value) => editParcel(parcel.key, { [key]: Number(value) || 0 })}
                  />
                ))}
                {parcels.length > 1 && (
                  <Button variant="outline" color="red" onClick={() => removeParcel(index)}>
                    Remove parcel {index + 1}
                  </Button>
                )}
              </Group>
            </Fieldset>
          ))}
          <Group>
            <Button variant="outline" onClick={() => edited(setParcels)([...parcels, newParcel()])}>
              Add a parcel
            </Button>
            <NativeSelect
              label="Label format"
              value={format}
              onChange={(event) => setFormat(event.currentTarget.value)}
              data={LABEL_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))}
            />
          </Group>
          {declares && (
            <Fieldset legend="Customs declaration">
              <Stack>
                <Text size="sm">This shipment crosses a customs border: declare what each parcel holds.</Text>
                <Group grow>
                  <NativeSelect
                    label="Contents type"
                    value={customs.content_type}
                    onChange={(event) => setCustoms({ ...customs, content_type: event.currentTarget.value })}
                    data={CONTENT_TYPES.map((c) => ({ value: c, label: words(c) }))}
                  />
                  <NativeSelect
                    label="If undeliverable"
                    value={customs.no_delivery}
                    onChange={(event) => setCustoms({ ...customs, no_delivery: event.currentTarget.value })}
                    data={NON_DELIVERY_OPTIONS.map((c) => ({ value: c, label: words(c) }))}
                  />
                  <TextInput
                    label="EEL or PFC"
                    description="An exemption, or the ITN above 2,500.00"
                    value={customs.eel_pfc}
                    onChange={(event) => setCustoms({ ...customs, eel_pfc: event.currentTarget.value })}
                  />
                </Group>
                {items.map((item, index) => (
                  <Fieldset key={item.key} legend={`Item ${index + 1}`} variant="filled">
                    <Group grow align="end" wrap="wrap">
                      {ITEM_TEXTS.map(([key, label]) => (
                        <TextInput
                          key={key}
                          label={label}
                          required={key === "description"}
                          value={item[key]}
                          onChange={(event) => editItem(item.key, { [key]: event.currentTarget.value })}
                        />
                      ))}
                      {ITEM_NUMBERS.map(([key, label, min, scale]) => (
                        <NumberInput
                          key={key}
                          label={label}
                          required
                          min={min}
                          decimalScale={scale}
                          value={item[key]}
                          onChange={(value) => editItem(item.key, { [key]: Number(value) || 0 })}
                        />
                      ))}
                      {parcels.length > 1 && (
                        <NativeSelect
                          label="In parcel"
                          value={String(item.parcel)}
                          onChange={(event) => editItem(item.key, { parcel: Number(event.currentTarget.value) })}
                          data={parcels.map((_, i) => ({ value: String(i), label: `Parcel ${i + 1}` }))}
                        />
                      )}
                      {items.length > 1 && (
                        <Button
                          variant="outline"
                          color="red"
                          onClick={() => setItems(items.filter((i) => i.key !== item.key))}
                        >
                          Remove item {index + 1}
                        </Button>
                      )}
                    </Group>
                  </Fieldset>
                ))}
                <Group>
                  <Button variant="outline" onClick={() => setItems([...items, newItem()])}>
                    Add an item
                  </Button>
                </Group>
              </Stack>
            </Fieldset>
          )}
          {rates === null && failure}
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
          {failure}
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
