import { Alert, Badge, Button, Card, Group, Loader, Stack, Table, Text, Timeline, Title } from "@mantine/core";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { type Address, api, failureMessage, money, type Parcel, type Shipment, sameOriginPath } from "../api";
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

/** Formats the API draws as a PNG (GET /shipments/{id}/label_preview); a PDF shows as it is. */
const DRAWN = new Set(["zpl", "epl2", "png", "jpeg", "gif", "tiff"]);

/**
 * The label in the page, on this origin (the page's policy allows no other): a PDF in a frame,
 * ZPL, EPL2 and images as the API's PNG preview. Print prints the frame's PDF, or the page with
 * only this label's image (the print styles in dashboard.css).
 */
function LabelPreview({ shipmentId, parcel }: { shipmentId: number; parcel: Parcel }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [printing, setPrinting] = useState(false);
  const [broken, setBroken] = useState(false);
  const label = parcel.postage_label;
  if (!label?.image_url) return <Text>No label file.</Text>;
  const path = sameOriginPath(label.image_url);
  const format = label.file_format;
  const which = parcel.tracking_number ?? `parcel ${parcel.id}`;
  const title = `Label for ${which}`;
  const print = () => {
    if (format === "pdf") {
      frame.current?.contentWindow?.print();
      return;
    }
    flushSync(() => setPrinting(true));
    window.print();
    setPrinting(false);
  };
  return (
    <Stack gap="xs" className={printing ? "label-printing" : undefined}>
      {format === "pdf" ? (
        <iframe ref={frame} className="label-preview" src={path} title={title} />
      ) : DRAWN.has(format) && !broken ? (
        <img
          className="label-preview"
          src={`/api/v2/shipments/${shipmentId}/label_preview?parcel_id=${parcel.id}`}
          alt={title}
          onError={() => setBroken(true)}
        />
      ) : (
        <Text>
          {broken
            ? "The label could not be drawn here; download it to print it."
            : `This label is ${format.toUpperCase()}, for a thermal printer: it has no preview here, download it to print it.`}
        </Text>
      )}
      <Group>
        {(format === "pdf" || (DRAWN.has(format) && !broken)) && (
          <Button variant="outline" onClick={print}>
            Print the label for {which}
          </Button>
        )}
        <a href={path} download>
          Download the label ({format.toUpperCase()})
        </a>
      </Group>
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
        (failure) => setError(failureMessage(failure)),
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
      setError(failureMessage(failure));
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
          <LabelPreview key={parcel.id} shipmentId={shipment.id} parcel={parcel} />
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
