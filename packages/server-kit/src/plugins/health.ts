import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const CHECK_TIMEOUT_MS = 2_000;

async function timed(check: () => Promise<unknown>): Promise<'ok' | 'failing'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'failing';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness says the process answers; readiness says it can serve, so a load balancer
 * stops sending traffic to an instance that lost PostgreSQL or Redis.
 */
export const healthPlugin = fp(
  (app: FastifyInstance) => {
    app.get('/health/live', { logLevel: 'warn' }, () => ({ status: 'ok' }));
    app.get('/health/ready', { logLevel: 'warn' }, async (_request, reply) => {
      const [postgres, redis] = await Promise.all([
        timed(() => app.orm.em.fork().execute('select 1')),
        timed(() => app.kv.ping()),
      ]);
      const ready = postgres === 'ok' && redis === 'ok';
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ok' : 'failing', checks: { postgres, keyValueStore: redis } });
    });
  },
  {
    name: 'foodshare-health',
    fastify: '5.x',
    dependencies: ['foodshare-orm', 'foodshare-key-value-store'],
  },
);
