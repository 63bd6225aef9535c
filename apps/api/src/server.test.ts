import { spawn } from 'node:child_process';
import path from 'node:path';
import { stopDuringRequest, workerDatabase, workerRedis } from '@foodshare/testing';
import { describe, expect, it } from 'vitest';

describe('server.ts', () => {
  it('listens, serves, and on SIGTERM finishes the request under way and exits with 0', async () => {
    const database = await workerDatabase('api');
    const redis = workerRedis('api');
    const child = spawn(
      process.execPath,
      ['--conditions=development', path.join(import.meta.dirname, 'server.ts')],
      {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: database.url,
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: redis.keyPrefix,
          PORT: '0',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const address = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`exited early (${code}): ${output}`)));
    });

    const ready = await fetch(`${address}/health/ready`);
    expect(ready.status).toBe(200);

    expect(await stopDuringRequest(child, address)).toEqual({ status: 401, exitCode: 0 });
    expect(output).toContain('shutting down');
  });
});
