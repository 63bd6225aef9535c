import { once } from 'node:events';
import { DEMO_PASSWORD, DemoUserEmail } from '@foodshare/domain';
import { startOtlpReceiver, type OtlpReceiver } from '@foodshare/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './test-support/server-process.ts';

// Preloaded into the server: reports every module of the tracing SDK the process loads, so that
// a test can tell "tracing is off" from "tracing is on but sent nothing". The API package is
// not one of them: prom-client loads it (a no-op without an SDK) for its exemplars.
const REPORT_TRACING_MODULES = `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  if (/node_modules\\/(@opentelemetry\\/(?!api\\/)|@fastify\\/otel\\/|import-in-the-middle\\/)/.test(resolved.url)) {
    process.stderr.write('[tracing module] ' + resolved.url + '\\n');
  }
  return resolved;
} });`;
const NODE_OPTIONS = `--import=data:text/javascript,${encodeURIComponent(REPORT_TRACING_MODULES)}`;

/**
 * Logs in as a demo user and reads the current user (HTTP, PostgreSQL and Redis all at work),
 * then sends a refused bearer token.
 */
async function logInAndReadCurrentUser(address: string) {
  const login = await fetch(`${address}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DemoUserEmail.alice, password: DEMO_PASSWORD }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(login.status).toBe(200);
  const cookies = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
  const current = await fetch(`${address}/api/users/current?access_token=in-the-query`, {
    headers: { cookie: cookies.join('; ') },
    signal: AbortSignal.timeout(10_000),
  });
  expect(current.status).toBe(200);
  // An Authorization header makes the request a token caller's (the cookie is then ignored):
  // this one's token is refused, and must not be traced either.
  const withToken = await fetch(`${address}/api/users/current`, {
    headers: { cookie: cookies.join('; '), authorization: 'Bearer an-authorization-header' },
    signal: AbortSignal.timeout(10_000),
  });
  expect(withToken.status).toBe(401);
  return { cookieValues: cookies.map((cookie) => cookie.slice(cookie.indexOf('=') + 1)) };
}

async function stop(server: ServerProcess) {
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
}

describe('tracing', () => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });
  afterEach(() => receiver.close());

  it(
    'exports the spans of a request, its SQL and its Redis commands as one trace, without secrets',
    { timeout: 45_000 },
    async () => {
      const server = await startServerProcess({
        NODE_OPTIONS,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
      const { cookieValues } = await logInAndReadCurrentUser(server.address);
      await fetch(`${server.address}/health/ready`, { signal: AbortSignal.timeout(10_000) });
      // The stop sends the spans still batched (the app's close flushes them).
      await stop(server);

      const spans = receiver.spans();
      const request = spans.find(
        (span) =>
          span.attributes['http.route'] === '/api/users/current' && span.parentSpanId === undefined,
      );
      expect(request, server.output()).toBeDefined();
      expect(request).toMatchObject({
        name: 'GET /api/users/current',
        serviceName: 'foodshare-api',
        attributes: { 'http.response.status_code': 200, 'url.path': '/api/users/current' },
      });
      const sameTrace = spans.filter((span) => span.traceId === request?.traceId);
      expect(sameTrace.some((span) => span.attributes['db.system.name'] === 'postgresql')).toBe(
        true,
      );
      expect(sameTrace.some((span) => span.attributes['db.system.name'] === 'redis')).toBe(true);
      // Probes are not traced.
      expect(spans.some((span) => String(span.attributes['url.path']).startsWith('/health'))).toBe(
        false,
      );

      expect(server.output()).toContain('[tracing module]');
      const payload = receiver.bodies().join('\n');
      // MikroORM writes some values into its SQL (the login's email): they are taken out too.
      for (const secret of [
        ...cookieValues,
        DEMO_PASSWORD,
        DemoUserEmail.alice,
        'in-the-query',
        'an-authorization-header',
      ]) {
        expect(payload).not.toContain(secret);
      }
    },
  );

  it(
    'loads nothing of OpenTelemetry and sends nothing when no endpoint is configured',
    { timeout: 45_000 },
    async () => {
      const server = await startServerProcess({ NODE_OPTIONS });
      await logInAndReadCurrentUser(server.address);
      await stop(server);

      expect(server.output()).not.toContain('[tracing module]');
      expect(receiver.bodies()).toEqual([]);
    },
  );
});
