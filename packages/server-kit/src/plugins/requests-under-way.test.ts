import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { requestsUnderWayPlugin } from './requests-under-way.ts';

const openConnections = (server: Server) =>
  new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));

async function appWithCount() {
  const app = Fastify();
  await app.register(requestsUnderWayPlugin);
  return app;
}

/** A promise the test settles when it chooses: what a handler or hook waits on meanwhile. */
function gate(): { held: Promise<void>; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/** Listens on a free loopback port and says which. */
async function listenOnLoopback(app: Awaited<ReturnType<typeof appWithCount>>): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

describe('requestsUnderWayPlugin', () => {
  let app: Awaited<ReturnType<typeof appWithCount>>;
  afterEach(() => app?.close());

  it('counts a request whose client has gone until its handler has answered', async () => {
    app = await appWithCount();
    const { held, release } = gate();
    app.get('/held', async () => {
      await held;
      return { done: true };
    });
    const port = await listenOnLoopback(app);

    const client = request({ port, host: '127.0.0.1', path: '/held', agent: false });
    client.on('error', () => undefined);
    client.end();
    await expect.poll(() => app.requestsUnderWay.count).toBe(1);
    client.destroy();
    await expect.poll(() => openConnections(app.server)).toBe(0);
    // No connection shows the request any more; the count still does.
    expect(app.requestsUnderWay.count).toBe(1);
    expect(await app.requestsUnderWay.settled(50)).toBe(1);

    release();
    expect(await app.requestsUnderWay.settled(1_000)).toBe(0);
  });

  it('counts out a request whose client left before its body was read', async () => {
    app = await appWithCount();
    // An async onRequest hook still waiting (the session lookup) when the client leaves:
    // Fastify would then read the body of a destroyed stream and wait for ever.
    const { held, release } = gate();
    app.addHook('onRequest', async () => {
      await held;
    });
    let handled = false;
    app.post('/body', async () => {
      handled = true;
      return { ok: true };
    });
    const port = await listenOnLoopback(app);

    const client = request({
      port,
      host: '127.0.0.1',
      path: '/body',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      agent: false,
    });
    client.on('error', () => undefined);
    client.end(JSON.stringify({ some: 'body' }));
    await expect.poll(() => app.requestsUnderWay.count).toBe(1);
    client.destroy();
    await expect.poll(() => openConnections(app.server)).toBe(0);

    release();
    expect(await app.requestsUnderWay.settled(1_000)).toBe(0);
    expect(handled).toBe(false);
  });

  it('counts every request out once: an answer, a 404, an error thrown by an onSend hook', async () => {
    app = await appWithCount();
    app.get('/ok', async () => ({ ok: true }));
    app.get('/refused-by-on-send', async () => ({ ok: true }));
    app.addHook('onSend', (request, reply, payload, done) => {
      // onSend then runs once more, for the error's answer (500).
      if (request.url === '/refused-by-on-send' && reply.statusCode === 200) {
        done(new Error('refused'));
        return;
      }
      done(null, payload);
    });
    const answers = await Promise.all(
      ['/ok', '/nowhere', '/refused-by-on-send'].map(
        async (url) => (await app.inject(url)).statusCode,
      ),
    );
    expect(answers).toEqual([200, 404, 500]);
    expect(app.requestsUnderWay.count).toBe(0);
  });

  it('settles at once when nothing is under way', async () => {
    app = await appWithCount();
    await app.ready();
    const started = performance.now();
    expect(await app.requestsUnderWay.settled(4_000)).toBe(0);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
