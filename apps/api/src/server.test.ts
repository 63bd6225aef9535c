import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { workerDatabase, workerRedis } from '@foodshare/testing';
import { describe, expect, it } from 'vitest';

describe('server.ts', () => {
  it('listens, serves, and on SIGTERM closes cleanly with exit code 0', async () => {
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

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(output).toContain('shutting down');
  });
});
