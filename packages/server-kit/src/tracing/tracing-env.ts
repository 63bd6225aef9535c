import { type Static, Type } from 'typebox';
import { loadConfigFrom } from '../config/load-config.ts';

const OtlpEndpoint = Type.String({ pattern: '^https?://[^\\s]+$' });
// gRPC is left out: every collector also takes OTLP over HTTP, and only HTTP is tested here.
const OtlpProtocol = Type.Union([Type.Literal('http/protobuf'), Type.Literal('http/json')]);

/**
 * The standard OpenTelemetry variables this project reads itself, to decide whether tracing
 * runs and which exporter sends the spans. The SDK and the exporter read the rest of the
 * OTEL_* variables (sampler, headers, timeouts, resource attributes, batching) on their own.
 */
export const TracingEnvSchema = Type.Object({
  /** Where spans go: `<endpoint>/v1/traces`. Tracing runs only when this (or the next) is set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(OtlpEndpoint),
  /** The full URL for spans, when it differs from `<endpoint>/v1/traces`. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(OtlpEndpoint),
  OTEL_EXPORTER_OTLP_PROTOCOL: Type.Optional(OtlpProtocol),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: Type.Optional(OtlpProtocol),
  OTEL_SERVICE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  /** The specification's switch to turn the SDK off while leaving the rest configured. */
  OTEL_SDK_DISABLED: Type.Boolean({ default: false }),
});
export type TracingEnv = Static<typeof TracingEnvSchema>;

export interface TracingSettings {
  protocol: Static<typeof OtlpProtocol>;
  serviceName: string;
}

/**
 * Whether tracing runs, and how; undefined when it is off (no endpoint, or the SDK disabled).
 * A bad value stops the start with a ConfigError naming it, as every other setting does.
 */
export function tracingSettings(
  env: Record<string, string | undefined>,
  defaultServiceName: string,
): TracingSettings | undefined {
  const config = loadConfigFrom(TracingEnvSchema, env);
  const endpoint = config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined || config.OTEL_SDK_DISABLED) return undefined;
  return {
    // The specification's default.
    protocol:
      config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
      config.OTEL_EXPORTER_OTLP_PROTOCOL ??
      'http/protobuf',
    serviceName: config.OTEL_SERVICE_NAME ?? defaultServiceName,
  };
}
