import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, type Metric, Registry } from "prom-client";
import type { AccessLog } from "../access-log.js";
import { LatencyHistogram, type LatencySeries } from "../latency-histogram.js";

declare module "fastify" {
  interface FastifyInstance {
    metrics: Registry;
  }
}

interface RouteSeries {
  labels: { method: string; route: string; status_code: number };
  answered: number;
  time: LatencySeries;
}

/** Records an answered request: its log line, its count and its latency. */
export type ObserveResponse = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * One JSON log line per request (with its request id, never its headers) and Prometheus
 * request counts and latency per route, served at `/metrics`. Echoes the request id from an
 * `onRequest` hook that takes a callback rather than returning a promise (it runs on every
 * request, and a promise per hook is measurable). Returns what to call once a request has been
 * answered: the server's one `onResponse` hook calls it.
 */
export function registerObservability(app: FastifyInstance, accessLog: AccessLog | undefined): ObserveResponse {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client validates and hashes the label object on every call; a route's series is looked
  // up once, its request count is a plain number that the counter reads when scraped, and its
  // latencies go to a histogram of our own. A route has a few series (method and status), kept
  // in a list: finding one there is cheaper than joining a key for a map on every request.
  const seriesByRoute = new Map<string, RouteSeries[]>();
  new Counter({
    name: "porter_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status code.",
    labelNames: ["method", "route", "status_code"],
    registers: [registry],
    collect() {
      this.reset();
      for (const routeSeries of seriesByRoute.values()) {
        for (const { labels, answered } of routeSeries) this.inc(labels, answered);
      }
    },
  });
  const latency = new LatencyHistogram(
    "porter_http_request_duration_seconds",
    "Time to answer an HTTP request, by route pattern and method.",
  );
  registry.registerMetric(latency as unknown as Metric);
  const seriesOf = (method: string, route: string, status: number): RouteSeries => {
    let routeSeries = seriesByRoute.get(route);
    if (!routeSeries) {
      routeSeries = [];
      seriesByRoute.set(route, routeSeries);
    }
    for (const known of routeSeries) {
      if (known.labels.status_code === status && known.labels.method === method) return known;
    }
    const created = {
      labels: { method, route, status_code: status },
      answered: 0,
      time: latency.series(`${method} ${route}`, { method, route }),
    };
    routeSeries.push(created);
    return created;
  };
  app.decorate("metrics", registry);

  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });

  return (request, reply) => {
    const route = request.routeOptions.url ?? "(unmatched)";
    const measured = seriesOf(request.method, route, reply.statusCode);
    measured.answered += 1;
    measured.time.observe(reply.elapsedTime / 1000);
    accessLog?.({
      reqId: request.id,
      method: request.method,
      url: request.url,
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      account: request.scope?.accountId,
    });
  };
}
