import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './test-support/server-process.ts';

// server.ts as deployed, with short request bounds: what a slow or lingering client can do
// to it, and to its stop.

const REQUEST_TIMEOUT_MS = 1_500;

/** A raw connection that records what arrives and how it ended. */
async function open(port: number) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const seen = { data: '', ended: false, error: undefined as string | undefined };
  socket.on('data', (chunk: Buffer) => (seen.data += chunk.toString()));
  const closed = new Promise<void>((resolve) => {
    socket.on('end', () => (seen.ended = true));
    socket.on('error', (error: NodeJS.ErrnoException) => (seen.error = error.code));
    socket.on('close', () => resolve());
  });
  return { socket, seen, closed };
}

/** Sends the headers and the first byte of a body, then one more byte every 200 ms. */
function trickle(socket: Socket): NodeJS.Timeout {
  socket.write(
    'POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
  );
  return setInterval(() => {
    if (!socket.destroyed) socket.write(' ');
  }, 200);
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe('server.ts and its connections', () => {
  let server: ServerProcess;
  const timers: NodeJS.Timeout[] = [];

  // One process for all: starting one takes seconds, and the last test stops it.
  beforeAll(async () => {
    server = await startServerProcess({
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HEADERS_TIMEOUT_MS: '1000',
    });
  }, 60_000);

  afterAll(() => {
    for (const timer of timers) clearInterval(timer);
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('cuts off a request body that trickles in for longer than the request timeout', async () => {
    const connection = await open(server.port);
    const started = performance.now();
    timers.push(trickle(connection.socket));
    expect(await within(connection.closed, REQUEST_TIMEOUT_MS + 3_000)).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(connection.seen.data).toMatch(/^HTTP\/1\.1 408/);
  });

  it('on SIGTERM answers a request sent over a kept-alive connection, cuts a trickling body, and exits promptly', async () => {
    const keptAlive = await open(server.port);
    const request = 'GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n';
    keptAlive.socket.write(request);
    const deadline = Date.now() + 5_000;
    while (!keptAlive.seen.data.includes('"ok"') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(keptAlive.seen.data).toMatch(/^HTTP\/1\.1 200/);
    keptAlive.seen.data = '';
    const trickling = await open(server.port);
    timers.push(trickle(trickling.socket));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const exited = once(server.child, 'exit') as Promise<[number | null, string | null]>;
    const started = performance.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 20));
    keptAlive.socket.write(request);

    // A clean answer that closes the connection, not a reset.
    expect(await within(keptAlive.closed, 5_000)).toBeUndefined();
    expect(keptAlive.seen.error).toBeUndefined();
    expect(keptAlive.seen.data).toMatch(/^HTTP\/1\.1 200/);
    expect(keptAlive.seen.data.toLowerCase()).toContain('connection: close');
    // The trickling client does not hold the stop for the 10 s it may take at most.
    expect(await within(exited, 5_000)).toEqual([0, null]);
    expect(performance.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
    expect(await within(trickling.closed, 1_000)).toBeUndefined();
  });
});
