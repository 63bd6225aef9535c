import type { Factories } from '../../test-support/factories.ts';
import { describe, expect, it, type Sql } from '../../test-support/fixtures.ts';
import { explainGenericPlan, planNodes } from '../../test-support/query-plans.ts';
import { generationsQuery, PASSPORT_GENERATIONS_LIMIT } from './passport.sql.ts';

const JOINS = ['Nested Loop', 'Hash Join', 'Merge Join'];

/** A verified user with three times as many generations as the list shows, and their maker. */
async function holderOfManyGenerations(factory: Factories, sql: Sql) {
  const holder = await factory.user({ role: 1, verified: true });
  const maker = await factory.user({ role: 2, verified: true });
  await sql(
    `insert into passport_generations (user_id, generated_by_id, created_at)
     select ?, ?, now() - g * interval '1 hour' from generate_series(1, ?) g`,
    [holder, maker, PASSPORT_GENERATIONS_LIMIT * 3],
  );
  return { holder, maker };
}

describe('the passport generations of a user who made many, as a prepared statement', () => {
  it('joins who made each generation for the listed ones only, statistics or none', async ({
    app,
    factory,
    sql,
  }) => {
    // First in this file, before the next test analyses the table: more generations than the
    // list shows, and no statistics on them (the template database was never analysed), as on
    // a database autovacuum has not analysed yet. The plan may then sort all of the user's
    // generations to find the newest (the narrow rows, before any join); joined first, it
    // read, joined and sorted every one of them (alice's 10,528 on the grown bench data).
    const { holder } = await holderOfManyGenerations(factory, sql);
    const plan = await explainGenericPlan(app.orm.em, generationsQuery(holder));
    expect(plan['Actual Rows']).toBe(PASSPORT_GENERATIONS_LIMIT);
    // Every join (the owner's row, who made each generation) is made for the listed
    // generations only, never for every one recorded.
    const joins = planNodes(plan).filter((node) => JOINS.includes(node['Node Type']));
    expect(joins).not.toEqual([]);
    for (const join of joins) {
      expect((join['Actual Rows'] ?? 0) * (join['Actual Loops'] ?? 1)).toBeLessThanOrEqual(
        PASSPORT_GENERATIONS_LIMIT,
      );
    }
  });

  it('reads only the listed generations from the index, once PostgreSQL knows the table', async ({
    app,
    factory,
    sql,
  }) => {
    const { holder, maker } = await holderOfManyGenerations(factory, sql);
    // Two thousand other users with one generation each: the average user, whom the kept
    // plan is made for, has about one.
    await sql(
      `with others as (
         insert into users (first_name, last_name, email, password_hash, verified)
         select 'Anders', 'Test', 'anders' || g || '@passport.example.org', 'x', true
           from generate_series(1, 2000) g returning id)
       insert into passport_generations (user_id, generated_by_id) select id, ? from others`,
      [maker],
    );
    await sql('analyze passport_generations, users');
    const plan = await explainGenericPlan(app.orm.em, generationsQuery(holder));
    expect(plan['Actual Rows']).toBe(PASSPORT_GENERATIONS_LIMIT);
    const generationReads = planNodes(plan).filter(
      (node) => node['Relation Name'] === 'passport_generations',
    );
    expect(generationReads).not.toEqual([]);
    for (const read of generationReads) {
      expect(read['Actual Rows']).toBeLessThanOrEqual(PASSPORT_GENERATIONS_LIMIT);
    }
  });
});
