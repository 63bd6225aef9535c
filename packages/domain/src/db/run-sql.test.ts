import { describe, expect, it, test } from '../test-support/fixtures.ts';
import { openOrm, type MikroORM } from './orm.ts';
import { namedStatement, runSql, type SqlQuery } from './run-sql.ts';

const USER_NAMES_SQL = `select first_name from users where id = any (?::int[]) and first_name like ? order by id`;
const USER_NAMES = namedStatement(USER_NAMES_SQL);

function userNames(ids: number[], pattern: string): SqlQuery<{ first_name: string }> {
  return { sql: USER_NAMES_SQL, params: [ids, pattern] };
}

/** How many queries MikroORM's query logger saw while `action` ran. */
async function countQueries(orm: MikroORM, action: () => Promise<unknown>): Promise<number> {
  const logger = orm.config.getLogger();
  const log = logger.logQuery.bind(logger);
  let queries = 0;
  logger.logQuery = (context) => {
    queries += 1;
    log(context);
  };
  try {
    await action();
    return queries;
  } finally {
    delete (logger as { logQuery?: unknown }).logQuery;
  }
}

// One connection: every statement below meets the same PostgreSQL session.
test.override('ormConfig', { scope: 'file' }, { poolSize: 1 });

describe('runSql', () => {
  test.beforeAll(async ({ orm }) => {
    await orm.em.fork().execute(
      `insert into users (id, first_name, last_name, email, password_hash) values
           (9001, 'Ada', 'L', 'ada@prepared.example.org', 'x'),
           (9002, 'Alan', 'T', 'alan@prepared.example.org', 'x'),
           (9003, 'Grace', 'H', 'grace@prepared.example.org', 'x')`,
    );
  });

  it('numbers the placeholders and names the statement by its text', () => {
    expect(USER_NAMES.text).toContain('any ($1::int[]) and first_name like $2 order by');
    expect(USER_NAMES.name).toMatch(/^q_[0-9a-f]{12}$/);
    const changed = namedStatement(`${USER_NAMES_SQL} limit 1`);
    expect(changed.name).not.toBe(USER_NAMES.name);
  });

  it('names a text from its cache after the first time, also once the cache was emptied', () => {
    expect(namedStatement(USER_NAMES_SQL)).toBe(USER_NAMES);
    for (let i = 0; i <= 1000; i++) namedStatement(`select ${i}`);
    expect(namedStatement(USER_NAMES_SQL)).toEqual(USER_NAMES);
  });

  it('binds the values, so that a quote in one is data, not SQL', async ({ orm }) => {
    const rows = await runSql(orm.em.fork(), userNames([9001, 9002, 9003], 'A%'));
    expect(rows).toEqual([{ first_name: 'Ada' }, { first_name: 'Alan' }]);
    const quoted = await runSql(orm.em.fork(), userNames([9001], "' or ''='"));
    expect(quoted).toEqual([]);
  });

  it('is prepared once per connection and planned from then on without parsing again', async ({
    orm,
  }) => {
    for (let run = 0; run < 3; run++) {
      await runSql(orm.em.fork(), userNames([9003], 'G%'));
    }
    const prepared = await orm.em.fork().execute<{ name: string; runs: number }[]>(
      `select name, (generic_plans + custom_plans)::int as runs
           from pg_prepared_statements where name = ?`,
      [USER_NAMES.name],
    );
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.runs).toBeGreaterThanOrEqual(3);
  });

  it('is one query to the query logger, as every statement is', async ({ orm }) => {
    const queries = await countQueries(orm, () => runSql(orm.em.fork(), userNames([9001], '%')));
    expect(queries).toBe(1);
  });

  it('without named statements (a pooler in transaction mode), binds the same and prepares nothing', async ({
    orm,
  }) => {
    const unnamed = await openOrm({
      url: orm.config.get('clientUrl'),
      poolSize: 1,
      preparedStatements: false,
    });
    try {
      const rows = await runSql(unnamed.em.fork(), userNames([9001, 9002, 9003], 'A%'));
      expect(rows).toEqual([{ first_name: 'Ada' }, { first_name: 'Alan' }]);
      const prepared = await unnamed.em
        .fork()
        .execute<{ count: number }[]>('select count(*)::int as count from pg_prepared_statements');
      expect(prepared).toEqual([{ count: 0 }]);
    } finally {
      await unnamed.close();
    }
  });

  it('runs as text inside a transaction, on the transaction’s own connection', async ({ orm }) => {
    const rows = await orm.em
      .fork()
      .transactional((tx) => runSql(tx, { sql: USER_NAMES_SQL, params: ['{9001}', '%'] }));
    expect(rows).toEqual([{ first_name: 'Ada' }]);
  });
});
