import { Histogram, type MetricValueWithName, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurationHistogram } from './request-duration-histogram.ts';

const NAME = 'http_request_duration_seconds';
const HELP = 'HTTP request latency by route pattern';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type Observation = [route: string, method: string, status: number, seconds: number];

// Bounds themselves (a bucket counts what is at most its bound), values between and beyond
// them, and several routes, methods and statuses interleaved.
const OBSERVATIONS: Observation[] = [
  ['/health/live', 'GET', 200, 0.0004],
  ['/api/chains/:chainId', 'GET', 200, 0.005],
  ['/health/live', 'GET', 200, 0.0051],
  ['/api/chains/:chainId', 'PATCH', 200, 0.1],
  ['/api/chains/:chainId', 'GET', 404, 2.5],
  ['unmatched', 'GET', 404, 7],
  ['/health/live', 'GET', 503, 0.25],
  ['/api/chains/:chainId', 'GET', 200, 1.0000001],
  ['/health/live', 'GET', 200, 0],
];

function both() {
  const ours = new Registry();
  const theirs = new Registry();
  const histogram = new RequestDurationHistogram({
    name: NAME,
    help: HELP,
    buckets: BUCKETS,
    registry: ours,
  });
  const reference = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: BUCKETS,
    registers: [theirs],
  });
  for (const [route, method, status, seconds] of OBSERVATIONS) {
    histogram.record(route, method, status, seconds);
    reference.observe({ method, route, status_code: String(status) }, seconds);
  }
  return { ours, theirs, histogram };
}

// Prometheus reads the series of a family in any order; prom-client keeps first-seen order.
const lines = (text: string) => text.split('\n').sort();

describe('the request duration histogram', () => {
  it('writes what prom-client writes for the same observations', async () => {
    const { ours, theirs } = both();
    const text = await ours.metrics();
    expect(lines(text)).toEqual(lines(await theirs.metrics()));
    expect(text).toContain(
      `${NAME}_bucket{le="0.005",method="GET",route="/api/chains/:chainId",status_code="200"} 1`,
    );
    expect(text).toContain(
      `${NAME}_count{method="GET",route="/api/chains/:chainId",status_code="200"} 2`,
    );
  });

  it('gives the JSON that aggregates the workers of a cluster as prom-client does', async () => {
    const { ours, theirs } = both();
    const essence = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map(({ name, help, type, aggregator, values }) => ({
        name,
        help,
        type,
        aggregator,
        values: values
          .map((entry) => {
            const { metricName, labels, value } = entry as MetricValueWithName<string>;
            return JSON.stringify({ metricName, labels, value });
          })
          .sort(),
      }));
    expect(essence(await ours.getMetricsAsJSON())).toEqual(
      essence(await theirs.getMetricsAsJSON()),
    );
  });

  it('forgets every series on reset, as the registry resets its metrics', async () => {
    const { ours, histogram } = both();
    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain(`${NAME}_count`);
    histogram.record('/health/live', 'GET', 200, 0.001);
    expect(await ours.metrics()).toContain(
      `${NAME}_count{method="GET",route="/health/live",status_code="200"} 1`,
    );
  });

  it("refuses prom-client's own ways in, which it would not count", () => {
    const { histogram } = both();
    expect(() => histogram.observe(0.1)).toThrow(/record\(\)/);
    expect(() => histogram.startTimer()).toThrow(/record\(\)/);
    expect(() => histogram.labels()).toThrow(/record\(\)/);
  });
});
