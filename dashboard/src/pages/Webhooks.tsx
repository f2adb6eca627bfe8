import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Fieldset,
  Group,
  Loader,
  NativeSelect,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import type { Static } from "typebox";
import type { Subscription as SubscriptionSchema } from "../../../src/http/routes/subscriptions/subscriptions.schemas.js";
import { api, failureMessage } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";

/** A subscription as the API answers it. */
export type Subscription = Static<typeof SubscriptionSchema>;

export const STREAMS: Record<Subscription["subscription_type"], string> = {
  shipment_tracking: "Tracking events",
  payment_status: "Payment status",
};

const AUTH_TYPES: Record<Subscription["auth_type"], string> = {
  hmac: "Signed (HMAC, Standard Webhooks)",
  http_basic: "HTTP Basic",
};

/**
 * The API shows a signing secret in full only in the answer of the request that set it (at least
 * 16 characters); every other answer masks it to `****` and its last four.
 */
const shownInFull = (secret: string | null): secret is string => secret !== null && !/^\*{4}.{0,4}$/.test(secret);

export function StatusBadge({ status }: { status: Subscription["status"] }) {
  return (
    <Badge variant="outline" color={status === "active" ? "green" : "red"}>
      {status === "active" ? "active" : "disabled"}
    </Badge>
  );
}

/** Creates a subscription, or changes one's URL and authentication (its stream cannot change). */
function SubscriptionForm({
  editing,
  onSaved,
  onCancel,
}: {
  editing: Subscription | null;
  onSaved: (saved: Subscription) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState(editing?.url ?? "");
  const [stream, setStream] = useState<string>(editing?.subscription_type ?? "shipment_tracking");
  const [authType, setAuthType] = useState<string>(editing?.auth_type ?? "hmac");
  const [secret, setSecret] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keepsBasic = editing?.auth_type === "http_basic" && authType === "http_basic";
  // The form opens above the list: the keyboard's focus goes to its first field, not left on the button.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    // Blank secret and credentials are left out: the API then keeps the current ones (or
    // generates a secret), while an empty string would be a value.
    const body: Record<string, string> = { url: url.trim(), auth_type: authType };
    if (authType === "hmac" && secret) body.hmac_shared_secret = secret;
    if (authType === "http_basic" && (username || password || !keepsBasic)) {
      body.http_username = username;
      body.http_password = password;
    }
    try {
      onSaved(
        editing
          ? await api.send<Subscription>("PUT", `/api/v2/subscriptions/${editing.id}`, body)
          : await api.send<Subscription>("POST", "/api/v2/subscriptions", { ...body, subscription_type: stream }),
      );
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={save} aria-label={editing ? `Edit subscription ${editing.id}` : "New subscription"}>
      <Fieldset legend={editing ? `Edit subscription ${editing.id}` : "New subscription"} mb="md">
        <Stack>
          <Feedback error={error} />
          <TextInput
            ref={first}
            label="URL"
            description="HTTPS, on a public address: Porter posts the events here."
            type="url"
            required
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
          />
          <Group grow align="start">
            <NativeSelect
              label="Events"
              disabled={editing !== null}
              description={editing ? "A subscription's events cannot change." : undefined}
              value={stream}
              data={Object.entries(STREAMS).map(([value, label]) => ({ value, label }))}
              onChange={(event) => setStream(event.currentTarget.value)}
            />
            <NativeSelect
              label="Authentication"
              value={authType}
              data={Object.entries(AUTH_TYPES).map(([value, label]) => ({ value, label }))}
              onChange={(event) => setAuthType(event.currentTarget.value)}
            />
          </Group>
          {authType === "hmac" ? (
            <PasswordInput
              label="Signing secret"
              description={
                editing?.auth_type === "hmac"
                  ? "Leave blank to keep the current secret."
                  : "Leave blank and Porter generates one (shown once)."
              }
              autoComplete="new-password"
              value={secret}
              onChange={(event) => setSecret(event.currentTarget.value)}
            />
          ) : (
            <Group grow align="start">
              <TextInput
                label="User name"
                required={!keepsBasic}
                description={keepsBasic ? "Leave both blank to keep the current ones." : undefined}
                autoComplete="off"
                value={username}
                onChange={(event) => setUsername(event.currentTarget.value)}
              />
              <PasswordInput
                label="Password"
                required={!keepsBasic}
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
              />
            </Group>
          )}
          <Group>
            <Button type="submit" loading={busy}>
              {editing ? "Save changes" : "Create subscription"}
            </Button>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}

/** The mode's webhook subscriptions: create, edit, disable and re-enable, delete. */
export function WebhooksPage() {
  const [subscriptions, setSubscriptions] = useState<Subscription[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [form, setForm] = useState<{ editing: Subscription | null } | null>(null);

  const load = useCallback(
    () =>
      api.get<{ subscriptions: Subscription[] }>("/api/v2/subscriptions?status=all&per_page=1000").then(
        (answer) => setSubscriptions(answer.subscriptions),
        (failure) => setError(failureMessage(failure)),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (done: string, work: () => Promise<unknown>) => {
    setError(null);
    setNotice(null);
    setSecret(null);
    try {
      await work();
      setNotice(done);
      await load();
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };
  const saved = (subscription: Subscription) => {
    setForm(null);
    setError(null);
    setNotice(`Subscription ${subscription.id} is saved.`);
    setSecret(shownInFull(subscription.hmac_shared_secret) ? subscription.hmac_shared_secret : null);
    void load();
  };
  const setStatus = (subscription: Subscription, status: Subscription["status"]) =>
    act(
      status === "active"
        ? `Subscription ${subscription.id} is active again; the batch that failed is sent at once.`
        : `Subscription ${subscription.id} is disabled; its events wait until it is re-enabled.`,
      () => api.send("PUT", `/api/v2/subscriptions/${subscription.id}`, { status }),
    );
  const remove = (subscription: Subscription) => {
    if (!window.confirm(`Delete the subscription to ${subscription.url}? Deliveries stop at once.`)) return;
    void act(`Subscription ${subscription.id} is deleted.`, () =>
      api.send("DELETE", `/api/v2/subscriptions/${subscription.id}`),
    );
  };

  return (
    <Stack>
      <PageTitle>Webhooks</PageTitle>
      <Text>
        Porter posts tracking and payment events of this mode to each subscription's URL, in order, and keeps a log of
        every delivery.
      </Text>
      {notice && (
        <Alert color="green" role="status">
          {notice}
          {secret && (
            <Text mt="xs">
              Signing secret, shown this once — store it now: <Code data-testid="signing-secret">{secret}</Code>
            </Text>
          )}
        </Alert>
      )}
      <Feedback error={error} />
      {form ? (
        <SubscriptionForm
          key={form.editing?.id ?? "new"}
          editing={form.editing}
          onSaved={saved}
          onCancel={() => setForm(null)}
        />
      ) : (
        <Group>
          <Button onClick={() => setForm({ editing: null })}>New subscription</Button>
        </Group>
      )}
      {!subscriptions && !error && <Loader aria-label="Loading the subscriptions" />}
      {subscriptions && subscriptions.length === 0 && <Text>No subscriptions in this mode yet.</Text>}
      {subscriptions && subscriptions.length > 0 && (
        <Table striped>
          <Table.Caption>
            {subscriptions.length} subscription{subscriptions.length === 1 ? "" : "s"}
          </Table.Caption>
          <ColumnHeads names={["URL", "Events", "Status", "Authentication", "Last answer", "Actions"]} />
          <Table.Tbody>
            {subscriptions.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td className="wrap-anywhere">{s.url}</Table.Td>
                <Table.Td>{STREAMS[s.subscription_type]}</Table.Td>
                <Table.Td>
                  <StatusBadge status={s.status} />
                  {s.error_count > 0 && (
                    <Text size="sm">
                      {s.error_count} failure{s.error_count === 1 ? "" : "s"} in a row
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {s.auth_type === "hmac" ? `Secret ${s.hmac_shared_secret ?? "—"}` : AUTH_TYPES.http_basic}
                </Table.Td>
                <Table.Td>
                  {s.last_response_code ?? "—"} {s.last_response_message}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Anchor href={`#/webhooks/${s.id}`} aria-label={`Delivery log of subscription ${s.id}`}>
                      Delivery log
                    </Anchor>
                    <Button size="xs" variant="default" onClick={() => setForm({ editing: s })}>
                      Edit
                    </Button>
                    {s.status === "active" ? (
                      <Button size="xs" variant="default" onClick={() => setStatus(s, "error_disabled")}>
                        Disable
                      </Button>
                    ) : (
                      <Button size="xs" variant="default" onClick={() => setStatus(s, "active")}>
                        Re-enable
                      </Button>
                    )}
                    <Button size="xs" color="red" onClick={() => remove(s)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
