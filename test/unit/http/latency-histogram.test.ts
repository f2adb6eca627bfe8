import { type Metric, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { LatencyHistogram } from "../../../src/http/latency-histogram.js";

describe("latency histogram", () => {
  it("exposes cumulative buckets, +Inf, sum and count per route in Prometheus text", async () => {
    const histogram = new LatencyHistogram("test_seconds", "Test latency.");
    const ping = histogram.series("GET /ping", { method: "GET", route: "/ping" });
    for (const seconds of [0.0004, 0.001, 0.003, 0.2, 12]) ping.observe(seconds);
    expect(histogram.series("GET /ping", { method: "GET", route: "/ping" })).toBe(ping);
    const registry = new Registry();
    registry.registerMetric(histogram as unknown as Metric);
    const text = await registry.metrics();
    expect(text).toContain("# TYPE test_seconds histogram");
    const line = (le: string) => `test_seconds_bucket{le="${le}",method="GET",route="/ping"}`;
    expect(text).toContain(`${line("0.001")} 2\n`);
    expect(text).toContain(`${line("0.005")} 3\n`);
    expect(text).toContain(`${line("0.1")} 3\n`);
    expect(text).toContain(`${line("0.25")} 4\n`);
    expect(text).toContain(`${line("10")} 4\n`);
    expect(text).toContain(`${line("+Inf")} 5\n`);
    expect(text).toContain('test_seconds_count{method="GET",route="/ping"} 5\n');
    expect(text).toMatch(/test_seconds_sum\{method="GET",route="\/ping"\} 12\.2044/);
  });
});
