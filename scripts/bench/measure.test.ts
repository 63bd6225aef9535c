import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable, measure } from './measure.ts';
import { startReferenceServer, type ReferenceServer } from './reference-server.ts';

// A smoke run of the harness: one scenario for a second against the bare reference server.
describe('bench harness', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await startReferenceServer();
  });
  afterAll(() => reference.close());

  it('measures a scenario and prints it beside its reference', async () => {
    const url = `http://127.0.0.1:${reference.port}`;
    // The server runs in this process here, so its CPU time is this process's.
    const serverCpuMicros = () => {
      const used = process.cpuUsage();
      return used.user + used.system;
    };
    const options = { seconds: 1, connections: 2, serverCpuMicros };
    const http = await measure(
      { name: 'reference: http', reference: null, url: `${url}/http` },
      options,
    );
    const missing = await measure(
      { name: 'GET /nowhere', reference: 'http', url: `${url}/nowhere` },
      options,
    );

    expect(http.requestsPerSecond).toBeGreaterThan(0);
    expect(http.errors).toBe(0);
    expect(http.statuses['200']).toBe(http.requests);
    expect(http.p99).toBeGreaterThanOrEqual(http.p50);
    expect(http.cpuMicrosPerRequest).toBeGreaterThan(0);
    // Answers other than 2xx are errors.
    expect(missing.errors).toBe(missing.requests);
    expect(missing.statuses['404']).toBe(missing.requests);

    const small = { size: 'small', figures: [http, missing] };
    const large = {
      size: 'large',
      figures: [http, { ...missing, requestsPerSecond: Math.round(missing.requestsPerSecond / 2) }],
    };
    const table = formatTable([small, large]).split('\n');
    const row = table.find((line) => line.startsWith('| GET /nowhere'));
    const percent = `${Math.round((missing.requestsPerSecond / http.requestsPerSecond) * 100)} %`;
    expect(row).toContain(percent);
    // CPU per request, and the reference's over this scenario's.
    const cpuShare = `${Math.round((http.cpuMicrosPerRequest! / missing.cpuMicrosPerRequest!) * 100)} %`;
    expect(row).toMatch(new RegExp(`\\| +${missing.cpuMicrosPerRequest} \\| +${cpuShare} \\|`));
    // Half the rate beside the same reference: 0.50 both raw and against the reference.
    expect(row).toMatch(/\| +0\.50 \| +0\.50 \|$/);
  });

  it('times a fixed number of requests by when they ended, not by whole seconds', async () => {
    const url = `http://127.0.0.1:${reference.port}/http`;
    const figures = await measure(
      { name: 'reference: http', reference: null, url, amount: 40 },
      { seconds: 1, connections: 2 },
    );
    expect(figures.requests).toBe(40);
    // 40 requests to a bare server end well within half a second; counted as a whole second,
    // they would show 40 per second.
    expect(figures.requestsPerSecond).toBeGreaterThan(80);
  });
});
