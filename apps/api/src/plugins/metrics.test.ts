import type { ApiApp } from '../app.ts';
import { describe, expect, it } from '../test-support/fixtures.ts';

async function scrape(app: ApiApp): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.body;
}

/** The value of one sample, e.g. `db_pool_connections{state="idle"}`. */
function sample(body: string, name: string): number {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no sample ${name}`);
  return Number(line.slice(name.length + 1));
}

describe('GET /metrics of the api', () => {
  it('times requests by route pattern and status, never by raw URL', async ({ app, as }) => {
    const kim = await as('kim');
    const before = await scrape(app);
    const key =
      'http_request_duration_seconds_count{method="GET",route="/api/chains/:chainId",status_code="200"}';
    const counted = before.includes(key) ? sample(before, key) : 0;
    expect((await kim.get('/api/chains/1?view=1')).statusCode).toBe(200);
    expect((await kim.get('/api/chains/1')).statusCode).toBe(200);
    // A marker no metric value can contain (a number could match a heap-size figure).
    await app.inject({ method: 'GET', url: '/api/no/such/path/raw-url-marker' });
    const body = await scrape(app);
    expect(sample(body, key)).toBe(counted + 2);
    expect(body).toMatch(/route="unmatched",status_code="404"/);
    expect(body).not.toContain('raw-url-marker');
    expect(body).not.toContain('view=1');
  });

  it('counts a refusal under its own status', async ({ app, anonymous }) => {
    expect((await anonymous.get('/api/users/current')).statusCode).toBe(401);
    expect(await scrape(app)).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/users\/current",status_code="401"\} [1-9]/,
    );
  });

  it('reports the database pool, Redis and the event-loop lag', async ({ app }) => {
    const body = await scrape(app);
    const total = sample(body, 'db_pool_connections{state="total"}');
    const idle = sample(body, 'db_pool_connections{state="idle"}');
    expect(total).toBeGreaterThanOrEqual(1);
    expect(idle).toBeLessThanOrEqual(total);
    expect(sample(body, 'db_pool_connections{state="waiting"}')).toBe(0);
    expect(sample(body, 'db_pool_max_connections')).toBeGreaterThanOrEqual(total);
    expect(sample(body, 'db_pool_stalled_seconds')).toBe(0);
    expect(sample(body, 'redis_connected')).toBe(1);
    expect(sample(body, 'redis_unavailable_failures_total')).toBe(0);
    expect(sample(body, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(body).toContain('nodejs_eventloop_lag_p99_seconds');
  });

  it('needs no session: the scraper has none, and the proxy does not route it', async ({
    anonymous,
  }) => {
    expect((await anonymous.get('/metrics')).statusCode).toBe(200);
  });
});
