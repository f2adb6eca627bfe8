import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

declare module "fastify" {
  interface FastifyInstance {
    metrics: Registry;
  }
}

/**
 * One JSON log line per request (with its request id, never its headers) and Prometheus
 * request counts and latency per route, served at `/metrics`.
 */
export function registerObservability(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "porter_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status code.",
    labelNames: ["method", "route", "status_code"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "porter_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by route pattern and method.",
    labelNames: ["method", "route"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.decorate("metrics", registry);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "(unmatched)";
    const seconds = reply.elapsedTime / 1000;
    requests.inc({ method: request.method, route, status_code: reply.statusCode });
    latency.observe({ method: request.method, route }, seconds);
    request.log.info(
      {
        method: request.method,
        url: request.url,
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        account: request.scope?.accountId,
      },
      "request",
    );
  });

  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });
}
