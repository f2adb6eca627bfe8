import { Anchor, Button, Group, Table, Text, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { call, failureMessage, money } from "../api";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";

const PER_PAGE = 25;
const REPORT = "/api/v2/reports/meter_transaction";

interface Transaction {
  customer_name: string;
  transaction_date_time: string;
  transaction_type: "debit" | "credit";
  amount: number;
  tracking_numbers: string[];
}

interface WeeklySpend {
  week: string;
  carrier_code: string;
  amount: number;
}

/** Dates typed in the form as the report's window: a whole day `to` ends at its last second (UTC). */
function windowQuery(dates: { from: string; to: string }): URLSearchParams {
  const query = new URLSearchParams();
  if (dates.from) query.set("from_time", dates.from);
  if (dates.to) query.set("to_time", `${dates.to}T23:59:59.999Z`);
  return query;
}

/**
 * The meter transaction report: spend by carrier and week (summed by the server, however long the
 * ledger), the transactions page by page, and the CSV of the whole window.
 */
export function SpendReportPage() {
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [dates, setDates] = useState({ from: "", to: "" });
  const [page, setPage] = useState(1);
  const [spend, setSpend] = useState<WeeklySpend[] | null>(null);
  const [rows, setRows] = useState<{ list: Transaction[]; hasNext: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setError(null);
    call<{ spend: WeeklySpend[] }>("GET", `${REPORT}/spend?${windowQuery(dates)}`).then(
      ({ body }) => setSpend(body.spend),
      (failure) => setError(failureMessage(failure)),
    );
  }, [dates]);
  useEffect(() => {
    const query = windowQuery(dates);
    query.set("page", String(page));
    query.set("per_page", String(PER_PAGE));
    call<{ meter_transactions: Transaction[] }>("GET", `${REPORT}?${query}`).then(
      ({ body, headers }) =>
        setRows({ list: body.meter_transactions, hasNext: /rel="next"/.test(headers.get("link") ?? "") }),
      (failure) => setError(failureMessage(failure)),
    );
  }, [dates, page]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setDates({ from, to });
  };
  const csv = windowQuery(dates);
  csv.set("format", "csv");

  return (
    <>
      <PageTitle>Spend report</PageTitle>
      <form onSubmit={apply} aria-label="Report dates">
        <Group align="end" mb="md">
          <TextInput type="date" label="From (UTC)" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To (UTC)" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <Button type="submit">Show</Button>
          <Anchor href={`${REPORT}?${csv}`} download="meter_transactions.csv">
            Download the CSV
          </Anchor>
        </Group>
      </form>
      <Feedback error={error} />
      {spend && <SpendChart spend={spend} />}
      {rows && (
        <>
          <Table striped>
            <Table.Caption>
              Meter transactions, page {page}
              {rows.hasNext ? "" : " (the last)"}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Date (UTC)</Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Amount</Table.Th>
                <Table.Th scope="col">Tracking numbers</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.list.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: report rows carry no id, and a page's rows are replaced whole
                <Table.Tr key={`${page}-${i}`} data-testid="transaction-row">
                  <Table.Td>{row.transaction_date_time.replace("T", " ").slice(0, 19)}</Table.Td>
                  <Table.Td>{row.transaction_type}</Table.Td>
                  <Table.Td>{money(row.amount)}</Table.Td>
                  <Table.Td>{row.tracking_numbers.join(" ") || "—"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {rows.list.length === 0 && <Text mt="md">No transactions in these dates.</Text>}
          <Group mt="md">
            <Button variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous page
            </Button>
            <Button variant="default" disabled={!rows.hasNext} onClick={() => setPage(page + 1)}>
              Next page
            </Button>
          </Group>
        </>
      )}
    </>
  );
}

/** Colours with 3:1 contrast on white (WCAG 1.4.11 for graphics), one per carrier in turn. */
const COLOURS = ["#1c5fa8", "#b3401b", "#2b7a32", "#7b3fa0", "#8a6100", "#006d75", "#a3245e"];
const HEIGHT = 220;
const BAR = 18;
const GAP = 14;

/**
 * Spend as grouped bars, one group per week and one bar per carrier, drawn as SVG (no script
 * or style the Content-Security-Policy would refuse), with the same figures in a table for
 * screen readers and for anyone who wants the numbers.
 */
function SpendChart({ spend }: { spend: WeeklySpend[] }) {
  if (spend.length === 0) return <Text mb="md">No labels bought in these dates.</Text>;
  const weeks = [...new Set(spend.map((s) => s.week))];
  const carriers = [...new Set(spend.map((s) => s.carrier_code))].sort();
  const top = Math.max(0, ...spend.map((s) => s.amount));
  const bottom = Math.min(0, ...spend.map((s) => s.amount));
  const scale = (HEIGHT - 40) / (top - bottom || 1);
  const zero = 10 + top * scale;
  const groupWidth = carriers.length * BAR + GAP;
  const width = Math.max(320, 60 + weeks.length * groupWidth);
  const label = (s: WeeklySpend) => `${s.carrier_code.toUpperCase()}, week of ${s.week}: ${money(s.amount)}`;
  return (
    <figure className="spend-chart">
      <svg
        role="img"
        aria-labelledby="spend-chart-title"
        viewBox={`0 0 ${width} ${HEIGHT + 30}`}
        width={width}
        height={HEIGHT + 30}
      >
        <title id="spend-chart-title">Spend by carrier and week; the table below has the figures</title>
        <line x1={50} x2={width} y1={zero} y2={zero} stroke="#495057" />
        <text x={44} y={zero + 4} textAnchor="end" fontSize={11} fill="#212529">
          $0
        </text>
        <text x={44} y={14} textAnchor="end" fontSize={11} fill="#212529">
          {money(top)}
        </text>
        {weeks.map((week, w) => (
          <g key={week}>
            {carriers.map((carrier, c) => {
              const found = spend.find((s) => s.week === week && s.carrier_code === carrier);
              if (!found) return null;
              const h = Math.abs(found.amount) * scale;
              return (
                <rect
                  key={carrier}
                  data-testid={`spend-bar-${week}-${carrier}`}
                  data-amount={found.amount}
                  x={60 + w * groupWidth + c * BAR}
                  y={found.amount >= 0 ? zero - h : zero}
                  width={BAR - 2}
                  height={Math.max(h, 1)}
                  fill={COLOURS[carriers.indexOf(carrier) % COLOURS.length]}
                >
                  <title>{label(found)}</title>
                </rect>
              );
            })}
            <text x={60 + w * groupWidth} y={HEIGHT + 20} fontSize={11} fill="#212529">
              {week.slice(5)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        <Group gap="md" mt="xs">
          {carriers.map((carrier, c) => (
            <Group key={carrier} gap={4}>
              <svg width={12} height={12} aria-hidden="true">
                <rect width={12} height={12} fill={COLOURS[c % COLOURS.length]} />
              </svg>
              <Text size="sm" component="span">
                {carrier.toUpperCase()}
              </Text>
            </Group>
          ))}
        </Group>
      </figcaption>
      <Table mt="sm" mb="lg" maw={520} data-testid="spend-table">
        <Table.Caption>Spend by carrier and week (weeks start on Monday, UTC)</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Week of</Table.Th>
            <Table.Th scope="col">Carrier</Table.Th>
            <Table.Th scope="col">Spend</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {spend.map((s) => (
            <Table.Tr key={`${s.week}-${s.carrier_code}`}>
              <Table.Td>{s.week}</Table.Td>
              <Table.Td>{s.carrier_code.toUpperCase()}</Table.Td>
              <Table.Td>{money(s.amount)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </figure>
  );
}
