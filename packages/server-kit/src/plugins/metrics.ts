import { databasePool, poolStalledForMs } from '@foodshare/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { RedisKeyValueStore } from '../kv/redis-store.ts';
import { RequestDurationHistogram } from './request-duration-histogram.ts';

/**
 * The Prometheus metrics every service has, in a registry of its own: several apps share a
 * process in tests and in the one-process start, and prom-client's global registry refuses a
 * second metric of the same name. A service with metrics of its own extends it (AuthMetrics).
 *
 * Beside the request durations: prom-client's process metrics, among them the event-loop lag
 * (`nodejs_eventloop_lag_seconds`, and its percentiles `nodejs_eventloop_lag_p99_seconds` ...),
 * and, once the plugin is registered, the health of the database pool (`db_pool_*`) and of
 * Redis (`redis_*`).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequestDuration = new RequestDurationHistogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route pattern',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registry: this.registry,
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}

/**
 * Whether the Redis connection is up, and how many commands failed for want of it: readiness
 * (/health/ready) turns an instance away while Redis is lost; these show how often, and since
 * when. Not reported for the in-process store of the one-process start, which cannot be lost.
 */
function redisHealth(store: RedisKeyValueStore, registry: Registry): void {
  let reported = 0;
  new Gauge({
    name: 'redis_connected',
    help: 'Whether the Redis connection is up and ready for commands (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(store.client.status === 'ready' ? 1 : 0);
    },
  });
  new Counter({
    name: 'redis_unavailable_failures_total',
    help: 'Redis commands that failed because Redis could not be reached, did not answer in time, or refused them for a while (out of memory, a replica, loading)',
    registers: [registry],
    // The store counts; a counter only goes up, so each scrape adds what came since the last.
    collect() {
      this.inc(store.unavailableFailures - reported);
      reported = store.unavailableFailures;
    },
  });
}

export interface MetricsPluginOptions {
  metrics: ServiceMetrics;
}

/**
 * Times every request by its route pattern (`/api/chains/:chainId`, never a raw URL with ids or
 * query strings, which would explode the label set; `unmatched` for a 404 without a route),
 * reports the database pool at each scrape, and serves GET /metrics in Prometheus text format.
 * /metrics is for the scraper inside the deployment: the public proxy (docker/Caddyfile), the
 * Kubernetes Ingress and the one origin of `pnpm start` route only the services' public paths,
 * so it is not reachable from outside.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { metrics }: MetricsPluginOptions) => {
    const pool = await databasePool(app.orm);
    const { service, version, commit } = app.release;
    new Gauge({
      name: 'foodshare_build_info',
      help: 'The release this instance runs (always 1): its service, version and commit',
      labelNames: ['service', 'version', 'commit'] as const,
      registers: [metrics.registry],
    }).set({ service, version, commit }, 1);
    // Read when scraped, so they cost nothing between scrapes.
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections: open (total), idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'Size of the PostgreSQL pool',
      registers: [metrics.registry],
      collect() {
        this.set(pool.options.max ?? 10);
      },
    });
    new Gauge({
      name: 'db_pool_stalled_seconds',
      help: 'How long the pool has handed out no connection while all are in use (liveness fails at POOL_STALLED_LIVENESS_MS)',
      registers: [metrics.registry],
      collect() {
        this.set(poolStalledForMs(pool) / 1000);
      },
    });
    if (app.kv instanceof RedisKeyValueStore) redisHealth(app.kv, metrics.registry);
    app.addHook('onResponse', (request, reply, done) => {
      metrics.httpRequestDuration.record(
        request.routeOptions.url ?? 'unmatched',
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
    app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
      const body = await metrics.registry.metrics();
      return reply
        .header('cache-control', 'no-store')
        .type(metrics.registry.contentType)
        .send(body);
    });
  },
  {
    name: 'foodshare-metrics',
    fastify: '5.x',
    dependencies: ['foodshare-orm', 'foodshare-key-value-store'],
  },
);
