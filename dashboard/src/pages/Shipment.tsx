import { Alert, Badge, Button, Card, Group, Loader, Stack, Table, Text, Timeline, Title } from "@mantine/core";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { type Address, ApiError, api, money, type Parcel, type Shipment, sameOriginPath } from "../api";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";

const VOIDABLE = new Set(["shipped", "manifested"]);

const lines = (address: Address) =>
  [
    [address.first_name, address.last_name].filter(Boolean).join(" ") || null,
    address.company,
    address.address1,
    address.address2,
    `${address.city}, ${address.state} ${address.postal_code}`,
    address.country,
  ].filter((line): line is string => Boolean(line));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function AddressSection({ title, address }: { title: string; address: Address }) {
  return (
    <Section title={title}>
      {lines(address).map((line) => (
        <Text key={line}>{line}</Text>
      ))}
    </Section>
  );
}

/** The label file, previewed and offered for download. */
function LabelPreview({ parcel }: { parcel: Parcel }) {
  const label = parcel.postage_label;
  if (!label?.image_url) return <Text>No label file.</Text>;
  const path = sameOriginPath(label.image_url);
  const title = `Label for ${parcel.tracking_number ?? `parcel ${parcel.id}`}`;
  return (
    <Stack gap="xs">
      {label.file_format === "pdf" ? (
        <iframe className="label-preview" src={path} title={title} />
      ) : label.file_format === "png" ? (
        <img className="label-preview" src={path} alt={title} />
      ) : (
        <Text>This label is {label.file_format.toUpperCase()}, for a thermal printer.</Text>
      )}
      <a href={path} download>
        Download the label ({label.file_format.toUpperCase()})
      </a>
    </Stack>
  );
}

/** One shipment: details, label, tracking timeline and payment; voids its label. */
export function ShipmentPage({ id }: { id: number }) {
  const [shipment, setShipment] = useState<Shipment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      api.get<{ shipment: Shipment }>(`/api/v2/shipments/${id}`).then(
        (answer) => setShipment(answer.shipment),
        (failure) => setError(failure instanceof ApiError ? failure.message : String(failure)),
      ),
    [id],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const voidLabel = async () => {
    if (!window.confirm("Void this label? The carrier refunds it; it cannot be used to ship.")) return;
    setBusy(true);
    setError(null);
    try {
      await api.send("PUT", `/api/v2/shipments/${id}/cancel`);
      setNotice("The label is voided.");
      await load();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  if (!shipment) {
    return error ? (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    ) : (
      <Loader aria-label="Loading the shipment" />
    );
  }
  const events = shipment.tracking_info?.tracking_events ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <PageTitle>Shipment {shipment.tracking_number ?? shipment.id}</PageTitle>
        <Badge size="lg" variant="outline" color="dark">
          {shipment.status.replaceAll("_", " ")}
        </Badge>
      </Group>
      <Feedback notice={notice} error={error} />
      <Group>
        <Button color="red" onClick={voidLabel} loading={busy} disabled={!VOIDABLE.has(shipment.status)}>
          Void label
        </Button>
      </Group>
      <Group grow align="start">
        <AddressSection title="Ship to" address={shipment.to_location} />
        <AddressSection title="Ship from" address={shipment.from_location} />
      </Group>
      <Section title="Service and payment">
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row">Service</Table.Th>
              <Table.Td>{shipment.shipping_service?.service ?? "—"}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Paid</Table.Th>
              <Table.Td>
                {money(shipment.payment?.amount)}{" "}
                {shipment.payment?.payment_method_id ? `(method ${shipment.payment.payment_method_id})` : "(meter)"}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Estimated delivery</Table.Th>
              <Table.Td>{shipment.tracking_info?.estimated_delivery_date ?? "—"}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Section>
      <Section title="Label">
        {shipment.parcels.map((parcel) => (
          <LabelPreview key={parcel.id} parcel={parcel} />
        ))}
      </Section>
      <Section title="Tracking">
        {events.length === 0 ? (
          <Text>No tracking events yet.</Text>
        ) : (
          <Timeline active={events.length - 1}>
            {events.map((event) => (
              <Timeline.Item key={event.tracking_event_id} title={event.status.replaceAll("_", " ")}>
                <Text size="sm">{event.description}</Text>
                <Text size="sm">
                  {event.event_date} {[event.city, event.state].filter(Boolean).join(", ")}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Section>
    </Stack>
  );
}
