import { servicesOf } from '../test-support/build-test-app.ts';
import type { FastifyRequest } from 'fastify';
import type { AuthApp } from '../app.ts';
import { AuthMetrics } from './metrics.ts';
import { describe, expect, it } from '../test-support/fixtures.ts';

async function scrape(app: AuthApp): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

describe('GET /metrics', () => {
  it('times requests by route pattern, never by raw URL', async ({ app }) => {
    await app.inject({ method: 'GET', url: '/.well-known/openid-configuration?x=1' });
    // A marker no metric value can contain: a number like 12345 once matched a heap-size figure.
    await app.inject({ method: 'GET', url: '/no/such/path/raw-url-marker' });
    const body = await scrape(app);
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/\.well-known\/openid-configuration",status_code="200"\} 1/,
    );
    expect(body).toMatch(/route="unmatched",status_code="404"/);
    expect(body).not.toContain('raw-url-marker');
  });

  it('reports the database pool, Redis and the event-loop lag', async ({ app }) => {
    const body = await scrape(app);
    expect(body).toMatch(/^db_pool_connections\{state="total"\} [1-9]/m);
    expect(body).toMatch(/^db_pool_connections\{state="waiting"\} 0$/m);
    expect(body).toMatch(/^db_pool_max_connections [1-9]/m);
    expect(body).toMatch(/^db_pool_stalled_seconds 0$/m);
    expect(body).toMatch(/^redis_connected 1$/m);
    expect(body).toMatch(/^redis_unavailable_failures_total 0$/m);
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(body).toContain('nodejs_eventloop_lag_p99_seconds');
  });

  it('counts tokens by grant and client, and errors by code', async ({ app }) => {
    servicesOf(app).metrics.tokensIssued('authorization_code', 'demo-public');
    servicesOf(app).metrics.tokensIssued('authorization_code', 'demo-public');
    servicesOf(app).metrics.tokensIssued('refresh_token', 'demo-confidential');
    servicesOf(app).metrics.oauthError('invalid_grant');
    const body = await scrape(app);
    expect(body).toContain(
      'oauth_tokens_issued_total{grant="authorization_code",client="demo-public"} 2',
    );
    expect(body).toContain(
      'oauth_tokens_issued_total{grant="refresh_token",client="demo-confidential"} 1',
    );
    expect(body).toContain('oauth_errors_total{code="invalid_grant"} 1');
  });

  it('keeps every app its own registry (several apps share a test process)', async ({ app }) => {
    const other = new AuthMetrics();
    other.oauthError('invalid_client');
    expect(await other.registry.metrics()).toContain('oauth_errors_total{code="invalid_client"} 1');
    expect(await scrape(app)).not.toContain('invalid_client');
  });
});

describe('audit', () => {
  it('writes one structured log line per event and counts it', async ({ app }) => {
    const lines: unknown[][] = [];
    const request = {
      log: { info: (...args: unknown[]) => lines.push(args) },
    } as unknown as FastifyRequest;
    servicesOf(app).audit(request, 'code_reused', { clientId: 'demo-public', userId: 3 });
    expect(lines).toEqual([
      [{ audit: 'code_reused', clientId: 'demo-public', userId: 3 }, 'audit: code_reused'],
    ]);
    expect(await scrape(app)).toContain('oauth_audit_events_total{event="code_reused"} 1');
  });
});
