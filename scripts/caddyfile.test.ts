import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitFor } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The deployment's proxy (docker/Caddyfile) run by the real caddy on ports of this file's own,
// a small HTTP server standing where the api would be.

const SERVICE_HSTS = 'max-age=5';

describe('the deployment proxy (docker/Caddyfile)', () => {
  let folder: string;
  let upstream: Server;
  let caddy: ChildProcess;
  let origin: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'foodshare-caddyfile-'));
    upstream = createServer((_request, response) => {
      response.writeHead(200, { 'strict-transport-security': SERVICE_HSTS }).end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamPort = (upstream.address() as { port: number }).port;
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const deployment = await readFile(
      path.join(import.meta.dirname, '..', 'docker', 'Caddyfile'),
      'utf8',
    );
    const config = path.join(folder, 'Caddyfile');
    await writeFile(
      config,
      deployment
        .replace(':8080 {', `:${port} {`)
        .replace('reverse_proxy api:3001', `reverse_proxy 127.0.0.1:${upstreamPort}`),
    );
    caddy = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', config], {
      env: { PATH: process.env.PATH, HOME: folder, XDG_DATA_HOME: folder, XDG_CONFIG_HOME: folder },
      stdio: 'ignore',
    });
    await waitFor('caddy answering', async () => (await fetch(`${origin}/`)).status === 404);
  }, 30_000);

  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = once(caddy, 'exit');
      caddy.kill('SIGTERM');
      await exited;
    }
    await new Promise((resolve) => upstream?.close(resolve));
    await rm(folder, { recursive: true, force: true });
  });

  it('sends Strict-Transport-Security on its own answers', async () => {
    const response = await fetch(`${origin}/not-routed`);
    expect(response.status).toBe(404);
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it("keeps a service's own Strict-Transport-Security", async () => {
    const response = await fetch(`${origin}/api/users/current`);
    expect(response.status).toBe(200);
    expect(response.headers.get('strict-transport-security')).toBe(SERVICE_HSTS);
  });
});
