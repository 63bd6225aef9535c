import {
  type DatabaseTimeouts,
  openOrm,
  requestEntityManager,
  type EntityManager,
  type MikroORM,
} from '@foodshare/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    orm: MikroORM;
  }
  interface FastifyRequest {
    /** This request's own EntityManager fork (one unit of work per request). */
    em: EntityManager;
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

const forks = new WeakMap<object, EntityManager>();

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
    app.decorateRequest('em', {
      getter(this: object) {
        let em = forks.get(this);
        if (!em) {
          em = requestEntityManager(orm);
          forks.set(this, em);
        }
        return em;
      },
    });
    if (!options.orm) app.addHook('onClose', () => orm.close());
  },
  { name: 'foodshare-orm', fastify: '5.x' },
);
