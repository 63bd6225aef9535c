import { describe, expect, it } from '../../test-support/fixtures.ts';
import { explainGenericPlan, planNodes } from '../../test-support/query-plans.ts';
import { userReportsQuery } from './reports.sql.ts';

describe('the reports of a much-reported user, as a prepared statement', () => {
  it('reads one page of reports from the index, whatever plan is kept', async ({
    app,
    factory,
    sql,
  }) => {
    const reported = await factory.user({ role: 1 });
    const reporter = await factory.user({ role: 1 });
    await sql(
      `insert into reports (reporter_id, reported_id, message, reported_at)
       select ?, ?, 'Bericht ' || g, now() - g * interval '1 hour' from generate_series(1, 300) g`,
      [reporter, reported],
    );
    // Two thousand other users with one report each: the average user, whom a prepared
    // statement's kept plan is made for, has about one.
    await sql(
      `with others as (
         insert into users (first_name, last_name, email, password_hash)
         select 'Anders', 'Test', 'anders' || g || '@reports.example.org', 'x'
           from generate_series(1, 2000) g returning id)
       insert into reports (reporter_id, reported_id, message) select ?, id, 'Bericht' from others`,
      [reporter],
    );
    // And many stores, as a platform has: a join on stores of many rows is what tempted the
    // kept plan into reading every report of the user before the page was cut.
    await sql(
      `insert into stores (name, region_id) select 'Laden ' || g, 3 from generate_series(1, 20000) g`,
    );
    await sql('analyze reports, stores, users');
    // The plan a prepared statement keeps is made for any user, as the average one has a
    // report or none.
    const plan = await explainGenericPlan(
      app.orm.em,
      userReportsQuery(reported, { limit: 10, offset: 0 }),
    );
    const reportReads = planNodes(plan).filter((node) => node['Relation Name'] === 'reports');
    expect(reportReads).not.toEqual([]);
    for (const read of reportReads) expect(read['Actual Rows']).toBeLessThanOrEqual(10);
  });
});
