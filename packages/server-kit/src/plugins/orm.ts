import {
  type DatabaseTimeouts,
  openOrm,
  requestEntityManager,
  type EntityManager,
  type MikroORM,
} from '@foodshare/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// The request's fork, kept on the request itself. Kept in a WeakMap keyed by the request, the
// forks outlived their requests in V8's young-generation collections: under
// `GET /api/users/current` at 16 connections each scavenge took 4 to 8 ms instead of 2 to 3,
// and the units of work led the allocations that survived them (the inspector's sampling heap
// profiler, objects collected by a minor GC left out).
const REQUEST_FORK: unique symbol = Symbol('foodshare.em');

declare module 'fastify' {
  interface FastifyInstance {
    orm: MikroORM;
  }
  interface FastifyRequest {
    /** This request's own EntityManager fork (one unit of work per request). */
    em: EntityManager;
    [REQUEST_FORK]: EntityManager | null;
  }
}

export interface OrmPluginOptions {
  databaseUrl: string;
  timeouts: DatabaseTimeouts;
  /** DATABASE_POOL_SIZE and DATABASE_PREPARED_STATEMENTS (databasePooling). */
  pooling: { poolSize: number; preparedStatements: boolean };
  /** A shared ORM (the one-process start); the app then does not close it. */
  orm?: MikroORM;
}

export const ormPlugin = fp(
  async (app: FastifyInstance, options: OrmPluginOptions) => {
    const orm =
      options.orm ??
      (await openOrm({
        url: options.databaseUrl,
        timeouts: options.timeouts,
        ...options.pooling,
      }));
    app.decorate('orm', orm);
    // Forked lazily: health checks and cached answers never pay for a unit of work.
    app.decorateRequest(REQUEST_FORK, null);
    app.decorateRequest('em', {
      getter(this: FastifyRequest) {
        return (this[REQUEST_FORK] ??= requestEntityManager(orm));
      },
    });
    if (!options.orm) app.addHook('onClose', () => orm.close());
  },
  { name: 'foodshare-orm', fastify: '5.x' },
);
