import {
  Histogram,
  type MetricObjectWithValues,
  type MetricType,
  type MetricValueWithName,
  type Registry,
} from 'prom-client';

type Label = 'method' | 'route' | 'status_code';

function countsThroughRecord(): never {
  throw new Error('RequestDurationHistogram counts through record()');
}

/** What one route, method and status has seen: per bucket (the last one +Inf), sum and count. */
interface Series {
  readonly labels: Readonly<Record<Label, string>>;
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * `http_request_duration_seconds`, with the series and values prom-client's Histogram gives,
 * but counted in plain arrays and turned into prom-client's values only when scraped.
 * prom-client's `observe` builds, checks and hashes a label set on every call, which showed in
 * the profile of the cheapest request (docs/benchmarks.md §3); `record` costs three Map lookups
 * (route, method, status) and a scan of the bounds. Only `record` counts: prom-client's own
 * ways in throw.
 */
export class RequestDurationHistogram extends Histogram<Label> {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  /** route → method → status code → series. */
  readonly #series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(options: {
    name: string;
    help: string;
    buckets: readonly number[];
    registry: Registry;
  }) {
    super({
      name: options.name,
      help: options.help,
      labelNames: ['method', 'route', 'status_code'],
      buckets: [...options.buckets],
      registers: [options.registry],
    });
    this.#name = options.name;
    this.#help = options.help;
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
    // prom-client sets `observe` on the instance in its constructor: a method would not win.
    this.observe = countsThroughRecord;
  }

  /** One request of `route` (its pattern), answered with `statusCode` after `seconds`. */
  record(route: string, method: string, statusCode: number, seconds: number): void {
    let byMethod = this.#series.get(route);
    if (byMethod === undefined) {
      byMethod = new Map<string, Map<number, Series>>();
      this.#series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map<number, Series>();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(statusCode);
    if (series === undefined) {
      series = {
        labels: { method, route, status_code: String(statusCode) },
        buckets: new Float64Array(this.#bounds.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(statusCode, series);
    }
    let bucket = 0;
    while (bucket < this.#bounds.length && seconds > this.#bounds[bucket]!) bucket += 1;
    series.buckets[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  override startTimer(): never {
    return countsThroughRecord();
  }

  override labels(): never {
    return countsThroughRecord();
  }

  override reset(): void {
    // prom-client's constructor resets too, before this class's fields exist.
    if (#series in this) this.#series.clear();
  }

  /** The values prom-client's registry writes: cumulative buckets, then sum and count. */
  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<Label | 'le'>>> {
    const values: MetricValueWithName<Label | 'le'>[] = [];
    const bucketName = `${this.#name}_bucket`;
    for (const byMethod of this.#series.values()) {
      for (const byStatus of byMethod.values()) {
        for (const series of byStatus.values()) {
          let cumulative = 0;
          this.#bounds.forEach((bound, index) => {
            cumulative += series.buckets[index]!;
            values.push({
              labels: { le: bound, ...series.labels },
              value: cumulative,
              metricName: bucketName,
            });
          });
          values.push(
            {
              labels: { le: '+Inf', ...series.labels },
              value: series.count,
              metricName: bucketName,
            },
            { labels: series.labels, value: series.sum, metricName: `${this.#name}_sum` },
            { labels: series.labels, value: series.count, metricName: `${this.#name}_count` },
          );
        }
      }
    }
    return {
      name: this.#name,
      help: this.#help,
      // Typed as an enum that prom-client's JavaScript does not have: it writes this string.
      type: 'histogram' as unknown as MetricType,
      aggregator: 'sum',
      collect: () => undefined,
      values,
    };
  }

  /** What prom-client's registry asks a histogram for when it writes the text format. */
  async getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<Label | 'le'>>> {
    return this.get();
  }
}
