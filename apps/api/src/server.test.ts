import { stopDuringRequest } from '@foodshare/testing';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from './test-support/server-process.ts';

describe('server.ts', () => {
  it('listens, serves, and on SIGTERM finishes the request under way and exits with 0', async () => {
    const { child, address, output } = await startServerProcess();

    const ready = await fetch(`${address}/health/ready`);
    expect(ready.status).toBe(200);

    expect(await stopDuringRequest(child, address)).toEqual({ status: 401, exitCode: 0 });
    expect(output()).toContain('shutting down');
  });
});
