import { Role, WorkGroupFunction } from '@foodshare/domain';
import type { SignedInClient } from '@foodshare/server-kit/test-support';
import type { ApiApp } from '../app.ts';
import type { Sql } from '../test-support/fixtures.ts';
import { describe, expect, it, test } from './fixtures.ts';
import { BODY_ENCODINGS, platformRequest } from './platform-client.ts';

/** The stored options, by their column names. */
interface StoredOptions {
  enable_report_button: boolean;
  enable_mediation_button: boolean;
  selected_report_reason_options: number;
  enable_report_reason_other: boolean;
  region_pickup_rule_active: boolean;
  region_pickup_rule_timespan: number;
  region_pickup_rule_limit: number;
  region_pickup_rule_limit_day: number;
  region_pickup_rule_inactive: number;
}

/** What the Cest's addRegionOption posts. */
const CEST_OPTIONS = {
  enableReportButton: true,
  selectedReportReasonOptions: 1,
  enableReportReasonOther: true,
  enableMediationButton: true,
  regionPickupRuleActive: true,
  regionPickupRuleTimespan: 7,
  regionPickupRuleLimit: 4,
  regionPickupRuleLimitDay: 2,
  regionPickupRuleInactive: 12,
};

/**
 * The platform's own API test of region options (tests/Api/RegionOptionApiCest.php) for row 15,
 * and the call its web client makes (client/src/api/regions.js setRegionOptions, which posts
 * every key of the options page, `enableAddressChangeNotification` included). The Cest's
 * canFetchRegionOptions reads GET /api/region/{regionId}/options under the names of the
 * platform's read (isReportButtonEnabled, regionPickupRuleTimespanDays, …), which that answer
 * carries beside the names the POST takes.
 */
describe('RegionOptionApiCest', () => {
  let region: number;
  let userBot: SignedInClient;

  const stored = async (sql: Sql, regionId: number) =>
    (
      await sql<StoredOptions[]>(
        `select enable_report_button, enable_mediation_button, selected_report_reason_options,
                enable_report_reason_other, region_pickup_rule_active, region_pickup_rule_timespan,
                region_pickup_rule_limit, region_pickup_rule_limit_day, region_pickup_rule_inactive
           from region_options where region_id = ?`,
        [regionId],
      )
    )[0];

  /** _before: options initialised with random values (within the ranges the API keeps). */
  async function seedRandomOptions(sql: Sql, regionId: number): Promise<void> {
    const coin = () => Math.random() < 0.5;
    const between = (low: number, high: number) =>
      low + Math.floor(Math.random() * (high - low + 1));
    const limit = between(1, 14);
    await sql(
      `insert into region_options (region_id, enable_report_button, enable_mediation_button,
                                   region_pickup_rule_active, region_pickup_rule_timespan,
                                   region_pickup_rule_limit, region_pickup_rule_limit_day,
                                   region_pickup_rule_inactive, selected_report_reason_options,
                                   enable_report_reason_other)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        regionId,
        coin(),
        coin(),
        coin(),
        between(1, 31),
        limit,
        between(1, limit),
        [4, 8, 12, 16, 24, 36, 48, 60, 72][between(0, 8)],
        between(1, 2),
        coin(),
      ],
    );
  }

  const postOptions = (
    app: ApiApp,
    client: SignedInClient | null,
    regionId: number,
    body: Record<string, unknown>,
    encoding: (typeof BODY_ENCODINGS)[number],
  ) =>
    platformRequest(app, client, {
      method: 'POST',
      url: `/api/region/${regionId}/options`,
      body: body as Record<string, string | number | boolean>,
      encoding,
    });

  test.beforeEach(async ({ I, as, sql }) => {
    region = await I.region('Optionsstadt');
    const ambassador = await I.user(Role.Ambassador);
    await I.addAdmin(region, ambassador);
    userBot = await as(ambassador);
    await seedRandomOptions(sql, region);
  });

  describe.each(BODY_ENCODINGS)('as %s', (encoding) => {
    it('addRegionOption', async ({ app, sql }) => {
      const response = await postOptions(app, userBot, region, CEST_OPTIONS, encoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('application/json');
      expect(await stored(sql, region)).toEqual({
        enable_report_button: true,
        selected_report_reason_options: 1,
        enable_report_reason_other: true,
        enable_mediation_button: true,
        region_pickup_rule_active: true,
        region_pickup_rule_timespan: 7,
        region_pickup_rule_limit: 4,
        region_pickup_rule_limit_day: 2,
        region_pickup_rule_inactive: 12,
      });
    });
  });

  it('canFetchRegionOptions', async ({ app, sql }) => {
    // _before also sets the forum option at random; here it is the region's own flag.
    const allowHiding = Math.random() < 0.5;
    await sql('update regions set allow_hiding_in_forum = ? where id = ?', [allowHiding, region]);
    const response = await platformRequest(app, userBot, {
      method: 'GET',
      url: `/api/region/${region}/options`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const row = (await stored(sql, region))!;
    expect(response.json()).toMatchObject({
      isReportButtonEnabled: row.enable_report_button,
      isMediationButtonEnabled: row.enable_mediation_button,
      isRegionPickupRuleActive: row.region_pickup_rule_active,
      allowHidingInForum: allowHiding,
      selectedReportReasonOptions: row.selected_report_reason_options,
      isReportReasonOtherEnabled: row.enable_report_reason_other,
      regionPickupRuleTimespanDays: row.region_pickup_rule_timespan,
      regionPickupRuleLimitNumber: row.region_pickup_rule_limit,
      regionPickupRuleLimitDayNumber: row.region_pickup_rule_limit_day,
      regionPickupRuleInactiveHours: row.region_pickup_rule_inactive,
    });
  });

  describe('the web client (client/src/api/regions.js setRegionOptions)', () => {
    const JSON_UTF8 = { 'content-type': 'application/json; charset=utf-8' };
    /** The options page posts every key, one the API does not know among them. */
    const PAGE = {
      ...CEST_OPTIONS,
      enableReportButton: false,
      regionPickupRuleTimespan: 14,
      enableAddressChangeNotification: true,
    };

    const save = (app: ApiApp, client: SignedInClient, regionId: number) =>
      platformRequest(app, client, {
        method: 'POST',
        url: `/api/region/${regionId}/options`,
        body: PAGE,
        headers: JSON_UTF8,
      });

    it('stores every option for the ambassador of a region without delegate groups', async ({
      app,
      sql,
    }) => {
      const response = await save(app, userBot, region);
      expect(response.statusCode).toBe(200);
      expect(await stored(sql, region)).toMatchObject({
        enable_report_button: false,
        region_pickup_rule_timespan: 14,
        region_pickup_rule_limit_day: 2,
      });
    });

    it('stores every option for orga, who holds both duties everywhere', async ({
      app,
      as,
      sql,
      I,
    }) => {
      const response = await save(app, await as(await I.user(Role.Orga)), region);
      expect(response.statusCode).toBe(200);
      expect(await stored(sql, region)).toMatchObject({
        enable_report_button: false,
        region_pickup_rule_timespan: 14,
      });
    });

    it('stores the report options of the report group admin and skips the pickup rule', async ({
      app,
      as,
      sql,
      I,
    }) => {
      const reportGroup = await I.region('Meldegruppe', 7, region, WorkGroupFunction.Report);
      const reportAdmin = await I.user(Role.Foodsaver);
      await I.addAdmin(reportGroup, reportAdmin);
      const before = (await stored(sql, region))!;
      const response = await save(app, await as(reportAdmin), region);
      expect(response.statusCode).toBe(200);
      expect(await stored(sql, region)).toEqual({
        ...before,
        enable_report_button: false,
        enable_mediation_button: true,
        selected_report_reason_options: 1,
        enable_report_reason_other: true,
      });
    });

    it('refuses a foodsaver who holds neither duty and stores nothing', async ({
      app,
      as,
      sql,
      I,
    }) => {
      const before = await stored(sql, region);
      const response = await save(app, await as(await I.user(Role.Foodsaver)), region);
      expect(response.statusCode).toBe(403);
      expect(await stored(sql, region)).toEqual(before);
    });
  });
});
