import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { type Address, api, call, carrierToday, failureMessage, type Shipment } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { Pager } from "../Pager";
import { PageTitle } from "../PageTitle";
import { useAttempt } from "../useSubmission";

const PER_PAGE = 25;
/** A driver takes bought labels: those not yet handed over, on a batch or not. */
const PICKABLE_STATUSES = ["shipped", "manifested"];
/** The keys a pickup's location takes (the API refuses others, such as a presented address's id). */
const LOCATION_KEYS = [
  "company",
  "first_name",
  "last_name",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "country",
  "postal_code",
  "phone",
  "email",
] as const;

interface Pickup {
  id: number;
  location: Address;
  pickup_date: string;
  status: "REQUESTED" | "CANCELLED";
  external_id: string;
  carrier_code: string;
  package_count: number;
  weight: number;
}

interface Availability {
  available: boolean;
  reason: string | null;
  pickup_date: string;
}

/** Pickups by day and status, booked after asking the carrier's availability, and cancelled. */
export function Pickups() {
  const [filters, setFilters] = useState({ from: "", to: "", status: "requested" });
  const [shown, setShown] = useState(filters);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ pickups: Pickup[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(() => {
    const query = new URLSearchParams({ status: shown.status, page: String(page), per_page: String(PER_PAGE) });
    if (shown.from) query.set("pickup_date_start", shown.from);
    if (shown.to) query.set("pickup_date_end", shown.to);
    return call<{ pickups: Pickup[] }>("GET", `/api/v2/pickups?${query}`).then(
      ({ body, headers }) => setResult({ pickups: body.pickups, total: Number(headers.get("x-total-count") ?? 0) }),
      (failure) => setError(failureMessage(failure)),
    );
  }, [shown, page]);
  useEffect(() => {
    void load();
  }, [load]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setPage(1);
    setShown(filters);
  };
  const booked = async (pickup: Pickup) => {
    setError(null);
    setNotice(
      `Pickup booked: ${pickup.carrier_code.toUpperCase()} comes on ${pickup.pickup_date} for ${pickup.package_count} package${pickup.package_count === 1 ? "" : "s"} (confirmation ${pickup.external_id}).`,
    );
    await load();
  };
  const cancel = async (pickup: Pickup) => {
    if (!window.confirm(`Cancel the pickup of ${pickup.pickup_date} (confirmation ${pickup.external_id})?`)) return;
    setBusy(pickup.id);
    setError(null);
    setNotice(null);
    try {
      await api.send("DELETE", `/api/v2/pickups/${pickup.id}`);
      setNotice(`The pickup of ${pickup.pickup_date} (confirmation ${pickup.external_id}) is cancelled.`);
      await load();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(null);
    }
  };
  const pages = result ? Math.max(1, Math.ceil(result.total / PER_PAGE)) : 1;

  return (
    <Stack>
      <PageTitle>Pickups</PageTitle>
      <Feedback notice={notice} error={error} />
      <BookPickup onBooked={booked} />
      <section aria-labelledby="pickups-heading">
        <Title order={2} size="h4" mb="sm" id="pickups-heading">
          Booked pickups
        </Title>
        <form onSubmit={search} aria-label="Find pickups">
          <Group align="end" mb="md">
            <TextInput
              type="date"
              label="Pickup from"
              value={filters.from}
              onChange={(event) => setFilters({ ...filters, from: event.currentTarget.value })}
            />
            <TextInput
              type="date"
              label="Pickup to"
              value={filters.to}
              onChange={(event) => setFilters({ ...filters, to: event.currentTarget.value })}
            />
            <NativeSelect
              label="Pickup status"
              value={filters.status}
              data={[
                { value: "requested", label: "Requested" },
                { value: "cancelled", label: "Cancelled" },
                { value: "all", label: "Any status" },
              ]}
              onChange={(event) => setFilters({ ...filters, status: event.currentTarget.value })}
            />
            <Button type="submit">Show pickups</Button>
          </Group>
        </form>
        {!result && !error && <Loader aria-label="Loading the pickups" />}
        {result && (
          <>
            <Table striped>
              <Table.Caption>
                {result.total} pickup{result.total === 1 ? "" : "s"}, page {page} of {pages}
              </Table.Caption>
              <ColumnHeads
                names={["Date", "Carrier", "Confirmation", "Address", "Packages", "Weight (oz)", "Status", "Action"]}
              />
              <Table.Tbody>
                {result.pickups.map((pickup) => (
                  <Table.Tr key={pickup.id}>
                    <Table.Td>{pickup.pickup_date}</Table.Td>
                    <Table.Td>{pickup.carrier_code.toUpperCase()}</Table.Td>
                    <Table.Td>{pickup.external_id}</Table.Td>
                    <Table.Td>
                      {pickup.location.address1}, {pickup.location.city}, {pickup.location.state}
                    </Table.Td>
                    <Table.Td>{pickup.package_count}</Table.Td>
                    <Table.Td>{pickup.weight}</Table.Td>
                    <Table.Td>
                      <Badge variant="outline" color="dark">
                        {pickup.status.toLowerCase()}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {pickup.status === "REQUESTED" && (
                        <Button
                          size="xs"
                          color="red"
                          loading={busy === pickup.id}
                          aria-label={`Cancel the pickup ${pickup.external_id}`}
                          onClick={() => void cancel(pickup)}
                        >
                          Cancel
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {result.pickups.length === 0 && <Text mt="md">No pickups match.</Text>}
            <Pager page={page} pages={pages} onPage={setPage} />
          </>
        )}
      </section>
    </Stack>
  );
}

const shipmentLine = (shipment: Shipment) =>
  [
    shipment.tracking_number ?? `Shipment ${shipment.id}`,
    shipment.shipping_service?.carrier_code.toUpperCase(),
    shipment.status,
    `to ${shipment.to_location.city}, ${shipment.to_location.state}`,
  ]
    .filter(Boolean)
    .join(" · ");

/**
 * Booking: the shipments the driver takes (of one carrier), a day the carrier is asked about first
 * (`POST /api/v2/pickups/availability`, at the first shipment's sender address), then the booking.
 */
function BookPickup({ onBooked }: { onBooked: (pickup: Pickup) => Promise<void> }) {
  const [shipments, setShipments] = useState<Shipment[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [day, setDay] = useState(carrierToday);
  const [detail, setDetail] = useState("");
  const [instructions, setInstructions] = useState("");
  const [availability, setAvailability] = useState<Availability | null>(null);
  const { busy, error, setError, attempt } = useAttempt();

  useEffect(() => {
    Promise.all(
      PICKABLE_STATUSES.map((status) =>
        api.get<{ shipments: Shipment[] }>(`/api/v2/shipments?status=${status}&per_page=50`),
      ),
    ).then(
      (answers) => setShipments(answers.flatMap((answer) => answer.shipments).sort((a, b) => b.id - a.id)),
      (failure) => setError(failureMessage(failure)),
    );
  }, [setError]);

  const first = shipments?.find((shipment) => String(shipment.id) === chosen[0]);
  const location = first
    ? Object.fromEntries(LOCATION_KEYS.map((key) => [key, first.from_location[key as keyof Address] ?? null]))
    : null;
  const ask = (pickupDate: string) => {
    if (!first || !location) {
      setError("Choose the shipments the driver takes.");
      return;
    }
    setDay(pickupDate);
    void attempt(async () => {
      setAvailability(
        await api.send<Availability>("POST", "/api/v2/pickups/availability", {
          location,
          pickup_date: pickupDate,
          carrier_code: first.shipping_service?.carrier_code,
        }),
      );
    });
  };
  const check = (event: FormEvent) => {
    event.preventDefault();
    ask(day);
  };
  const book = () =>
    attempt(async () => {
      const answer = await api.send<{ pickup: Pickup }>("POST", "/api/v2/pickups", {
        pickup: {
          location,
          pickup_date: day,
          shipment_ids: chosen.map(Number),
          location_detail: detail.trim() || null,
          special_instructions: instructions.trim() || null,
        },
      });
      setChosen([]);
      setAvailability(null);
      await onBooked(answer.pickup);
    });
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setAvailability(null);
    };

  return (
    <Card withBorder component="section" aria-labelledby="book-pickup">
      <Title order={2} size="h4" mb="sm" id="book-pickup">
        Book a pickup
      </Title>
      {error && (
        <Alert color="red" role="alert" mb="sm">
          {error}
        </Alert>
      )}
      <form onSubmit={check} aria-label="Book a pickup">
        <Stack>
          {!shipments && !error && <Loader aria-label="Loading the shipments" />}
          {shipments && shipments.length === 0 && <Text>No bought labels are waiting for a driver.</Text>}
          {shipments && shipments.length > 0 && (
            <Checkbox.Group
              label="Shipments the driver takes (one carrier)"
              value={chosen}
              onChange={changed(setChosen)}
            >
              <Stack gap={4} mt="xs">
                {shipments.map((shipment) => (
                  <Checkbox key={shipment.id} value={String(shipment.id)} label={shipmentLine(shipment)} />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
          {first && (
            <Text size="sm">
              Pickup at {first.from_location.address1}, {first.from_location.city}, {first.from_location.state}{" "}
              {first.from_location.postal_code} (the first shipment's sender).
            </Text>
          )}
          <Group align="end" grow>
            <TextInput
              type="date"
              label="Pickup date"
              required
              value={day}
              onChange={(event) => changed(setDay)(event.currentTarget.value)}
            />
            <TextInput
              label="Where the driver finds the parcels"
              maxLength={200}
              value={detail}
              onChange={(event) => setDetail(event.currentTarget.value)}
            />
          </Group>
          <Textarea
            label="Special instructions"
            maxLength={500}
            value={instructions}
            onChange={(event) => setInstructions(event.currentTarget.value)}
          />
          {availability && (
            <Alert color={availability.available ? "green" : "yellow"} role="status">
              {availability.available
                ? `The carrier can come on ${availability.pickup_date}.`
                : `${availability.reason}. The next day the carrier can come is ${availability.pickup_date}.`}
            </Alert>
          )}
          <Group>
            <Button
              type="submit"
              variant={availability?.available ? "default" : "filled"}
              loading={busy && !availability}
            >
              Check availability
            </Button>
            {availability && !availability.available && (
              <Button variant="default" onClick={() => ask(availability.pickup_date)}>
                Ask for {availability.pickup_date}
              </Button>
            )}
            {availability?.available && (
              <Button onClick={() => void book()} loading={busy}>
                Book the pickup
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
