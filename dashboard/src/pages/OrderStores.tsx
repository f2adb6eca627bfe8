import { Anchor, Badge, Button, Table, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { api, failureMessage, type OrderStore, type StoreSync } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";

const when = (instant: string | null) => (instant ? `${instant.slice(0, 16).replace("T", " ")} UTC` : "never");

/** What a store's last sync did, in words; a custom store's orders come through the API, never a sync. */
function syncState(store: OrderStore, sync: StoreSync | undefined) {
  if (store.service_type === "custom") return "Not synced: orders come through the API";
  if (!sync) return "…";
  if (sync.status === null) return "Never synced";
  const last = `last complete sync ${when(sync.last_synced_at)}`;
  return sync.status === "failed" ? `Failed: ${sync.error ?? "no reason given"} (${last})` : `${sync.status}, ${last}`;
}

/** The mode's order stores, each with its platform and sync state, and **Sync now** for platform stores. */
export function OrderStoresPage() {
  const [stores, setStores] = useState<OrderStore[] | null>(null);
  const [syncs, setSyncs] = useState<Record<number, StoreSync>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.get<{ order_stores: OrderStore[] }>("/api/v2/order_stores").then(
      async ({ order_stores }) => {
        setStores(order_stores);
        const platform = order_stores.filter((store) => store.service_type !== "custom");
        const states = await Promise.all(
          platform.map((store) => api.get<{ sync: StoreSync }>(`/api/v2/order_stores/${store.id}/sync`)),
        );
        setSyncs(Object.fromEntries(states.map(({ sync }) => [sync.order_store_id, sync])));
      },
      (failure) => setError(failureMessage(failure)),
    );
  }, []);

  const syncNow = async (store: OrderStore) => {
    setError(null);
    try {
      const { sync } = await api.send<{ sync: StoreSync }>("POST", `/api/v2/order_stores/${store.id}/sync`);
      setSyncs((known) => ({ ...known, [store.id]: sync }));
    } catch (failure) {
      setError(`${store.name}: ${failureMessage(failure)}`);
    }
  };

  return (
    <>
      <PageTitle>Order stores</PageTitle>
      <Feedback error={error} />
      {stores && stores.length === 0 && <Text>No order stores in this mode yet: create one through the API.</Text>}
      {stores && stores.length > 0 && (
        <Table striped>
          <ColumnHeads names={["Store", "Platform", "Sync state", "Sync"]} />
          <Table.Tbody>
            {stores.map((store) => (
              <Table.Tr key={store.id}>
                <Table.Td>
                  <Anchor href={`#/stores/${store.id}`}>{store.name}</Anchor>
                </Table.Td>
                <Table.Td>
                  <Badge variant="outline" color="dark">
                    {store.service_type}
                  </Badge>
                </Table.Td>
                <Table.Td data-testid={`sync-state-${store.id}`}>{syncState(store, syncs[store.id])}</Table.Td>
                <Table.Td>
                  {store.service_type !== "custom" && (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => syncNow(store)}
                      aria-label={`Sync now: ${store.name}`}
                    >
                      Sync now
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
