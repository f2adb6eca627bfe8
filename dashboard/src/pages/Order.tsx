import {
  Alert,
  Anchor,
  Badge,
  Button,
  Fieldset,
  Group,
  List,
  NumberInput,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useCallback, useEffect, useState } from "react";
import { api, failureMessage, type Order, type OrderItem, type Shipment } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { LabelForm } from "../LabelForm";
import { PageTitle } from "../PageTitle";

const itemName = (item: OrderItem) => item.name ?? item.sku ?? `Item ${item.id}`;

/**
 * The order and items a label ships, bought in one call (`order_id` and `order_items`, see
 * docs/orders.md, A label for some items of an order). Every item at what is left of it names
 * none, so the label ships the rest of the order.
 */
function orderOf(order: Order, quantities: Record<number, number>) {
  const chosen = order.items.filter((item) => (quantities[item.id] ?? 0) > 0);
  const everything = order.items.every((item) => (quantities[item.id] ?? 0) === item.remaining_quantity);
  return {
    order_id: order.order_number,
    ...(everything ? {} : { order_items: chosen.map((item) => ({ id: item.id, quantity: quantities[item.id] })) }),
  };
}

/** How often, and how many times, the page looks for the order shipment the link job records. */
const LINK_POLL_MS = 500;
const LINK_POLLS = 40;

/**
 * One order with its items and shipments, **Ship**: choose the items and quantities, rate and buy
 * a label for them with the order's number and items, which the worker records as the order's
 * shipment; and **Cancel latest shipment**
 * (`POST /api/v2/order_stores/{id}/orders/{number}/shipments/cancel`).
 */
export function OrderPage({ storeId, orderNumber }: { storeId: number; orderNumber: string }) {
  const path = `/api/v2/order_stores/${storeId}/orders/${encodeURIComponent(orderNumber)}`;
  const [order, setOrder] = useState<Order | null>(null);
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const [label, setLabel] = useState<Shipment | null>(null);
  const [recorded, setRecorded] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      api.get<{ orders: Order[] }>(path).then(
        ({ orders: [found] }) => {
          if (!found) return undefined;
          setOrder(found);
          setQuantities(Object.fromEntries(found.items.map((item) => [item.id, item.remaining_quantity])));
          return found;
        },
        (failure) => {
          setError(failureMessage(failure));
          return undefined;
        },
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
  // The purchase queued the link; the page reads the order until the label's shipment is on it.
  const shipped = async (bought: Shipment) => {
    setLabel(bought);
    setRecorded(false);
    setNotice(null);
    for (let poll = 0; poll < LINK_POLLS; poll += 1) {
      const found = await load();
      if (found?.shipments.some((shipment) => shipment.tracking_number === bought.tracking_number)) {
        setRecorded(true);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, LINK_POLL_MS));
    }
  };
  const cancel = async () => {
    setNotice(null);
    setFailure(null);
    try {
      await api.send("POST", `${path}/shipments/cancel`);
      await load();
      setNotice("The order's latest shipment is cancelled.");
    } catch (refused) {
      setFailure(failureMessage(refused));
    }
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
          {recorded
            ? "The order shipment is recorded. "
            : "A label was bought for the order; its shipment is recorded in a moment (reload the page). "}
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
      <Feedback notice={notice} error={failure} />
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
      {order.shipments.length > 0 && (
        <Group>
          <Button color="red" variant="outline" onClick={() => void cancel()}>
            Cancel latest shipment
          </Button>
        </Group>
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
            purchase={orderOf(order, quantities)}
            onBought={shipped}
          />
        </Fieldset>
      )}
    </Stack>
  );
}
