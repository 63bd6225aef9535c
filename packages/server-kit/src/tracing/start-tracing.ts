import { tracingSettings } from './tracing-env.ts';

/**
 * Turns OpenTelemetry tracing on when the environment configures it (OTEL_EXPORTER_OTLP_ENDPOINT
 * or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set, OTEL_SDK_DISABLED not true); otherwise does
 * nothing and loads nothing, so that a deployment without tracing pays for none of it.
 *
 * Must run before the application is imported: the instrumentations patch http, pg and ioredis
 * as those modules load, and an ES module graph is loaded whole before any of it runs, so the
 * server imports the application dynamically after this (apps/*\/src/server.ts).
 */
export async function startTracing(
  env: Record<string, string | undefined>,
  defaultServiceName: string,
): Promise<void> {
  const settings = tracingSettings(env, defaultServiceName);
  if (!settings) return;
  const { startTracingSdk } = await import('./tracing-sdk.ts');
  startTracingSdk(settings);
}
