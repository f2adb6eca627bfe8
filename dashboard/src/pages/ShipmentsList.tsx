import { Anchor, Badge, Button, Group, NativeSelect, Table, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { SHIPMENT_STATUSES } from "../../../src/domain/shipments/shipment-status.js";
import { call, failureMessage, money, type Shipment } from "../api";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";
import { PagedTable } from "../Tables";

const PER_PAGE = 25;
/** The server's own list, so the filter offers every status a shipment can have. */
const STATUSES = ["all", ...SHIPMENT_STATUSES.filter((status) => status !== "purchasing")];

/** The account's shipments, newest first, through `GET /api/v2/shipments`'s filters and pages. */
export function ShipmentsList() {
  const [tracking, setTracking] = useState("");
  const [status, setStatus] = useState("all");
  const [filters, setFilters] = useState({ tracking: "", status: "all" });
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ shipments: Shipment[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const query = new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) });
    if (filters.status !== "all") query.set("status", filters.status);
    if (filters.tracking) query.append("tracking_number[]", filters.tracking);
    call<{ shipments: Shipment[] }>("GET", `/api/v2/shipments?${query}`).then(
      ({ body, headers }) => setResult({ shipments: body.shipments, total: Number(headers.get("x-total-count") ?? 0) }),
      (failure) => setError(failureMessage(failure)),
    );
  }, [filters, page]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setFilters({ tracking: tracking.trim(), status });
  };

  return (
    <>
      <PageTitle>Shipments</PageTitle>
      <form onSubmit={search} aria-label="Search shipments">
        <Group align="end" mb="md">
          <TextInput
            label="Tracking number"
            value={tracking}
            onChange={(event) => setTracking(event.currentTarget.value)}
          />
          <NativeSelect
            label="Status"
            value={status}
            data={STATUSES.map((s) => ({ value: s, label: s === "all" ? "Any status" : s.replaceAll("_", " ") }))}
            onChange={(event) => setStatus(event.currentTarget.value)}
          />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      <Feedback error={error} />
      {result && (
        <PagedTable
          noun="shipment"
          total={result.total}
          rows={result.shipments.length}
          page={page}
          perPage={PER_PAGE}
          onPage={setPage}
          columns={["Tracking number", "Order", "Carrier", "Status", "Date", "Cost"]}
        >
          {result.shipments.map((shipment) => (
            <Table.Tr key={shipment.id}>
              <Table.Td>
                <Anchor href={`#/shipments/${shipment.id}`}>
                  {shipment.tracking_number ?? `Shipment ${shipment.id}`}
                </Anchor>
              </Table.Td>
              <Table.Td>{shipment.order_id ?? "—"}</Table.Td>
              <Table.Td>{shipment.shipping_service?.carrier_code.toUpperCase() ?? "—"}</Table.Td>
              <Table.Td>
                <Badge variant="outline" color="dark">
                  {shipment.status.replaceAll("_", " ")}
                </Badge>
              </Table.Td>
              <Table.Td>{shipment.created_at.slice(0, 10)}</Table.Td>
              <Table.Td>{money(shipment.payment?.amount)}</Table.Td>
            </Table.Tr>
          ))}
        </PagedTable>
      )}
    </>
  );
}
