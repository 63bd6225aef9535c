import { databasePool, poolStalledForMs } from '@foodshare/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface HealthPluginOptions {
  /** Bound of each readiness check. */
  checkTimeoutMs: number;
  /**
   * How long the database pool may be unable to hand out any connection before liveness
   * fails: far longer than any request holds one, so only a leak or a hang gets there.
   */
  stalledPoolLimitMs: number;
}

async function timed(check: () => Promise<unknown>, timeoutMs: number): Promise<'ok' | 'failing'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
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
 * Liveness says the process can still serve at all, so an orchestrator restarts one that
 * cannot (a database pool that has handed out nothing for a long time); readiness says its
 * dependencies answer, so a load balancer stops sending traffic to an instance that lost
 * PostgreSQL or Redis until they are back. Neither needs a session.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance, options: HealthPluginOptions) => {
    const pool = await databasePool(app.orm);
    // Which release answers: a rolling update runs two side by side (docs/operations.md §1).
    app.get('/health', { logLevel: 'warn' }, async () => app.release);
    app.get('/health/live', { logLevel: 'warn' }, async (_request, reply) => {
      const stalledMs = poolStalledForMs(pool);
      const live = stalledMs < options.stalledPoolLimitMs;
      return reply.status(live ? 200 : 503).send({
        status: live ? 'ok' : 'failing',
        checks: { databasePool: live ? 'ok' : 'stalled' },
      });
    });
    app.get('/health/ready', { logLevel: 'warn' }, async (_request, reply) => {
      const [postgres, redis] = await Promise.all([
        timed(() => app.orm.em.fork().execute('select 1'), options.checkTimeoutMs),
        timed(() => app.kv.ping(), options.checkTimeoutMs),
      ]);
      const ready = postgres === 'ok' && redis === 'ok';
      if (!ready) void reply.header('retry-after', '1');
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
