import type { CarrierTrackingEvent, TrackingReport, TrackingRequest } from "../carrier.js";
import type { CarrierCode } from "../catalogue.js";
import { isOutcome, planTimeline, type TrackingVocabulary } from "./tracking-timeline.js";

/**
 * A sandbox parcel's history as of `request.asOf`: the planned journey, run `timeScale` times
 * faster from the label's purchase and moved ahead by `shiftMs` of journey time, cut at `asOf`.
 * Event times are given on the real clock, so none lies after `asOf`. A manifest's or close-out's
 * instant bounds the journey as given, so the advance control's shift moves the journey past it.
 */
export function trackSandboxParcel(
  carrier: CarrierCode,
  vocabulary: TrackingVocabulary,
  request: TrackingRequest,
): TrackingReport {
  const { timeScale = 1, shiftMs = 0, outcome = null } = request.simulation ?? {};
  const start = request.labelCreatedAt.getTime();
  const timeline = planTimeline(
    {
      carrier,
      service: request.service,
      trackingNumber: request.trackingNumber,
      from: request.from,
      to: request.to,
      labelCreatedAt: request.labelCreatedAt,
      shipDate: request.shipDate,
      acceptedAt: request.acceptedAt,
      acceptedNotBefore: request.acceptedNotBefore,
      outcome: outcome !== null && isOutcome(outcome) ? outcome : null,
    },
    vocabulary,
  );
  const onClock = (journeyAt: Date) => new Date(start + (journeyAt.getTime() - start - shiftMs) / timeScale);
  const events: CarrierTrackingEvent[] = [];
  let nextEventAt: Date | null = null;
  for (const [sequence, planned] of timeline.events.entries()) {
    const occurredAt = onClock(planned.at);
    if (occurredAt.getTime() > request.asOf.getTime()) {
      nextEventAt = occurredAt;
      break;
    }
    const words = vocabulary.events[planned.milestone];
    if (!words) continue;
    events.push({
      sequence: sequence + 1,
      occurredAt,
      code: words.code,
      secondaryCode: words.secondaryCode,
      description: words.description,
      status: words.status,
      city: planned.city,
      state: planned.state,
      postalCode: planned.postalCode,
      country: planned.country,
    });
  }
  return { events, estimatedDeliveryDate: timeline.expectedDeliveryDate, nextEventAt };
}
