import {
  RegionOptionPermissionsSchema,
  RegionOptionsReadSchema,
  RegionOptionsSchema,
} from '@foodshare/schemas';
import { Value } from 'typebox/value';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  type Sql,
  test,
} from '../../test-support/fixtures.ts';
import { lockWaiters } from '../../test-support/sql.ts';

const MUSTERSTADT = 3;
const BEISPIELDORF = 4;

const REPORT = {
  enableReportButton: true,
  enableMediationButton: true,
  selectedReportReasonOptions: 2,
  enableReportReasonOther: false,
};
const PICKUP = {
  regionPickupRuleActive: true,
  regionPickupRuleTimespan: 14,
  regionPickupRuleLimit: 5,
  regionPickupRuleLimitDay: 2,
  regionPickupRuleInactive: 48,
};
const DEFAULTS = {
  enableReportButton: false,
  enableMediationButton: false,
  selectedReportReasonOptions: 1,
  enableReportReasonOther: true,
  regionPickupRuleActive: false,
  regionPickupRuleTimespan: 0,
  regionPickupRuleLimit: 0,
  regionPickupRuleLimitDay: 0,
  regionPickupRuleInactive: 0,
};

async function stored(sql: Sql, regionId: number): Promise<Record<string, unknown> | undefined> {
  const rows = await sql<Record<string, unknown>[]>(
    'select * from region_options where region_id = ?',
    [regionId],
  );
  return rows[0];
}

const post = (client: ApiClient, regionId: number | string, payload: object) =>
  client.post(`/api/region/${regionId}/options`, payload);

const get = (client: ApiClient, regionId: number | string) =>
  client.get(`/api/region/${regionId}/options`);

/** A read under the names the POST takes (it answers the platform's read names too). */
const postNames = (json: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(DEFAULTS).map((key) => [key, json[key]]));

describe('region options: POST and GET /api/region/{regionId}/options', () => {
  let roleUsers: number[] = [];
  /** A city without delegate groups: its ambassador holds both duties. */
  const plain = { region: 0, ambassador: 0 };
  /** A city with a report (5) and a stores-coordination (4) group, each with an admin. */
  const delegated = { region: 0, ambassador: 0, reportAdmin: 0, storesAdmin: 0 };
  /** A city with a report group without admins: that duty is nobody's, not the ambassador's. */
  const orphaned = { region: 0, ambassador: 0 };

  test.beforeAll(async ({ factory }) => {
    roleUsers = await factory.userOfEachRole();

    plain.region = await factory.region({ name: 'Einfachstadt' });
    plain.ambassador = await factory.user({ role: 3 });
    await factory.addAdmin(plain.region, plain.ambassador);

    delegated.region = await factory.region({ name: 'Gruppenstadt' });
    delegated.ambassador = await factory.user({ role: 3 });
    delegated.reportAdmin = await factory.user({ role: 1 });
    delegated.storesAdmin = await factory.user({ role: 2 });
    await factory.addAdmin(delegated.region, delegated.ambassador);
    await factory.addAdmin(
      await factory.workGroup(delegated.region, 5, 'Meldegruppe Gruppenstadt'),
      delegated.reportAdmin,
    );
    await factory.addAdmin(
      await factory.workGroup(delegated.region, 4, 'Betriebskoordination Gruppenstadt'),
      delegated.storesAdmin,
    );

    orphaned.region = await factory.region({ name: 'Verwaiststadt' });
    orphaned.ambassador = await factory.user({ role: 3 });
    await factory.addAdmin(orphaned.region, orphaned.ambassador);
    await factory.workGroup(orphaned.region, 5, 'Meldegruppe Verwaiststadt');
  });

  it("shows dana Musterstadt's stored options", async ({ as }) => {
    const response = await get(await as(ids.users.dana), MUSTERSTADT);
    expect(response.statusCode).toBe(200);
    expect([...Value.Errors(RegionOptionsReadSchema, response.json())]).toEqual([]);
    expect(response.json()).toEqual({
      enableReportButton: true,
      enableMediationButton: true,
      selectedReportReasonOptions: 2,
      enableReportReasonOther: true,
      regionPickupRuleActive: true,
      regionPickupRuleTimespan: 7,
      regionPickupRuleLimit: 3,
      regionPickupRuleLimitDay: 1,
      regionPickupRuleInactive: 24,
      // The same under the names of the platform's read (its options page and
      // RegionOptionApiCest canFetchRegionOptions), with the region's forum flag.
      isReportButtonEnabled: true,
      isMediationButtonEnabled: true,
      isReportReasonOtherEnabled: true,
      isRegionPickupRuleActive: true,
      regionPickupRuleTimespanDays: 7,
      regionPickupRuleLimitNumber: 3,
      regionPickupRuleLimitDayNumber: 1,
      regionPickupRuleInactiveHours: 24,
      allowHidingInForum: true,
    });
  });

  it('fills in the defaults for a region that never stored options', async ({ as }) => {
    const response = await get(await as(ids.users.orga), BEISPIELDORF);
    expect(response.statusCode).toBe(200);
    expect(Value.Check(RegionOptionsReadSchema, response.json())).toBe(true);
    expect(postNames(response.json())).toEqual(DEFAULTS);
    expect(response.json()).toMatchObject({
      isReportReasonOtherEnabled: true,
      allowHidingInForum: false,
    });
  });

  it('stores every option for the holder of both duties and returns all of them', async ({
    as,
  }) => {
    const client = await as(plain.ambassador);
    const response = await post(client, plain.region, { ...REPORT, ...PICKUP });
    expect(response.statusCode).toBe(200);
    expect(Value.Check(RegionOptionsSchema, response.json())).toBe(true);
    expect(response.json()).toEqual({ ...REPORT, ...PICKUP });
    expect(postNames((await get(client, plain.region)).json())).toEqual({ ...REPORT, ...PICKUP });

    const partial = await post(client, plain.region, { enableReportButton: false });
    expect(partial.json()).toEqual({ ...REPORT, ...PICKUP, enableReportButton: false });
  });

  it('reads JSON booleans as 0/1 and numbers as numeric strings, as the options page sends them', async ({
    as,
  }) => {
    const client = await as(plain.ambassador);
    // A range input's value is text; a checkbox bound to 0/1 sends a number.
    const response = await post(client, plain.region, {
      enableReportButton: 0,
      enableMediationButton: '1',
      selectedReportReasonOptions: '2',
      regionPickupRuleActive: 'true',
      regionPickupRuleTimespan: '9',
      regionPickupRuleLimit: '3',
      regionPickupRuleLimitDay: '2',
      regionPickupRuleInactive: '12',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      enableReportButton: false,
      enableMediationButton: true,
      selectedReportReasonOptions: 2,
      regionPickupRuleActive: true,
      regionPickupRuleTimespan: 9,
      regionPickupRuleLimit: 3,
      regionPickupRuleLimitDay: 2,
      regionPickupRuleInactive: 12,
    });
    // Text that is not a whole number stays text, and is refused.
    const fraction = await post(client, plain.region, { regionPickupRuleTimespan: '7.5' });
    expect(fraction.statusCode).toBe(400);
  });

  describe('who may set which options, in a region that delegates both duties', () => {
    const cases: [string, () => number, { report: boolean; pickup: boolean }][] = [
      ['foodsharer (0)', () => roleUsers[0]!, { report: false, pickup: false }],
      ['foodsaver (1)', () => roleUsers[1]!, { report: false, pickup: false }],
      ['store manager (2)', () => roleUsers[2]!, { report: false, pickup: false }],
      ['ambassador (3) of another region', () => roleUsers[3]!, { report: false, pickup: false }],
      [
        'orga (4), who holds both duties everywhere',
        () => roleUsers[4]!,
        { report: true, pickup: true },
      ],
      [
        "the region's ambassador (both duties delegated)",
        () => delegated.ambassador,
        { report: false, pickup: false },
      ],
      ['admin of the report group', () => delegated.reportAdmin, { report: true, pickup: false }],
      [
        'admin of the stores-coordination group',
        () => delegated.storesAdmin,
        { report: false, pickup: true },
      ],
    ];

    it.for(cases)('%s', async ([_who, user, may], { as, sql }) => {
      const client = await as(user());
      const before = await stored(sql, delegated.region);
      const start = postNames((await get(await as(roleUsers[4]!), delegated.region)).json());
      const both = await post(client, delegated.region, { ...REPORT, ...PICKUP });
      const onlyReport = await post(client, delegated.region, REPORT);
      const onlyPickup = await post(client, delegated.region, PICKUP);
      const read = await get(client, delegated.region);

      if (!may.report && !may.pickup) {
        for (const response of [both, onlyReport, onlyPickup]) {
          expect(response.statusCode).toBe(403);
          expect(response.json()).toMatchObject({ code: 'REGION_OPTIONS_FORBIDDEN' });
        }
        expect(await stored(sql, delegated.region)).toEqual(before);
        expect(read.statusCode).toBe(403);
        return;
      }
      expect(read.statusCode).toBe(200);
      // Keys of a group the caller does not hold are skipped; the rest is stored.
      for (const response of [both, onlyReport, onlyPickup]) expect(response.statusCode).toBe(200);
      const expected = {
        ...start,
        ...(may.report ? REPORT : {}),
        ...(may.pickup ? PICKUP : {}),
      };
      expect(both.json()).toEqual(expected);
      expect(postNames(read.json())).toEqual(expected);
    });
  });

  it('leaves a duty with no admins in its delegate group to nobody, not the ambassador', async ({
    as,
  }) => {
    const client = await as(orphaned.ambassador);
    const report = await post(client, orphaned.region, REPORT);
    expect(report.statusCode).toBe(200);
    expect(report.json()).toEqual(DEFAULTS);
    expect((await post(client, orphaned.region, PICKUP)).json()).toEqual({
      ...DEFAULTS,
      ...PICKUP,
    });
  });

  it('lets dana, ambassador of Musterstadt without delegate groups, set both groups', async ({
    as,
  }) => {
    const response = await post(await as(ids.users.dana), MUSTERSTADT, {
      enableMediationButton: false,
      regionPickupRuleInactive: 12,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      enableMediationButton: false,
      regionPickupRuleInactive: 12,
      regionPickupRuleTimespan: 7,
    });
  });

  describe('value ranges', () => {
    it.for<[string, unknown, boolean]>([
      ['regionPickupRuleTimespan', 0, false],
      ['regionPickupRuleTimespan', 1, true],
      ['regionPickupRuleTimespan', 31, true],
      ['regionPickupRuleTimespan', 32, false],
      ['regionPickupRuleLimit', 0, false],
      ['regionPickupRuleLimit', 14, true],
      ['regionPickupRuleLimit', 15, false],
      ['regionPickupRuleLimitDay', 0, false],
      ['regionPickupRuleInactive', 3, false],
      ['regionPickupRuleInactive', 4, true],
      ['regionPickupRuleInactive', 72, true],
      ['regionPickupRuleInactive', 73, false],
      ['selectedReportReasonOptions', 0, false],
      ['selectedReportReasonOptions', 1, true],
      ['selectedReportReasonOptions', 2, true],
      ['selectedReportReasonOptions', 3, false],
      ['regionPickupRuleTimespan', 1.5, false],
      ['regionPickupRuleTimespan', '7.5', false],
      ['regionPickupRuleTimespan', '', false],
      ['enableReportButton', 'yes', false],
      ['enableReportButton', null, false],
    ])('%s = %j is accepted: %s', async ([key, value, accepted], { as }) => {
      const client = await as(plain.ambassador);
      const response = await post(client, plain.region, { [key]: value });
      expect(response.statusCode).toBe(accepted ? 200 : 400);
      if (accepted) expect(response.json()).toMatchObject({ [key]: value });
      else expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('keeps the pickups per day at most the limit, counting stored values', async ({ as }) => {
      const client = await as(plain.ambassador);
      const set = await post(client, plain.region, {
        regionPickupRuleLimit: 3,
        regionPickupRuleLimitDay: 3,
      });
      expect(set.statusCode).toBe(200);
      for (const payload of [
        { regionPickupRuleLimitDay: 4 },
        { regionPickupRuleLimit: 2 },
        { regionPickupRuleLimit: 5, regionPickupRuleLimitDay: 6 },
      ]) {
        const response = await post(client, plain.region, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json()).toMatchObject({ code: 'PICKUP_RULE_LIMIT_DAY_ABOVE_LIMIT' });
      }
      const read = await get(client, plain.region);
      expect(read.json()).toMatchObject({ regionPickupRuleLimit: 3, regionPickupRuleLimitDay: 3 });
      const both = await post(client, plain.region, {
        regionPickupRuleLimit: 2,
        regionPickupRuleLimitDay: 1,
      });
      expect(both.statusCode).toBe(200);
    });

    it('sets the pickups per day alone up to a stored limit above the defaults', async ({
      as,
      sql,
      factory,
    }) => {
      const region = await factory.region({ name: 'Grenzstadt' });
      const ambassador = await factory.user({ role: 3 });
      await factory.addAdmin(region, ambassador);
      const client = await as(ambassador);
      expect((await post(client, region, { regionPickupRuleLimit: 3 })).statusCode).toBe(200);
      // Above the default limit (0), within the stored one (3).
      const response = await post(client, region, { regionPickupRuleLimitDay: 3 });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        regionPickupRuleLimit: 3,
        regionPickupRuleLimitDay: 3,
      });
      expect(await stored(sql, region)).toMatchObject({
        region_pickup_rule_limit: 3,
        region_pickup_rule_limit_day: 3,
      });
    });

    it('refuses the second of two concurrent changes that together break the rule', async ({
      app,
      as,
      sql,
    }) => {
      const client = await as(plain.ambassador);
      const set = await post(client, plain.region, {
        regionPickupRuleLimit: 5,
        regionPickupRuleLimitDay: 2,
      });
      expect(set.statusCode).toBe(200);
      const responses: ReturnType<typeof post>[] = [];
      // The test holds the options row, so that both requests are judged against the stored
      // values (limit 5, per day 2) and each alone keeps the rule; together they break it.
      await app.orm.em.fork().transactional(async (tx) => {
        await tx.execute('select 1 from region_options where region_id = ? for update', [
          plain.region,
        ]);
        responses.push(post(client, plain.region, { regionPickupRuleLimitDay: 5 }));
        await lockWaiters(sql, 1);
        responses.push(post(client, plain.region, { regionPickupRuleLimit: 2 }));
        await lockWaiters(sql, 2);
      });
      const [first, second] = await Promise.all(responses);
      expect(first!.statusCode).toBe(200);
      expect(second!.statusCode).toBe(400);
      expect(second!.json()).toMatchObject({
        code: 'PICKUP_RULE_LIMIT_DAY_ABOVE_LIMIT',
        detail: 'The pickups per day (5) may not exceed the pickups per timespan (2).',
      });
      expect(await stored(sql, plain.region)).toMatchObject({
        region_pickup_rule_limit: 5,
        region_pickup_rule_limit_day: 5,
      });
    });

    it('never names values that keep the rule in a refusal, however a first write races it', async ({
      as,
      sql,
      factory,
    }) => {
      const ambassador = await factory.user({ role: 3 });
      const regions: number[] = [];
      for (let i = 0; i < 40; i += 1) {
        const region = await factory.region({ name: `Wettlaufstadt ${i}` });
        await factory.addAdmin(region, ambassador);
        regions.push(region);
      }
      const client = await as(ambassador);
      // Per region, the first options row (a limit of 5) and a per-day value of 3 at once:
      // whichever comes first, the per-day value is refused only while no limit is stored.
      const answers = await Promise.all(
        regions.flatMap((region) => [
          post(client, region, { regionPickupRuleLimit: 5 }),
          post(client, region, { regionPickupRuleLimitDay: 3 }),
        ]),
      );
      for (const [i, region] of regions.entries()) {
        const [limit, perDay] = [answers[2 * i]!, answers[2 * i + 1]!];
        expect(limit.statusCode).toBe(200);
        const row = await stored(sql, region);
        if (perDay.statusCode === 200) {
          expect(row).toMatchObject({
            region_pickup_rule_limit: 5,
            region_pickup_rule_limit_day: 3,
          });
        } else {
          expect(perDay.statusCode).toBe(400);
          expect(perDay.json().detail).toBe(
            'The pickups per day (3) may not exceed the pickups per timespan (0).',
          );
          expect(row).toMatchObject({
            region_pickup_rule_limit: 5,
            region_pickup_rule_limit_day: 0,
          });
        }
      }
    });

    it('stores nothing, not even a default row, when the request is refused', async ({
      as,
      sql,
      factory,
    }) => {
      const region = await factory.region({ name: 'Neustadt' });
      const ambassador = await factory.user({ role: 3 });
      await factory.addAdmin(region, ambassador);
      const response = await post(await as(ambassador), region, {
        regionPickupRuleLimitDay: 1,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'PICKUP_RULE_LIMIT_DAY_ABOVE_LIMIT' });
      expect(await stored(sql, region)).toBeUndefined();
    });

    it.for<[string, object]>([
      ['an empty body', {}],
      ['a body of unknown keys only', { colour: 'green' }],
    ])('refuses %s: it names no option', async ([_what, payload], { as }) => {
      const response = await post(await as(plain.ambassador), plain.region, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'NO_OPTIONS_GIVEN' });
    });
  });

  describe('GET /api/region/{regionId}/options/permissions (read beside the options by the platform page)', () => {
    const permissions = (client: ApiClient, regionId: number | string) =>
      client.get(`/api/region/${regionId}/options/permissions`);

    it('tells dana she sets both groups of Musterstadt and lists its stores under the rule', async ({
      as,
      sql,
    }) => {
      const response = await permissions(await as(ids.users.dana), MUSTERSTADT);
      expect(response.statusCode).toBe(200);
      expect([...Value.Errors(RegionOptionPermissionsSchema, response.json())]).toEqual([]);
      expect(response.json()).toMatchObject({ regionPickupRuleActiveStoreList: [] });
      // alice's store in Musterstadt follows the region's pickup rule from now on.
      await sql('update stores set region_pickup_rule_active = true where id = ?', [ids.storeId]);
      const ruled = await sql<{ name: string }[]>('select name from stores where id = ?', [
        ids.storeId,
      ]);
      const again = await permissions(await as(ids.users.dana), MUSTERSTADT);
      expect(again.json()).toEqual({
        maySetRegionOptionsReportButtons: true,
        maySetRegionOptionsRegionPickupRule: true,
        regionPickupRuleActiveStoreList: [{ storeId: ids.storeId, storeName: ruled[0]!.name }],
      });
    });

    it('answers each delegate for their own group, and a foodsaver for neither', async ({ as }) => {
      const report = await permissions(await as(delegated.reportAdmin), delegated.region);
      expect(report.json()).toMatchObject({
        maySetRegionOptionsReportButtons: true,
        maySetRegionOptionsRegionPickupRule: false,
      });
      const stores = await permissions(await as(delegated.storesAdmin), delegated.region);
      expect(stores.json()).toMatchObject({
        maySetRegionOptionsReportButtons: false,
        maySetRegionOptionsRegionPickupRule: true,
      });
      const nobody = await permissions(await as(roleUsers[1]!), delegated.region);
      expect(nobody.statusCode).toBe(200);
      expect(nobody.json()).toEqual({
        maySetRegionOptionsReportButtons: false,
        maySetRegionOptionsRegionPickupRule: false,
        regionPickupRuleActiveStoreList: [],
      });
    });

    it('answers 401 without a session and 404 for an unknown region', async ({ as, anonymous }) => {
      expect((await permissions(anonymous, MUSTERSTADT)).statusCode).toBe(401);
      const orga = await as(ids.users.orga);
      expect((await permissions(orga, 999999)).statusCode).toBe(404);
    });
  });

  it('answers 401 without a session', async ({ anonymous }) => {
    expect((await post(anonymous, MUSTERSTADT, REPORT)).statusCode).toBe(401);
    expect((await get(anonymous, MUSTERSTADT)).statusCode).toBe(401);
  });

  it('refuses a change without the CSRF token', async ({ as, sql }) => {
    const before = await stored(sql, MUSTERSTADT);
    const response = await post((await as('dana')).withoutCsrf(), MUSTERSTADT, REPORT);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect(await stored(sql, MUSTERSTADT)).toEqual(before);
  });

  it('reads a region id with a leading zero as digits (pattern \\d+)', async ({ as }) => {
    const response = await get(await as(ids.users.dana), '03');
    expect(response.statusCode).toBe(200);
  });

  it.for<[string, string]>([
    ['an unknown region', '999999'],
    ['region 0', '0'],
    ['letters', 'abc'],
    ['a decimal', '3.0'],
    ['an exponent', '3e0'],
    ['a negative id', '-3'],
    ['a leading space', '%203'],
    ['an id beyond 32 bits', '4294967296'],
  ])('answers 404 for %s', async ([_what, regionId], { as }) => {
    const dana = await as(ids.users.dana);
    const response = await post(dana, regionId, REPORT);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get(dana, regionId)).statusCode).toBe(404);
  });
});
