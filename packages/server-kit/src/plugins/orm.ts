import {
  type DatabaseTimeouts,
  openOrm,
  type EntityManager,
  type MikroORM,
} from '@foodshare/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// The request's fork, kept on the request itself so that it dies with the request
// (docs/benchmarks.md §3).
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
        return (this[REQUEST_FORK] ??= orm.em.fork());
      },
    });
    if (!options.orm) app.addHook('onClose', () => orm.close());
  },
  { name: 'foodshare-orm', fastify: '5.x' },
);
