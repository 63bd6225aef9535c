import {
  type Actor,
  type EntityManager,
  type Role,
  runSql,
  type SqlQuery,
} from '@foodshare/domain';
import type { FastifyRequest } from 'fastify';
import { Problem } from './problem.ts';
import type { Session } from './session/session-store.ts';

/**
 * Where a request keeps its caller's account once read, declared on every request by the
 * session plugin. On the request, not in a WeakMap keyed by it: see plugins/orm.ts.
 */
export const REQUEST_ACTOR: unique symbol = Symbol('foodshare.actor');

declare module 'fastify' {
  interface FastifyRequest {
    [REQUEST_ACTOR]: Promise<Actor | null> | null;
  }
}

export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw Problem.unauthorized();
  return request.session;
}

/**
 * The caller's id, role and verified flag, read fresh from PostgreSQL once per request
 * (a role raised or an account deactivated takes effect at once), 401 without a session.
 */
export async function requireActor(request: FastifyRequest): Promise<Actor> {
  // A token caller's account was read when its token was checked (provideActor).
  const actor = await (request[REQUEST_ACTOR] ??= readActor(
    request.em,
    requireSession(request).userId,
  ));
  if (!actor) throw Problem.accountInactive();
  return actor;
}

/**
 * For a route that read the caller's account in a query of its own (the search index's version
 * row): the actor `requireActor` then answers, or null for an account no longer active.
 */
export function provideActor(request: FastifyRequest, actor: Actor | null): void {
  request[REQUEST_ACTOR] = Promise.resolve(actor);
}

function actorQuery(userId: number): SqlQuery<{ id: number; role: number; verified: boolean }> {
  return {
    sql: 'select id, role, verified from users where id = ? and activated',
    params: [userId],
  };
}

/** The account's id, role and verified flag, or null when it is not active. */
export async function readActor(em: EntityManager, userId: number): Promise<Actor | null> {
  const rows = await runSql(em, actorQuery(userId));
  const row = rows[0];
  return row ? { id: row.id, role: row.role as Role, verified: row.verified } : null;
}
