import { type Actor, type EntityManager, Role } from '@foodshare/domain';
import { countQueries } from '@foodshare/server-kit/test-support';
import { type Caller, runSqlAsActor } from './as-actor.ts';
import type { SqlQuery } from './sql.ts';
import { describe, expect, it } from '../test-support/fixtures.ts';

/** A caller that records what the statement handed on. */
function recordingCaller(userId: number): Caller & { provided: (Actor | null)[] } {
  const provided: (Actor | null)[] = [];
  return { userId, provided, provide: (actor) => provided.push(actor) };
}

// Rows in an order that is neither the series' own nor any index's: the ORDER BY must survive.
const SHUFFLED: SqlQuery<{ n: number; label: string }> = {
  sql: `select n, 'row ' || n as label from generate_series(1, ?::int) as s(n)
         order by n % 7, n desc`,
  params: [200],
};
const EXPECTED_ORDER = Array.from({ length: 200 }, (_, i) => i + 1).sort(
  (a, b) => (a % 7) - (b % 7) || b - a,
);

describe('runSqlAsActor', () => {
  it('answers the account and every row of the query, in the query’s order', async ({
    app,
    factory,
  }) => {
    const userId = await factory.user({ role: Role.Ambassador, verified: false });
    const caller = recordingCaller(userId);
    const { actor, rows } = await runSqlAsActor(app.orm.em.fork(), caller, SHUFFLED);
    expect(actor).toEqual({ id: userId, role: Role.Ambassador, verified: false });
    expect(caller.provided).toEqual([actor]);
    expect(rows.map((row) => row.n)).toEqual(EXPECTED_ORDER);
    // Only the query's own columns: the account's are not left on the rows.
    expect(rows[0]).toEqual({ n: EXPECTED_ORDER[0], label: `row ${EXPECTED_ORDER[0]}` });
  });

  it('is one statement', async ({ app, factory }) => {
    const userId = await factory.user();
    const { queries } = await countQueries(app.orm, () =>
      runSqlAsActor(app.orm.em.fork(), recordingCaller(userId), SHUFFLED),
    );
    expect(queries).toBe(1);
  });

  it('takes a query that ends in a line comment', async ({ app, factory }) => {
    const userId = await factory.user();
    const { rows } = await runSqlAsActor(app.orm.em.fork(), recordingCaller(userId), {
      sql: 'select ?::int as n -- the one row',
      params: [7],
    });
    expect(rows).toEqual([{ n: 7 }]);
  });

  it('answers the account and no rows for a query without a row', async ({ app, factory }) => {
    const userId = await factory.user({ role: Role.Foodsharer });
    const { actor, rows } = await runSqlAsActor(app.orm.em.fork(), recordingCaller(userId), {
      sql: 'select id from users where id = ?',
      params: [-1],
    });
    expect(actor).toEqual({ id: userId, role: Role.Foodsharer, verified: true });
    expect(rows).toEqual([]);
  });

  it('is the 401 of requireActor for an account no longer active, or one that is gone', async ({
    app,
    factory,
  }) => {
    const inactive = await factory.user({ activated: false });
    for (const userId of [inactive, 2_000_000_000]) {
      const caller = recordingCaller(userId);
      await expect(runSqlAsActor(app.orm.em.fork(), caller, SHUFFLED)).rejects.toMatchObject({
        status: 401,
        detail: 'Your account is no longer active.',
      });
      expect(caller.provided).toEqual([null]);
    }
  });

  it('runs inside a transaction, on its connection, and sees what it wrote', async ({
    app,
    factory,
  }) => {
    const userId = await factory.user({ role: Role.Orga });
    const result = await app.orm.em.fork().transactional(async (tx: EntityManager) => {
      await tx.execute(`update users set first_name = 'Within' where id = ?`, [userId]);
      return runSqlAsActor(tx, recordingCaller(userId), {
        sql: 'select first_name from users where id = ? order by id',
        params: [userId],
      });
    });
    expect(result).toEqual({
      actor: { id: userId, role: Role.Orga, verified: true },
      rows: [{ first_name: 'Within' }],
    });
  });

  it('refuses a query that names the columns it adds', async ({ app, factory }) => {
    const userId = await factory.user();
    await expect(
      runSqlAsActor(app.orm.em.fork(), recordingCaller(userId), {
        sql: 'select 1 as as_actor_id',
        params: [],
      }),
    ).rejects.toThrow(/as_actor_/);
  });
});
