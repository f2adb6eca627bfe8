import { Anchor, Badge, Button, Group, NativeSelect, Table } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { api, call, failureMessage, type Order, type OrderStore } from "../api";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";
import { PagedTable } from "../Tables";

const PER_PAGE = 25;
/** The list's `status` filter (docs/orders.md): the orders' shipment status, or all of them. */
const STATUSES = [
  { value: "pending", label: "Pending" },
  { value: "partial", label: "Partly shipped" },
  { value: "shipped", label: "Shipped" },
  { value: "all", label: "Any status" },
];

const shipTo = (order: Order) =>
  [
    [order.shipping_address.first_name, order.shipping_address.last_name].filter(Boolean).join(" "),
    order.shipping_address.city,
  ]
    .filter(Boolean)
    .join(", ") || "—";

/** One store's orders through `GET /api/v2/order_stores/{id}/orders`'s filter and pages; each opens to be shipped. */
export function OrdersList({ storeId }: { storeId: number }) {
  const [store, setStore] = useState<OrderStore | null>(null);
  const [status, setStatus] = useState("pending");
  const [filter, setFilter] = useState("pending");
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ orders: Order[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.get<{ order_store: OrderStore }>(`/api/v2/order_stores/${storeId}`).then(
      ({ order_store }) => setStore(order_store),
      (failure) => setError(failureMessage(failure)),
    );
  }, [storeId]);
  useEffect(() => {
    const query = new URLSearchParams({ page: String(page), per_page: String(PER_PAGE), status: filter });
    call<{ orders: Order[] }>("GET", `/api/v2/order_stores/${storeId}/orders?${query}`).then(
      ({ body, headers }) => setResult({ orders: body.orders, total: Number(headers.get("x-total-count") ?? 0) }),
      (failure) => setError(failureMessage(failure)),
    );
  }, [storeId, filter, page]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setFilter(status);
  };
  const orderLink = (order: Order) => `#/stores/${storeId}/orders/${encodeURIComponent(order.order_number)}`;

  return (
    <>
      <PageTitle>{store ? `Orders of ${store.name}` : "Orders"}</PageTitle>
      <Anchor href="#/stores" mb="md" display="inline-block">
        All order stores
      </Anchor>
      <form onSubmit={apply} aria-label="Filter orders">
        <Group align="end" mb="md">
          <NativeSelect
            label="Shipment status"
            value={status}
            data={STATUSES}
            onChange={(event) => setStatus(event.currentTarget.value)}
          />
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      <Feedback error={error} />
      {result && (
        <PagedTable
          noun="order"
          total={result.total}
          rows={result.orders.length}
          page={page}
          perPage={PER_PAGE}
          onPage={setPage}
          columns={["Order", "Date", "Ship to", "Total", "Payment", "Shipment status", "Ship"]}
        >
          {result.orders.map((order) => (
            <Table.Tr key={order.id}>
              <Table.Td>
                <Anchor href={orderLink(order)}>{order.order_number}</Anchor>
              </Table.Td>
              <Table.Td>{order.order_date?.slice(0, 10) ?? "—"}</Table.Td>
              <Table.Td>{shipTo(order)}</Table.Td>
              <Table.Td>{order.total === null ? "—" : `${order.total} ${order.currency ?? ""}`.trim()}</Table.Td>
              <Table.Td>{order.payment_status ?? "—"}</Table.Td>
              <Table.Td>
                <Badge variant="outline" color="dark">
                  {order.shipment_status}
                </Badge>
              </Table.Td>
              <Table.Td>
                {order.shipment_status !== "shipped" && (
                  <Anchor href={orderLink(order)} aria-label={`Ship order ${order.order_number}`}>
                    Ship
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </PagedTable>
      )}
    </>
  );
}
