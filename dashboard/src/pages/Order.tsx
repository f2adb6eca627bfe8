import { Alert, Anchor, Badge, Fieldset, Group, List, NumberInput, Stack, Table, Text, Title } from "@mantine/core";
import { useCallback, useEffect, useState } from "react";
import { api, failureMessage, type Order, type OrderItem, type Shipment } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { LabelForm } from "../LabelForm";
import { PageTitle } from "../PageTitle";

const itemName = (item: OrderItem) => item.name ?? item.sku ?? `Item ${item.id}`;

/**
 * What the order shipment records of a Porter label: its tracking number, carrier, service, cost
 * and weight, and the items chosen. Every item at what is left of it names none, so the shipment
 * carries the rest of the order (docs/orders.md, Partial shipments).
 */
function shipmentOf(label: Shipment, items: OrderItem[], quantities: Record<number, number>) {
  const chosen = items.filter((item) => (quantities[item.id] ?? 0) > 0);
  const everything = items.every((item) => (quantities[item.id] ?? 0) === item.remaining_quantity);
  return {
    shipping_cost: label.payment?.amount ?? label.shipping_service?.rate ?? 0,
    ship_date: label.ship_date ?? label.created_at,
    tracking_number: label.tracking_number,
    carrier: label.shipping_service?.carrier_code,
    service: label.shipping_service?.service,
    weight: label.parcels.reduce((sum, parcel) => sum + parcel.weight, 0),
    ...(everything ? {} : { items: chosen.map((item) => ({ id: item.id, quantity: quantities[item.id] })) }),
  };
}

/**
 * One order with its items and shipments, and **Ship**: choose the items and quantities, rate and
 * buy a label for them, and the label is recorded as the order's shipment
 * (`POST /api/v2/order_stores/{id}/orders/{number}/shipments` with those items).
 */
export function OrderPage({ storeId, orderNumber }: { storeId: number; orderNumber: string }) {
  const path = `/api/v2/order_stores/${storeId}/orders/${encodeURIComponent(orderNumber)}`;
  const [order, setOrder] = useState<Order | null>(null);
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const [label, setLabel] = useState<Shipment | null>(null);
  const [recorded, setRecorded] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      api.get<{ orders: Order[] }>(path).then(
        ({ orders: [found] }) => {
          if (!found) return;
          setOrder(found);
          setQuantities(Object.fromEntries(found.items.map((item) => [item.id, item.remaining_quantity])));
        },
        (failure) => setError(failureMessage(failure)),
      ),
    [path],
  );
  useEffect(() => {
    void load();
  }, [load]);

  if (error) {
    return (
      <>
        <PageTitle>Order {orderNumber}</PageTitle>
        <Feedback error={error} />
      </>
    );
  }
  if (!order) return <Text>Loading the order…</Text>;

  const left = order.items.filter((item) => item.remaining_quantity > 0);
  const nothingChosen = left.every((item) => (quantities[item.id] ?? 0) <= 0);
  const shipped = async (bought: Shipment) => {
    setLabel(bought);
    setRecorded(false);
    await api.send("POST", `${path}/shipments`, shipmentOf(bought, order.items, quantities));
    setRecorded(true);
    await load();
  };

  return (
    <Stack>
      <PageTitle>Order {order.order_number}</PageTitle>
      <Anchor href={`#/stores/${storeId}`}>Orders of {order.order_store_name}</Anchor>
      <Group>
        <Text>
          Shipment status:{" "}
          <Badge variant="outline" color="dark">
            {order.shipment_status}
          </Badge>
        </Text>
        <Text>Payment: {order.payment_status ?? "—"}</Text>
        <Text>Ordered: {order.order_date?.slice(0, 10) ?? "—"}</Text>
        <Text>Total: {order.total === null ? "—" : `${order.total} ${order.currency ?? ""}`.trim()}</Text>
      </Group>
      {order.warnings.length > 0 && (
        <Alert color="yellow" title="Before this order becomes a label">
          <List>
            {order.warnings.map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {label && (
        <Alert color={recorded ? "green" : "yellow"} role="status">
          {recorded ? "The order shipment is recorded. " : "A label was bought. "}
          <Anchor href={`#/shipments/${label.id}`}>Open shipment {label.tracking_number ?? label.id}</Anchor>
        </Alert>
      )}
      <Table striped>
        <Table.Caption>Items</Table.Caption>
        <ColumnHeads names={["Item", "SKU", "Ordered", "Shipped", "Left to ship", "Ship now"]} />
        <Table.Tbody>
          {order.items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>{itemName(item)}</Table.Td>
              <Table.Td>{item.sku ?? "—"}</Table.Td>
              <Table.Td>{item.quantity ?? "—"}</Table.Td>
              <Table.Td>{item.shipped_quantity}</Table.Td>
              <Table.Td>{item.remaining_quantity}</Table.Td>
              <Table.Td>
                {item.remaining_quantity > 0 ? (
                  <NumberInput
                    aria-label={`Quantity of ${itemName(item)} to ship`}
                    size="xs"
                    w={110}
                    min={0}
                    max={item.remaining_quantity}
                    allowDecimal={!Number.isInteger(item.remaining_quantity)}
                    value={quantities[item.id] ?? 0}
                    onChange={(value) => setQuantities({ ...quantities, [item.id]: Number(value) || 0 })}
                  />
                ) : (
                  "—"
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {order.shipments.length > 0 && (
        <Table striped>
          <Table.Caption>Shipments</Table.Caption>
          <ColumnHeads names={["Tracking number", "Carrier and service", "Date", "Cost", "Items"]} />
          <Table.Tbody>
            {order.shipments.map((shipment) => (
              <Table.Tr key={shipment.id}>
                <Table.Td>{shipment.tracking_number}</Table.Td>
                <Table.Td>
                  {shipment.carrier} {shipment.service}
                </Table.Td>
                <Table.Td>{shipment.ship_date.slice(0, 10)}</Table.Td>
                <Table.Td>{shipment.shipping_cost ?? "—"}</Table.Td>
                <Table.Td>
                  {shipment.parcels[0]?.parcel_items
                    .map((item) => `${item.quantity} × ${item.name ?? item.id}`)
                    .join(", ") || "—"}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {left.length === 0 ? (
        <Text>Every item of this order has shipped.</Text>
      ) : (
        <Fieldset legend="Ship">
          <Title order={2} size="h4" mb="xs">
            Ship the items chosen above
          </Title>
          <LabelForm
            to={order.shipping_address}
            buyText="Buy label and ship"
            blocked={nothingChosen ? "Choose at least one item to ship." : null}
            onBought={shipped}
          />
        </Fieldset>
      )}
    </Stack>
  );
}
