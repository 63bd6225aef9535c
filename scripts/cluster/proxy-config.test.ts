import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CADDYFILE } from './proxy.ts';
import { describe, expect, it } from 'vitest';

const routes = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^@\w+ path /.test(line) || line.startsWith('handle'));

describe("pnpm cluster's proxy configuration", () => {
  it('routes as the deployment proxy does (docker/Caddyfile)', async () => {
    const deployment = path.join(import.meta.dirname, '..', '..', 'docker', 'Caddyfile');
    const cluster = await routes(CADDYFILE);
    // Two matchers, their two handlers and the 404 for everything else.
    expect(cluster).toHaveLength(5);
    expect(cluster).toEqual(await routes(deployment));
  });

  it('is accepted by caddy with several upstreams per service', async () => {
    const caddy = spawn('caddy', ['validate', '--adapter', 'caddyfile', '--config', CADDYFILE], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        CLUSTER_HOST: '127.0.0.1',
        CLUSTER_PORT: '8080',
        CLUSTER_API_UPSTREAMS: '127.0.0.1:3001 127.0.0.1:3003',
        CLUSTER_AUTH_UPSTREAMS: '127.0.0.1:3002 127.0.0.1:3004',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    caddy.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    caddy.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(caddy, 'exit')) as [number | null];
    expect(code, output).toBe(0);
    expect(output).toContain('Valid configuration');
  });
});
