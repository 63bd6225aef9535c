import { executePrepared, openOrm, preparedStatement, type MikroORM } from '@foodshare/domain';
import { workerDatabase } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '@foodshare/server-kit/test-support';

const USER_NAMES = preparedStatement(
  'user_names_test',
  `select first_name from users where id = any (?::int[]) and first_name like ? order by id`,
);

describe('prepared statements', () => {
  let orm: MikroORM;

  beforeAll(async () => {
    const database = await workerDatabase('api');
    // One connection: every statement below meets the same PostgreSQL session.
    orm = await openOrm({ url: database.url, poolSize: 1 });
    await orm.em.fork().execute(
      `insert into users (id, first_name, last_name, email, password_hash) values
           (9001, 'Ada', 'L', 'ada@prepared.example.org', 'x'),
           (9002, 'Alan', 'T', 'alan@prepared.example.org', 'x'),
           (9003, 'Grace', 'H', 'grace@prepared.example.org', 'x')`,
    );
  });

  afterAll(() => orm.close());

  it('numbers the placeholders and names the statement by its text', () => {
    expect(USER_NAMES.text).toContain('any ($1::int[]) and first_name like $2 order by');
    expect(USER_NAMES.name).toMatch(/^user_names_test_[0-9a-f]{12}$/);
    const changed = preparedStatement('user_names_test', `${USER_NAMES.sql} limit 1`);
    expect(changed.name).not.toBe(USER_NAMES.name);
  });

  it('binds the values, so that a quote in one is data, not SQL', async () => {
    const rows = await executePrepared<{ first_name: string }>(orm.em.fork(), USER_NAMES, [
      [9001, 9002, 9003],
      'A%',
    ]);
    expect(rows).toEqual([{ first_name: 'Ada' }, { first_name: 'Alan' }]);
    const quoted = await executePrepared(orm.em.fork(), USER_NAMES, [[9001], "' or ''='"]);
    expect(quoted).toEqual([]);
  });

  it('is prepared once per connection and planned from then on without parsing again', async () => {
    for (let run = 0; run < 3; run++) {
      await executePrepared(orm.em.fork(), USER_NAMES, [[9003], 'G%']);
    }
    const prepared = await orm.em.fork().execute<{ name: string; runs: number }[]>(
      `select name, (generic_plans + custom_plans)::int as runs
           from pg_prepared_statements where name = ?`,
      [USER_NAMES.name],
    );
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.runs).toBeGreaterThanOrEqual(3);
  });

  it('is one query to the query logger, as every statement is', async () => {
    const { queries } = await countQueries(orm, () =>
      executePrepared(orm.em.fork(), USER_NAMES, [[9001], '%']),
    );
    expect(queries).toBe(1);
  });

  it('without named statements (a pooler in transaction mode), binds the same and prepares nothing', async () => {
    const unnamed = await openOrm({
      url: orm.config.get('clientUrl'),
      poolSize: 1,
      preparedStatements: false,
    });
    try {
      const rows = await executePrepared<{ first_name: string }>(unnamed.em.fork(), USER_NAMES, [
        [9001, 9002, 9003],
        'A%',
      ]);
      expect(rows).toEqual([{ first_name: 'Ada' }, { first_name: 'Alan' }]);
      const prepared = await unnamed.em
        .fork()
        .execute<{ count: number }[]>('select count(*)::int as count from pg_prepared_statements');
      expect(prepared).toEqual([{ count: 0 }]);
    } finally {
      await unnamed.close();
    }
  });

  it('refuses to run inside a transaction, whose connection the pool cannot hand out', async () => {
    const inTransaction = orm.em
      .fork()
      .transactional((tx) => executePrepared(tx, USER_NAMES, [[9001], '%']));
    await expect(inTransaction).rejects.toThrow(/runs outside transactions only/);
  });
});
