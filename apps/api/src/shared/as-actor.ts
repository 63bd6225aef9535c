// A read and the caller's account in one statement (docs/design.md §3.11): measured under
// `pnpm bench`, each statement of a request costs 55-80 µs of server CPU (a pool checkout, a
// socket write, parsing, the release), so the account read of `requireActor` is folded into the
// feature's first query wherever that query needs only the caller's id.
import type { Actor, EntityManager, Role } from '@foodshare/domain';
import { Problem, provideActor, requireActor, requireSession } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';
import { runSql, type SqlQuery } from './sql.ts';

/**
 * The caller before their account was read: the session's user id, and where to hand the
 * account once a query read it, so that a later `requireActor` of the request costs nothing.
 * A plain object, so that services stay free of Fastify and a test can make one.
 */
export interface Caller {
  readonly userId: number;
  /** The account as read, or null for one no longer active. */
  provide(actor: Actor | null): void;
}

/** The session's caller (401 without a session, as `requireActor` gives). */
export function callerOf(request: FastifyRequest): Caller {
  const { userId } = requireSession(request);
  return { userId, provide: (actor) => provideActor(request, actor) };
}

/**
 * `parse()`'s value, for a route that reads the account later in its own query: when the parse
 * fails (a path or query value), the account is read first, so that an inactive account still
 * gets its 401 before the parse's 404 or 400 (docs/adding-an-endpoint.md §2.4).
 */
export async function parsedAsActor<T>(request: FastifyRequest, parse: () => T): Promise<T> {
  try {
    return parse();
  } catch (error) {
    await requireActor(request);
    throw error;
  }
}

// Names of the columns the statement adds. No table has a column of this prefix and the
// feature's SQL may not name one (checked below); they also come last in the select list, where
// the driver's last-wins for equal names would keep the account's values in any case.
const PREFIX = 'as_actor_';

interface ActorColumns {
  as_actor_id: number;
  as_actor_role: number;
  as_actor_verified: boolean;
  /** True on a row of the feature's query; null on the one row it yields when it has none. */
  as_actor_row: boolean | null;
}

/**
 * The caller's account (401 `accountInactive` when it is no longer active, as `requireActor`
 * answers) and the rows of `query`, in one statement.
 *
 * Order: the feature's rows come out in the order its own ORDER BY gives them. The users row is
 * one row by primary key; the feature's query is a subquery of its own (a subquery with ORDER BY
 * is never pulled up into the outer join), and a join `on true` has no clause a hash or merge
 * join could use, so the plan is a nested loop, whose outer side for a LEFT join is the users
 * row: the subquery is read once, front to back. as-actor.test.ts checks it.
 *
 * The subquery is not LATERAL: it cannot see the users row `a`, so its names resolve exactly as
 * when it runs alone (a stray `a.x` is an error, not the caller's column).
 *
 * Runs where `runSql` runs, inside a transaction too.
 */
export async function runSqlAsActor<Row extends object>(
  em: EntityManager,
  caller: Caller,
  query: SqlQuery<Row>,
): Promise<{ actor: Actor; rows: Row[] }> {
  const folded: SqlQuery<Row & ActorColumns> = {
    sql: foldedSql(query),
    params: [...query.params, caller.userId],
  };
  const rows = await runSql(em, folded);
  const first = rows[0];
  if (!first) {
    caller.provide(null);
    throw Problem.accountInactive();
  }
  const actor: Actor = {
    id: first.as_actor_id,
    role: first.as_actor_role as Role,
    verified: first.as_actor_verified,
  };
  caller.provide(actor);
  return {
    actor,
    rows: rows.filter((row) => row.as_actor_row === true).map(withoutActorColumns),
  };
}

function foldedSql(query: SqlQuery): string {
  if (query.sql.toLowerCase().includes(PREFIX)) {
    throw new Error(`runSqlAsActor: the query may not name columns starting with ${PREFIX}`);
  }
  // The feature's text ends on a line of its own, so that a trailing `--` comment in it cannot
  // swallow the rest.
  return `select q.*, a.id as as_actor_id, a.role as as_actor_role,
                      a.verified as as_actor_verified
                 from users a
                 left join (select true as as_actor_row, f.* from (${query.sql}
                 ) f) q on true
                where a.id = ? and a.activated`;
}

function withoutActorColumns<Row extends object>(row: Row & ActorColumns): Row {
  const {
    as_actor_id: _id,
    as_actor_role: _role,
    as_actor_verified: _verified,
    as_actor_row: _row,
    ...rest
  } = row;
  return rest as unknown as Row;
}
