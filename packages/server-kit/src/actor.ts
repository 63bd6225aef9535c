import {
  type Actor,
  type EntityManager,
  type Role,
  runSql,
  type SqlQuery,
} from '@foodshare/domain';
import type { FastifyRequest } from 'fastify';
import { Problem } from './problem.ts';
import type { AccountFacts, Session } from './session/session-store.ts';

/**
 * How long a session's account facts stand in for PostgreSQL. Every write of this release to a
 * role, a verification or an activation updates the user's sessions at once; this bounds what
 * a write that does not (a previous release's, an operator's SQL) leaves stale.
 */
export const ACCOUNT_FACTS_MAX_AGE_MS = 30_000;

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
 * The caller's id, role and verified flag, 401 without a session or an active account. They
 * come from the session's account facts while those are younger than ACCOUNT_FACTS_MAX_AGE_MS,
 * else from PostgreSQL, and the session then keeps what was read (docs/design.md §3.11).
 */
export async function requireActor(request: FastifyRequest): Promise<Actor> {
  // A token caller's account was read when its token was checked (provideActor).
  const actor = await (request[REQUEST_ACTOR] ??= actorOf(request, requireSession(request)));
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

/** The account as requireActor needs it, read from PostgreSQL; null when it is not active. */
export async function readAccount(em: EntityManager, userId: number): Promise<Actor | null> {
  const rows = await runSql(em, actorQuery(userId));
  const row = rows[0];
  return row ? { id: row.id, role: row.role as Role, verified: row.verified } : null;
}

async function actorOf(request: FastifyRequest, session: Session): Promise<Actor | null> {
  const facts = session.account;
  if (isFresh(facts, Date.now())) {
    return { id: session.userId, role: facts.role, verified: facts.verified };
  }
  const readAt = Date.now();
  const actor = await readAccount(request.em, session.userId);
  if (actor) {
    // The facts are a cache: a store that refuses the write costs the next request a read.
    await request.server.sessions.rememberAccount(session.id, actor, readAt).catch((error) => {
      request.log.warn({ err: error }, 'could not keep the account facts in the session');
    });
  }
  return actor;
}

/** Facts from the store are checked before they are trusted: any doubt reads the account. */
function isFresh(facts: AccountFacts | undefined, now: number): facts is AccountFacts {
  return (
    typeof facts === 'object' &&
    facts !== null &&
    Number.isInteger(facts.role) &&
    typeof facts.verified === 'boolean' &&
    typeof facts.readAt === 'number' &&
    // Either way: a clock ahead of ours must not make facts young for ever.
    Math.abs(now - facts.readAt) < ACCOUNT_FACTS_MAX_AGE_MS
  );
}
