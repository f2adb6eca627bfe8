import { Badge, Button, Card, Group, Loader, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { api, call, carrierToday, failureMessage, sameOriginPath } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { Pager } from "../Pager";
import { PageTitle } from "../PageTitle";

const PER_PAGE = 25;
/** While a carrier's document is being generated (docs/batches-and-pickups.md), the list looks again this often. */
const PENDING_POLL_MS = 5_000;

export interface Batch {
  id: string;
  bol_url: string | null;
  created_at: string;
  shipments_ids: number[];
  tracking_number: string | null;
  errors: string | null;
  status: "pending" | "generated" | "refused";
  carrier_code: string;
}

/** USPS's document is the SCAN form; DHL eCommerce's and FedEx's are manifests. */
const documentName = (carrier: string) => (carrier === "usps" ? "SCAN form" : "manifest");

const utcDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * Closing out the day (`POST /api/v2/shipments/batches/daily`) and the batches it made, with each
 * carrier document to download once generated.
 */
export function CloseOut() {
  const [day, setDay] = useState(carrierToday);
  const [range, setRange] = useState({ from: utcDaysAgo(7), to: utcDaysAgo(0) });
  const [shown, setShown] = useState(range);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ batches: Batch[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    const query = new URLSearchParams({
      date_from: shown.from,
      date_to: shown.to,
      page: String(page),
      per_page: String(PER_PAGE),
    });
    return call<{ shipments_batches: Batch[] }>("GET", `/api/v2/shipments/batches?${query}`).then(
      ({ body, headers }) =>
        setResult({ batches: body.shipments_batches, total: Number(headers.get("x-total-count") ?? 0) }),
      (failure) => setError(failureMessage(failure)),
    );
  }, [shown, page]);
  useEffect(() => {
    void load();
  }, [load]);
  const pending = result?.batches.some((batch) => batch.status === "pending") ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(() => void load(), PENDING_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, load]);

  const closeOut = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const answer = await api.send<{ shipments_batches: Batch[] }>("POST", "/api/v2/shipments/batches/daily", {
        shipment_date: day,
      });
      const made = answer.shipments_batches;
      setNotice(
        made.length === 0
          ? `No shipments of ${day} are left to close out.`
          : `Closed out ${day}: ${made.length} batch${made.length === 1 ? "" : "es"} of ${made.reduce((n, b) => n + b.shipments_ids.length, 0)} shipments. The documents are ready in a few moments.`,
      );
      await load();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setPage(1);
    setShown(range);
  };
  const pages = result ? Math.max(1, Math.ceil(result.total / PER_PAGE)) : 1;

  return (
    <Stack>
      <PageTitle>Close out</PageTitle>
      <Feedback notice={notice} error={error} />
      <Card withBorder component="section" aria-labelledby="close-out-day">
        <Title order={2} size="h4" mb="sm" id="close-out-day">
          Close out the day
        </Title>
        <Text size="sm" mb="sm">
          Puts every USPS, DHL eCommerce and FedEx Ground shipment of the ship date that is not on a batch yet on its
          carrier's document: a SCAN form or a manifest for the driver.
        </Text>
        <form onSubmit={closeOut} aria-label="Close out the day">
          <Group align="end">
            <TextInput
              type="date"
              label="Ship date"
              required
              value={day}
              onChange={(event) => setDay(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Close out the day
            </Button>
          </Group>
        </form>
      </Card>
      <section aria-labelledby="batches-heading">
        <Title order={2} size="h4" mb="sm" id="batches-heading">
          Batches
        </Title>
        <form onSubmit={search} aria-label="Find batches">
          <Group align="end" mb="md">
            <TextInput
              type="date"
              label="Created from"
              required
              value={range.from}
              onChange={(event) => setRange({ ...range, from: event.currentTarget.value })}
            />
            <TextInput
              type="date"
              label="Created to"
              required
              value={range.to}
              onChange={(event) => setRange({ ...range, to: event.currentTarget.value })}
            />
            <Button type="submit">Show batches</Button>
            <Button variant="default" onClick={() => void load()}>
              Refresh
            </Button>
          </Group>
        </form>
        {!result && !error && <Loader aria-label="Loading the batches" />}
        {result && (
          <>
            <Table striped>
              <Table.Caption>
                {result.total} batch{result.total === 1 ? "" : "es"}, page {page} of {pages}
              </Table.Caption>
              <ColumnHeads names={["Batch", "Created", "Carrier", "Shipments", "Status", "Document"]} />
              <Table.Tbody>
                {result.batches.map((batch) => (
                  <Table.Tr key={batch.id}>
                    <Table.Td>{batch.id}</Table.Td>
                    <Table.Td>{batch.created_at.slice(0, 16).replace("T", " ")} UTC</Table.Td>
                    <Table.Td>{batch.carrier_code.toUpperCase()}</Table.Td>
                    <Table.Td>{batch.shipments_ids.length}</Table.Td>
                    <Table.Td>
                      <Badge variant="outline" color="dark">
                        {batch.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <BatchDocument batch={batch} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {result.batches.length === 0 && <Text mt="md">No batches were created in these days.</Text>}
            <Pager page={page} pages={pages} onPage={setPage} />
          </>
        )}
      </section>
    </Stack>
  );
}

/** The document's link once generated (on this origin: the page's policy allows no other), or why there is none. */
function BatchDocument({ batch }: { batch: Batch }) {
  const name = documentName(batch.carrier_code);
  if (batch.bol_url) {
    return (
      <a href={sameOriginPath(batch.bol_url)} download>
        Download the {name} {batch.tracking_number ?? ""} (PDF)
      </a>
    );
  }
  if (batch.status === "refused") return <Text size="sm">Refused: {batch.errors}</Text>;
  return <Text size="sm">Being generated{batch.errors ? ` (${batch.errors})` : ""}…</Text>;
}
