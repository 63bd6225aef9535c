import { subscribe } from 'node:diagnostics_channel';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import type { FastifyInstance } from 'fastify';
import { register as registerImportHooks } from 'import-in-the-middle/register-hooks.mjs';
import { RedactingSpanProcessor } from './redacting-span-processor.ts';
import type { TracingSettings } from './tracing-env.ts';

// The modules the instrumentations patch. Only these go through the import hook: the rest of
// the application (our TypeScript included) loads as it would without tracing.
const INSTRUMENTED_MODULES = [
  'http',
  'https',
  'node:http',
  'node:https',
  'pg',
  'pg-pool',
  'ioredis',
];

// Probes and scrapes every few seconds would bury the requests worth reading.
const UNTRACED_PATHS = /^\/(health\/|metrics(\?|$))/;

/** How long a stop waits for the last spans to reach the collector. */
const FLUSH_ON_CLOSE_MS = 2_000;

function instrumentations() {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url ?? ''),
    }),
    // Gives the HTTP span its route template (`GET /api/stores/:storeId`) and adds a span for
    // the request and one for its handler; @fastify/otel is the Fastify team's successor to
    // @opentelemetry/instrumentation-fastify (deprecated). It finds every Fastify instance
    // through Fastify's diagnostics channel, so the apps need no plugin of their own. A span
    // per hook (ten for a plain GET here) would cost more than it tells.
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      instrumentHooks: false,
      ignorePaths: (route) => UNTRACED_PATHS.test(route.url ?? ''),
    }),
    // The SQL text only: parameter values stay out of spans (enhanced reporting off). Queries
    // outside a request (the pool's own checks, background sweeps) start no trace of their own.
    new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    // The command name only: arguments include keys and values (session data, throttle
    // counters keyed by address), and the default serializer keeps all of an EVAL's.
    new IORedisInstrumentation({
      requireParentSpan: true,
      dbStatementSerializer: (command) => command,
    }),
  ];
}

/**
 * Starts the OpenTelemetry SDK: spans of incoming HTTP requests, Fastify routes, PostgreSQL
 * queries and Redis commands, redacted, then batched to the OTLP endpoint. The SDK reads the
 * other standard variables itself (OTEL_TRACES_SAMPLER and _ARG, OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_PROPAGATORS, OTEL_LOG_LEVEL; the exporter OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT...).
 */
export function startTracingSdk(settings: TracingSettings): void {
  // In-thread module hooks (Node >= 24.11): the modules imported from now on are hooked as
  // they load, which is why server.ts imports the application only after this.
  registerImportHooks({ include: INSTRUMENTED_MODULES });
  const exporter =
    settings.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
  const exporting = new BatchSpanProcessor({ exporter });
  new NodeSDK({
    serviceName: settings.serviceName,
    instrumentations: instrumentations(),
    spanProcessors: [new RedactingSpanProcessor(), exporting],
    // Traces only: metrics are Prometheus' (/metrics), and logs go to standard output.
    metricReaders: [],
    logRecordProcessors: [],
  }).start();
  // The batch still waiting is sent when the app closes (runServer's graceful stop).
  subscribe('fastify.initialization', (message) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onClose', async () => {
      await Promise.race([
        exporting.forceFlush(),
        new Promise((resolve) => setTimeout(resolve, FLUSH_ON_CLOSE_MS).unref()),
      ]);
    });
  });
}
