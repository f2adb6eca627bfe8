import { Alert, Anchor, Group, Loader, NativeSelect, NavLink, SegmentedControl, Text } from "@mantine/core";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, failureMessage, type Permission, rememberSession, type Session } from "./api";
import { PageTitle } from "./PageTitle";
import { BuyLabel } from "./pages/BuyLabel";
import { CloseOut } from "./pages/CloseOut";
import { MeterPage } from "./pages/Meter";
import { OrderPage } from "./pages/Order";
import { OrderStoresPage } from "./pages/OrderStores";
import { OrdersList } from "./pages/Orders";
import { PaymentMethodsPage } from "./pages/PaymentMethods";
import { Pickups } from "./pages/Pickups";
import { ShipmentPage } from "./pages/Shipment";
import { ShipmentsList } from "./pages/ShipmentsList";
import { SignIn } from "./pages/SignIn";
import { SpendReportPage } from "./pages/SpendReport";
import { UsersPage } from "./pages/Users";
import { WebhookDeliveries } from "./pages/WebhookDeliveries";
import { WebhooksPage } from "./pages/Webhooks";
import { go, useRoute } from "./router";

/**
 * The navigation, each page with the permission its operations need: a user sees only the pages
 * their roles allow (the API refuses the rest anyway).
 */
const PAGES: { path: string; label: string; permission: Permission | Permission[] }[] = [
  { path: "shipments", label: "Shipments", permission: "shipping" },
  { path: "buy", label: "Buy a label", permission: "shipping" },
  { path: "close-out", label: "Close out", permission: "shipping" },
  { path: "pickups", label: "Pickups", permission: "shipping" },
  { path: "stores", label: "Orders", permission: "shipping" },
  // Any of the permissions: the balance needs shipping, refills billing.
  { path: "meter", label: "Meter", permission: ["shipping", "billing"] },
  { path: "payment-methods", label: "Payment methods", permission: "billing" },
  { path: "spend", label: "Spend report", permission: "shipping" },
  { path: "webhooks", label: "Webhooks", permission: "shipping" },
  { path: "users", label: "Users", permission: "administration" },
];

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const route = useRoute();

  useEffect(() => {
    api.get<Session>("/dashboard/session").then(
      (found) => setSession(rememberSession(found)),
      () => setSession(null),
    );
  }, []);

  const signedIn = useCallback((started: Session) => {
    setSession(rememberSession(started));
    go("/");
  }, []);

  if (session === undefined) return <Loader aria-label="Loading" m="xl" />;
  if (session === null) return <SignIn linkToken={route[0] === "link" ? route[1] : undefined} onSignedIn={signedIn} />;
  return <Shell session={session} route={route} onSession={setSession} />;
}

interface Child {
  id: number;
  name: string;
}

function Shell({
  session,
  route,
  onSession,
}: {
  session: Session;
  route: string[];
  onSession: (session: Session | null) => void;
}) {
  const [children, setChildren] = useState<Child[]>([]);
  const [error, setError] = useState<string | null>(null);
  const main = useRef<HTMLElement>(null);
  const pages = PAGES.filter((p) => [p.permission].flat().some((needed) => session.permissions.includes(needed)));
  const page = route[0] ?? pages[0]?.path ?? "shipments";
  const shown = (path: string) => page === path && pages.some((p) => p.path === path);

  useEffect(() => {
    // Only a parent has children; a user who may not list them switches nothing.
    api.get<{ customers: { id: number; name: string }[] }>("/api/v2/customers").then(
      (answer) => setChildren(answer.customers.map((c) => ({ id: c.id, name: c.name }))),
      () => setChildren([]),
    );
  }, []);

  const change = async (body: { mode?: string; account_id?: number }) => {
    setError(null);
    try {
      onSession(rememberSession(await api.send<Session>("PUT", "/dashboard/session", body)));
      go("/");
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };
  const signOut = async () => {
    await api.send("DELETE", "/dashboard/session").catch(() => undefined);
    onSession(null);
    go("/");
  };

  const accounts = [{ id: session.own_account.id, name: session.own_account.name }, ...children];
  return (
    <div className="shell">
      <button type="button" className="skip-link" onClick={() => main.current?.querySelector("h1")?.focus()}>
        Skip to content
      </button>
      <header className="shell-header">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700} component="span">
            Porter
          </Text>
          <Group wrap="nowrap">
            {accounts.length > 1 && (
              <NativeSelect
                label="Account"
                size="xs"
                value={String(session.account.id)}
                data={accounts.map((a) => ({ value: String(a.id), label: a.name }))}
                onChange={(event) => change({ account_id: Number(event.currentTarget.value) })}
              />
            )}
            <SegmentedControl
              aria-label="Mode"
              size="xs"
              value={session.mode}
              data={[
                { value: "test", label: "Test" },
                { value: "production", label: "Production" },
              ]}
              onChange={(mode) => change({ mode })}
            />
            <Text size="sm" component="span">
              {session.user.email}
            </Text>
            <Anchor component="button" size="sm" onClick={signOut}>
              Sign out
            </Anchor>
          </Group>
        </Group>
      </header>
      <nav className="shell-nav" aria-label="Pages">
        {pages.map((p) => (
          <NavLink
            key={p.path}
            href={`#/${p.path}`}
            label={p.label}
            active={page === p.path}
            aria-current={page === p.path ? "page" : undefined}
          />
        ))}
      </nav>
      <main className="shell-main" id="main" ref={main}>
        {session.mode === "test" && (
          <Alert color="yellow" mb="md" title="Test mode">
            Labels bought here are test labels: nothing is shipped or charged.
          </Alert>
        )}
        {error && (
          <Alert color="red" mb="md" role="alert">
            {error}
          </Alert>
        )}
        {shown("shipments") && route[1] && <ShipmentPage key={route[1]} id={Number(route[1])} />}
        {shown("shipments") && !route[1] && <ShipmentsList />}
        {shown("buy") && <BuyLabel />}
        {shown("meter") && <MeterPage permissions={session.permissions} />}
        {shown("close-out") && <CloseOut />}
        {shown("pickups") && <Pickups />}
        {shown("stores") && !route[1] && <OrderStoresPage />}
        {shown("stores") && route[1] && !route[3] && <OrdersList key={route[1]} storeId={Number(route[1])} />}
        {shown("stores") && route[3] && <OrderPage key={route[3]} storeId={Number(route[1])} orderNumber={route[3]} />}
        {shown("webhooks") &&
          (route[1] ? <WebhookDeliveries key={route[1]} id={Number(route[1])} /> : <WebhooksPage />)}
        {shown("users") && <UsersPage />}
        {shown("payment-methods") && <PaymentMethodsPage />}
        {shown("spend") && <SpendReportPage />}
        {!pages.some((p) => p.path === page) && <PageTitle>No such page</PageTitle>}
      </main>
    </div>
  );
}
