import { Anchor, Badge, Button, Code, Group, Loader, Stack, Table, Text, TextInput } from "@mantine/core";
import { type FormEvent, Fragment, useCallback, useEffect, useState } from "react";
import type { Static } from "typebox";
import type { Delivery as DeliverySchema } from "../../../src/http/routes/subscriptions/subscriptions.schemas.js";
import { api, call, failureMessage, utcTime } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { Pager } from "../Pager";
import { PageTitle } from "../PageTitle";
import { STREAMS, StatusBadge, type Subscription } from "./Webhooks";

/** A delivery as the API answers it. */
type Delivery = Static<typeof DeliverySchema>;

interface StreamEvent {
  id: number;
  stream: string;
  payload: Record<string, unknown>;
}

const PER_PAGE = 25;
/** While a delivery is pending, the log asks again this often to show how it ended. */
const PENDING_REFRESH_MS = 2_000;
const STATUS_COLORS: Record<Delivery["status"], string> = { pending: "dark", succeeded: "green", failed: "red" };

/**
 * The body a delivery posted. The log keeps the events' ids, not the body, so it is rebuilt from
 * the same events (`GET /api/v2/events`) as the worker builds it (src/events/webhook-message.ts).
 */
async function requestBody(
  stream: Subscription["subscription_type"],
  firstEventId: number,
  lastEventId: number,
  count: number,
): Promise<string> {
  const query = new URLSearchParams({
    after: String(firstEventId - 1),
    // Event ids count across accounts and streams; the message's events are the stream's next `count`.
    per_page: String(count),
    stream,
  });
  const answer = await api.get<{ events: StreamEvent[] }>(`/api/v2/events?${query}`);
  const payload = answer.events.filter((event) => event.id <= lastEventId).map((event) => event.payload);
  const head =
    stream === "payment_status" ? { subscription_type: stream } : { subscription_type: stream, status: "active" };
  return JSON.stringify({ ...head, payload }, null, 2);
}

/** A block of text that scrolls, reachable by keyboard to scroll it. */
function Block({ label, text }: { label: string; text: string }) {
  return (
    <Code block className="delivery-block" tabIndex={0} aria-label={label}>
      {text}
    </Code>
  );
}

/** One delivery's request (as the API lets it be rebuilt) and the answer it got. */
function DeliveryDetail({ subscription, delivery }: { subscription: Subscription; delivery: Delivery }) {
  const [body, setBody] = useState<string | null>(null);
  const { subscription_type: stream } = subscription;
  const { first_event_id: first, last_event_id: last, event_count: count } = delivery;
  useEffect(() => {
    requestBody(stream, first, last, count).then(setBody, (failure) =>
      setBody(`(not available: ${failureMessage(failure)})`),
    );
  }, [stream, first, last, count]);
  return (
    <div className="delivery-detail">
      <section aria-label={`Request of delivery ${delivery.id}`}>
        <Text fw={700}>Request</Text>
        <Text size="sm" className="wrap-anywhere">
          POST {subscription.url} (the subscription's URL now)
        </Text>
        <Block
          label={`Request headers of delivery ${delivery.id}`}
          text={`content-type: application/json\nwebhook-id: ${delivery.request_id}`}
        />
        <Text size="sm">
          Made anew for each attempt and not kept: webhook-timestamp and webhook-signature, or the Basic authorization.
        </Text>
        {body === null ? (
          <Loader size="sm" aria-label="Loading the request body" />
        ) : (
          <Block label={`Request body of delivery ${delivery.id}`} text={body} />
        )}
      </section>
      <section aria-label={`Response of delivery ${delivery.id}`}>
        <Text fw={700}>Response</Text>
        {delivery.status === "pending" ? (
          <Text size="sm">Not sent yet.</Text>
        ) : (
          <>
            <Text size="sm">
              Status: {delivery.response_code ?? "no answer"}
              {delivery.latency_ms !== null && `, after ${delivery.latency_ms} ms`}, at {utcTime(delivery.completed_at)}
            </Text>
            {delivery.error_message && <Text size="sm">Error: {delivery.error_message}</Text>}
            <Block
              label={`Response body of delivery ${delivery.id} (its first KiB)`}
              text={delivery.response_excerpt ?? "(empty)"}
            />
          </>
        )}
      </section>
    </div>
  );
}

/** A subscription's deliveries, newest first, with their request and response; retry and rewind. */
export function WebhookDeliveries({ id }: { id: number }) {
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  const [log, setLog] = useState<{ deliveries: Delivery[]; total: number } | null>(null);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [rewindTo, setRewindTo] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const query = new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) });
      const [found, { body, headers }] = await Promise.all([
        api.get<Subscription>(`/api/v2/subscriptions/${id}`),
        call<{ deliveries: Delivery[] }>("GET", `/api/v2/subscriptions/${id}/deliveries?${query}`),
      ]);
      setSubscription(found);
      setLog({ deliveries: body.deliveries, total: Number(headers.get("x-total-count") ?? 0) });
    } catch (failure) {
      setError(failureMessage(failure));
    }
  }, [id, page]);
  useEffect(() => {
    void load();
  }, [load]);
  const pending = log?.deliveries.some((delivery) => delivery.status === "pending") ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(() => void load(), PENDING_REFRESH_MS);
    return () => window.clearTimeout(timer);
  }, [pending, load]);

  const act = async (work: () => Promise<string>) => {
    setError(null);
    setNotice(null);
    try {
      setNotice(await work());
      await load();
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };
  const retry = (delivery: Delivery) =>
    act(async () => {
      const answer = await api.send<{ delivery: Delivery }>(
        "POST",
        `/api/v2/subscriptions/${id}/deliveries/${delivery.id}/retry`,
      );
      setPage(1);
      return `Delivery ${delivery.id} is queued to be sent again as delivery ${answer.delivery.id}.`;
    });
  const rewind = (event: FormEvent) => {
    event.preventDefault();
    // The field has no zone; the API reads a time without an offset as UTC, as the label says.
    void act(async () => {
      await api.send("PUT", `/api/v2/subscriptions/${id}`, { rewind_to_date: rewindTo });
      return `Rewound: every event created since ${rewindTo.replace("T", " ")} UTC is sent again.`;
    });
  };
  const toggle = (deliveryId: number) =>
    setOpen((shown) => {
      const next = new Set(shown);
      if (!next.delete(deliveryId)) next.add(deliveryId);
      return next;
    });

  const pages = log ? Math.max(1, Math.ceil(log.total / PER_PAGE)) : 1;
  return (
    <Stack>
      <Anchor href="#/webhooks">All webhooks</Anchor>
      <PageTitle>Delivery log</PageTitle>
      {subscription && (
        <Group>
          <Text className="wrap-anywhere">
            {STREAMS[subscription.subscription_type]} to {subscription.url}
          </Text>
          <StatusBadge status={subscription.status} />
        </Group>
      )}
      <Feedback notice={notice} error={error} />
      <form onSubmit={rewind} aria-label="Rewind">
        <Group align="end">
          <TextInput
            type="datetime-local"
            label="Rewind to (UTC)"
            description="Every event created since then is sent again, at most 30 days back."
            required
            step={1}
            value={rewindTo}
            onChange={(event) => setRewindTo(event.currentTarget.value)}
          />
          <Button type="submit">Rewind</Button>
        </Group>
      </form>
      {!log && !error && <Loader aria-label="Loading the deliveries" />}
      {log && subscription && (
        <>
          <Table>
            <Table.Caption>
              {log.total} deliver{log.total === 1 ? "y" : "ies"}, page {page} of {pages}
              {pending && " (refreshing while one is pending)"}
            </Table.Caption>
            <ColumnHeads names={["Time", "Status", "Attempt", "Events", "Answer", "Actions"]} />
            <Table.Tbody>
              {log.deliveries.map((delivery) => (
                <Fragment key={delivery.id}>
                  <Table.Tr>
                    <Table.Td>{utcTime(delivery.created_at)}</Table.Td>
                    <Table.Td>
                      <Badge variant="outline" color={STATUS_COLORS[delivery.status]}>
                        {delivery.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {delivery.trigger === "manual_retry" ? "Sent again on request" : "Automatic"}
                      <Text size="xs">{delivery.request_id}</Text>
                    </Table.Td>
                    <Table.Td>
                      {delivery.event_count} ({delivery.first_event_id}–{delivery.last_event_id})
                    </Table.Td>
                    <Table.Td>{delivery.response_code ?? delivery.error_message ?? "—"}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-expanded={open.has(delivery.id)}
                          aria-controls={`delivery-${delivery.id}`}
                          onClick={() => toggle(delivery.id)}
                        >
                          {open.has(delivery.id) ? "Hide details" : "Details"}
                        </Button>
                        <Button size="xs" disabled={delivery.status === "pending"} onClick={() => retry(delivery)}>
                          Retry
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {open.has(delivery.id) && (
                    <Table.Tr id={`delivery-${delivery.id}`}>
                      <Table.Td colSpan={6}>
                        <DeliveryDetail subscription={subscription} delivery={delivery} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
          {log.deliveries.length === 0 && <Text>No deliveries yet.</Text>}
          <Pager page={page} pages={pages} onPage={setPage}>
            <Button variant="default" onClick={() => void load()}>
              Refresh
            </Button>
          </Pager>
        </>
      )}
    </Stack>
  );
}
