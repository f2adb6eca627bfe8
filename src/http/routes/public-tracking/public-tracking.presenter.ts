import { findCarrier, findListedService } from "../../../carriers/registry.js";
import type { PublicTracking } from "../../../domain/tracking/public-tracking.js";
import { presentEventPlaceAndTime } from "../shipments/shipments.presenter.js";
import type { Messages } from "./messages/index.js";

/**
 * What the public page shows, and nothing else: the carrier, service, status, delivery dates,
 * the first parcel's tracking number and timeline, and the sender's account name. No address,
 * price, reference or id: anyone holding the link sees it.
 */
export function publicTrackingView(found: PublicTracking) {
  const { shipment, parcels, trackingEvents } = found.record;
  const parcel = parcels[0];
  const events = trackingEvents.filter((event) => event.parcel_id === parcel?.id);
  const status = parcel?.status ?? shipment.status;
  return {
    account: { name: found.accountName, logo_url: found.logoUrl },
    carrier: findCarrier(shipment.carrier_code)?.displayName ?? shipment.carrier_code,
    service: findListedService(shipment.service_id)?.listing.listedName ?? shipment.service_code,
    tracking_number: parcel?.tracking_number ?? null,
    status: status === "shipped" ? "pre_transit" : status,
    estimated_delivery_date: parcel?.estimated_delivery_date ?? shipment.delivery_date,
    delivery_date: parcel?.delivered_at ?? null,
    // Newest first, as eHub's tracking_info lists them.
    tracking_events: events.toReversed().map(presentEventPlaceAndTime),
  };
}
export type PublicTrackingView = ReturnType<typeof publicTrackingView>;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const html = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

function place(event: PublicTrackingView["tracking_events"][number]): string {
  return [event.city, event.state, event.country].filter((part) => part).join(", ");
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date (`2026-11-30`) or a moment (an ISO timestamp) in the reader's language, as a `<time>`
 * that keeps the exact value. Moments are shown in UTC, and say so: the carriers' events are
 * stored in UTC without the zone of the place they happened in.
 */
function when(value: string, language: string): string {
  const day = DAY.test(value);
  const date = new Date(day ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return html(value);
  const format = day
    ? new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" })
    : new Intl.DateTimeFormat(language, {
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        timeZone: "UTC",
        timeZoneName: "short",
      });
  return `<time datetime="${html(value)}">${html(format.format(date))}</time>`;
}

/**
 * The page as HTML in the reader's language: headings, a definition list and an ordered timeline;
 * no script, no style. The carriers' own event descriptions are in English and marked so.
 */
export function publicTrackingHtml(view: PublicTrackingView, words: Messages): string {
  const { language } = words;
  const statusText = (status: string) => html((words.statuses as Record<string, string>)[status] ?? status);
  const described = (description: string) =>
    language === "en" ? html(description) : `<span lang="en">${html(description)}</span>`;
  const facts: [string, string][] = [
    [words.carrier, html(view.carrier)],
    [words.service, html(view.service)],
    [words.trackingNumber, html(view.tracking_number ?? words.unknown)],
    [words.status, statusText(view.status)],
    view.delivery_date
      ? [words.deliveredOn, when(view.delivery_date, language)]
      : [
          words.estimatedDelivery,
          view.estimated_delivery_date ? when(view.estimated_delivery_date, language) : html(words.unknown),
        ],
  ];
  const timeline =
    view.tracking_events.length === 0
      ? `<p>${html(words.noEvents)}</p>`
      : `<ol>\n${view.tracking_events
          .map((event) => {
            const where = place(event);
            return `<li>${when(event.event_date, language)} — ${statusText(event.status)}${event.description ? `: ${described(event.description)}` : ""}${where ? ` (${html(where)})` : ""}</li>`;
          })
          .join("\n")}\n</ol>`;
  return `<!DOCTYPE html>
<html lang="${html(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${html(`${words.title}: ${view.carrier} ${view.tracking_number ?? ""}`.trim())}</title>
</head>
<body>
<main>
${view.account.logo_url ? `<img src="${html(view.account.logo_url)}" alt="${html(view.account.name)}">\n` : ""}<h1>${html(words.title)}</h1>
<p>${html(words.shippedBy)} ${html(view.account.name)}</p>
<dl>
${facts.map(([term, value]) => `<dt>${html(term)}</dt><dd>${value}</dd>`).join("\n")}
</dl>
<h2>${html(words.timeline)}</h2>
${timeline}
</main>
</body>
</html>
`;
}
