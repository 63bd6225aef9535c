import Fastify, { type RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { callerPlugin, requireActor, requireSession } from './caller.ts';

/** Boots a bare app with the caller plugin and one route with `options`. */
async function bootWith(options: Partial<RouteOptions>): Promise<void> {
  const bare = Fastify();
  callerPlugin(bare);
  try {
    bare.route({ method: 'GET', url: '/api/thing', handler: () => ({}), ...options });
    await bare.ready();
  } finally {
    await bare.close();
  }
}

describe('every route says how it gets its caller', () => {
  it('boots a public route, a session route and an actor route', async () => {
    await expect(bootWith({ config: { public: true } })).resolves.toBeUndefined();
    await expect(bootWith({ onRequest: requireSession })).resolves.toBeUndefined();
    await expect(
      bootWith({ onRequest: [requireSession], preValidation: [requireActor] }),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['says nothing', {}],
    ['reads the account without a session check', { preValidation: requireActor }],
    ['is public and needs a session', { config: { public: true }, onRequest: requireSession }],
  ] as const)('refuses to boot a route that %s', async (_what, options) => {
    await expect(bootWith(options)).rejects.toThrow(/say how the route gets its caller/);
  });
});
