import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/load-config.ts';
import { tracingSettings } from './tracing-env.ts';

const endpoint = 'http://127.0.0.1:4318';

describe('tracingSettings', () => {
  it.each([
    ['no endpoint', {}],
    ['an empty endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: '' }],
    ['the SDK disabled', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' }],
  ])('is off with %s', (_case, env) => {
    expect(tracingSettings(env, 'foodshare-api')).toBeUndefined();
  });

  it('is on with an endpoint, in the specification’s default protocol', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, 'foodshare-api')).toEqual({
      protocol: 'http/protobuf',
      serviceName: 'foodshare-api',
    });
  });

  it('takes the traces-only endpoint and protocol, and the service name', () => {
    expect(
      tracingSettings(
        {
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'auth-eu-1',
        },
        'foodshare-auth',
      ),
    ).toEqual({ protocol: 'http/json', serviceName: 'auth-eu-1' });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL',
    ],
    [{ OTEL_SDK_DISABLED: 'maybe' }, 'OTEL_SDK_DISABLED'],
  ])('refuses %j', (env, variable) => {
    expect(() => tracingSettings(env, 'foodshare-api')).toThrow(ConfigError);
    expect(() => tracingSettings(env, 'foodshare-api')).toThrow(variable);
  });
});
