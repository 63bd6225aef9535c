import { DEMO_PASSWORD, DemoUserEmail, type DemoUserName } from '@foodshare/domain';
import * as schemas from '@foodshare/schemas';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithOwnDatabase, type StartedProcess } from './start-process.ts';
import { WebClient, type ClientResponse } from './web-client.ts';

/**
 * The platform's web client (client/src/api/*.js of SaiCode-DEV/foodsharing) against the real
 * `pnpm start`, over HTTP, for every row of docs/spec.md §4.1: each call is sent as the client's function
 * sends it (see web-client.ts for base.js), answered 200 in the shape the client reads, and
 * where it changes data, a read shows the change. The client's source changed its paths over
 * the years (report.js once read `/report/user/{id}`, regions.js later PATCHed
 * `/regions/{id}/options`); the paths here are the ones of the version docs/spec.md §4.1 describes, and
 * the function named in each test is the one that sends that call.
 */

/** Ids `pnpm start` gives the demo data on an empty database (docs/rest-api.md §2). */
const DEMO = {
  storeId: 1,
  chainId: 1,
  conversationId: 1,
  musterstadt: 3,
  aliceWorkGroup: 5,
  /** In a Musterstadt thread: a hidden post (6) and alice's visible last one (7). */
  hiddenPostId: 6,
  visiblePostId: 7,
} as const;

/** The answer fits the schema the API declares for it (docs/spec.md §2's field lists). */
function expectShape(response: ClientResponse, schema: TSchema): void {
  expect(response.status).toBe(200);
  expect([...Value.Errors(schema, response.json)]).toEqual([]);
}

describe('the web client against pnpm start', () => {
  let started: StartedProcess;
  /** One browser tab per demo user, logged in as the client's login form does it. */
  const tabs = {} as Record<DemoUserName, WebClient>;
  const userIds = {} as Record<DemoUserName, number>;

  beforeAll(async () => {
    started = await startWithOwnDatabase('web_client');
    for (const name of Object.keys(DemoUserEmail) as DemoUserName[]) {
      const tab = new WebClient(started.origin);
      // user.js login(email, password, code, rememberMe): `code` is undefined, so left out.
      const login = await tab.post('/login', {
        email: DemoUserEmail[name],
        password: DEMO_PASSWORD,
        code: undefined,
        rememberMe: false,
      });
      expect(login.status).toBe(200);
      tabs[name] = tab;
      userIds[name] = ((await tab.get('/users/current')).json as { id: number }).id;
    }
  }, 120_000);

  afterAll(() => started?.stop());

  it('client/src/api/user.js login leaves a CSRF token that base.js finds in document.cookie', () => {
    for (const tab of Object.values(tabs)) {
      expect(tab.csrfToken()).toMatch(/^[0-9a-f]{32}$/);
      // The session cookie is HttpOnly, out of the scripts' reach.
      expect(tab.documentCookie).toMatch(/^CSRF_TOKEN=[0-9a-f]{32}$/);
    }
  });

  it('client/src/api/forum.js hidePost (row 1)', async () => {
    const path = `/forum/post/${DEMO.visiblePostId}/hide`;
    const hidden = await tabs.dana.patch(path, { reason: 'Bitte beim Thema bleiben' });
    expectShape(hidden, schemas.ForumPostHideStateSchema);
    // The read of row 1 shows the post hidden, by dana, for the reason given.
    const state = await tabs.dana.get(path);
    expectShape(state, schemas.ForumPostHideStateSchema);
    expect(state.json).toMatchObject({
      isHidden: true,
      hide: { reason: 'Bitte beim Thema bleiben', moderator: { id: userIds.dana } },
    });
  });

  it('client/src/api/forum.js restorePost (row 1)', async () => {
    const path = `/forum/post/${DEMO.hiddenPostId}/hide`;
    expect((await tabs.alice.get(path)).json).toMatchObject({ isHidden: true });
    const restored = await tabs.dana.remove(path);
    expectShape(restored, schemas.ForumPostHideStateSchema);
    expect((await tabs.alice.get(path)).json).toMatchObject({ isHidden: false, hide: null });
  });

  it('client/src/api/conversations.js sendMessage (row 2)', async () => {
    const path = `/conversations/${DEMO.conversationId}/messages`;
    const sent = await tabs.alice.post(path, { body: 'Wer holt am Freitag ab?' });
    expectShape(sent, schemas.MessageSchema);
    expect(sent.json).toMatchObject({ body: 'Wer holt am Freitag ab?', authorId: userIds.alice });
    // getMessages, as the other members' tabs load them.
    const messages = await tabs.carla.get(path);
    expectShape(messages, schemas.ConversationMessageListSchema);
    expect(messages.json).toContainEqual(
      expect.objectContaining({ id: (sent.json as { id: number }).id }),
    );
  });

  it('client/src/api/report.js getReportsByUser (row 3)', async () => {
    const reports = await tabs.orga.get(`/users/${userIds.bob}/reports`);
    expectShape(reports, schemas.ReportListSchema);
    expect(reports.json).toHaveLength(2);
    // The report list shows who reported whom, with their mail addresses (orga only).
    expect(reports.json).toContainEqual(
      expect.objectContaining({
        reporter: expect.objectContaining({ id: userIds.alice, mail: DemoUserEmail.alice }),
        reported: expect.objectContaining({ id: userIds.bob, mail: DemoUserEmail.bob }),
        status: 'reports.statuses.in_progress',
      }),
    );
  });

  it('client/src/api/applications.js declineApplication (row 4)', async () => {
    const path = `/groups/${DEMO.aliceWorkGroup}/applications`;
    const applicants = async () =>
      ((await tabs.alice.get(path)).json as { user: { id: number } }[]).map((a) => a.user.id);
    expect(await applicants()).toContain(userIds.carla);
    const declined = await tabs.alice.remove(`${path}/${userIds.carla}`);
    expect(declined.status).toBe(200);
    expect(await applicants()).not.toContain(userIds.carla);
  });

  it('client/src/api/quiz.js confirmQuiz (row 5)', async () => {
    // post() without a body: the JSON content type and no body at all.
    const confirmed = await tabs.carla.post('/users/current/quiz-sessions/1/confirmation');
    expectShape(confirmed, schemas.QuizConfirmationSchema);
    expect((await tabs.carla.get('/users/current')).json).toMatchObject({ role: 1 });
  });

  it('client/src/api/search.js getSearchIndex (row 6)', async () => {
    const index = await tabs.alice.get('/search/index');
    expectShape(index, schemas.SearchIndexSchema);
    // The client's local search reads `name` and `searchString` of every entry.
    for (const entries of Object.values(index.json as Record<string, object[]>)) {
      for (const entry of entries) {
        expect(entry).toEqual(
          expect.objectContaining({ name: expect.any(String), searchString: expect.any(String) }),
        );
      }
    }
    expect(index.json).toMatchObject({ stores: [expect.objectContaining({ id: DEMO.storeId })] });
  });

  it("client/src/api/search.js getSearchIndex (row 6): bob's holds no one else's mail address or phone number", async () => {
    const index = await tabs.bob.get('/search/index');
    expectShape(index, schemas.SearchIndexSchema);
    expect(strangersContactsIn(index.json as schemas.SearchIndex, DemoUserEmail.bob)).toEqual([]);
  });

  it('client/src/api/verification.js createPassportAsUser (row 7)', async () => {
    const generations = async () =>
      ((await tabs.alice.get('/user/current/passport/generations')).json as unknown[]).length;
    const before = await generations();
    const passport = await tabs.alice.post('/user/current/passport', {});
    expect(passport.status).toBe(200);
    expect(passport.contentType).toBe('application/pdf');
    expect(passport.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await generations()).toBe(before + 1);
  });

  it('client/src/api/stores.js getStoreLog (row 8)', async () => {
    // The days of the date range, from the first midnight to the midnight after the last day.
    const from = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
    const to = new Date();
    from.setHours(0, 0, 0, 0);
    to.setHours(24, 0, 0, 0);
    const types = Array.from({ length: 20 }, (_, index) => index + 1).join(',');
    const path = `/stores/${DEMO.storeId}/log/${from.toISOString()}/${to.toISOString()}/${types}`;
    const log = await tabs.alice.get(`${path}?offset=0`);
    expectShape(log, schemas.StoreLogSchema);
    const times = (log.json as { performedAt: string }[]).map((e) => Date.parse(e.performedAt));
    expect(times.length).toBeGreaterThan(0);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('client/src/api/chains.js: the chain read of the edit form (row 9)', async () => {
    // kim is the chain's key account manager, so the details are hers to see.
    const chain = await tabs.kim.get(`/chains/${DEMO.chainId}`);
    expectShape(chain, schemas.StoreChainReadSchema);
    expect(chain.json).toMatchObject({
      chain: { id: DEMO.chainId, regionId: expect.any(Number), notes: expect.any(String) },
      storeCount: expect.any(Number),
    });
  });

  it('client/src/api/conversations.js setReadStatus (row 10)', async () => {
    const path = `/conversations/${DEMO.conversationId}`;
    const hasUnread = async () =>
      ((await tabs.alice.get(path)).json as schemas.Conversation).hasUnread;
    // post() without a body, the read flag in the query.
    expectShape(
      await tabs.alice.post(`${path}/readStatus?read=0`),
      schemas.ConversationReadStateSchema,
    );
    expect(await hasUnread()).toBe(true);
    expectShape(
      await tabs.alice.post(`${path}/readStatus?read=1`),
      schemas.ConversationReadStateSchema,
    );
    expect(await hasUnread()).toBe(false);
  });

  it('client/src/api/chains.js editChain (row 11)', async () => {
    const path = `/chains/${DEMO.chainId}`;
    // The form sends the chain as it read it, changed, with the KAMs it shows (kim may not
    // change those, so they are ignored) and keys the update does not know (ignored too).
    const { chain } = (await tabs.kim.get(path)).json as { chain: Record<string, unknown> };
    const edited = await tabs.kim.patch(path, { ...chain, notes: 'Abholung ab 20 Uhr', kams: [] });
    expectShape(edited, schemas.StoreChainReadSchema);
    expect((await tabs.kim.get(path)).json).toMatchObject({
      chain: { notes: 'Abholung ab 20 Uhr' },
    });
    expect((await tabs.kim.get(`${path}/kams`)).json).toContainEqual(
      expect.objectContaining({ id: userIds.kim }),
    );
  });

  it('client/src/api/resources.js getOwnResources (row 12)', async () => {
    const resources = await tabs.alice.get('/resources/own');
    expectShape(resources, schemas.OwnResourcesSchema);
    expect(resources.json).toContainEqual(
      expect.objectContaining({ user: expect.objectContaining({ id: userIds.alice }) }),
    );
  });

  it('client/src/api/banana.js deleteBanana (row 13)', async () => {
    const path = `/users/${userIds.alice}/bananas`;
    const senders = async () =>
      ((await tabs.alice.get(path)).json as { user: { id: number } }[]).map((b) => b.user.id);
    expect(await senders()).toContain(userIds.kim);
    const removed = await tabs.alice.remove(`${path}/${userIds.kim}`);
    expect(removed.status).toBe(200);
    expect(await senders()).not.toContain(userIds.kim);
  });

  it('client/src/api/quiz.js deleteAnswer (row 14)', async () => {
    const path = '/quiz/1/questions/1/answers';
    const answerIds = async () =>
      ((await tabs.orga.get(path)).json as { id: number }[]).map((answer) => answer.id);
    const [first] = await answerIds();
    const deleted = await tabs.orga.remove(`${path}/${first}`);
    expectShape(deleted, schemas.QuizAnswerSchema);
    expect(await answerIds()).not.toContain(first);
  });

  it('client/src/api/regions.js setRegionOptions (row 15)', async () => {
    // The options page passes every option, one this API does not know among them.
    const page = {
      enableReportButton: true,
      enableMediationButton: false,
      regionPickupRuleActive: true,
      regionPickupRuleTimespan: 7,
      regionPickupRuleLimit: 2,
      regionPickupRuleLimitDay: 1,
      regionPickupRuleInactive: 24,
      selectedReportReasonOptions: 2,
      enableReportReasonOther: false,
      enableAddressChangeNotification: true,
    };
    const saved = await tabs.dana.post(`/region/${DEMO.musterstadt}/options`, page);
    expectShape(saved, schemas.RegionOptionsSchema);
    const { enableAddressChangeNotification: _unknown, ...stored } = page;
    expect((await tabs.dana.get(`/region/${DEMO.musterstadt}/options`)).json).toMatchObject(stored);
  });

  it('client/src/api/regions.js getRegionOptions, getRegionOptionPermissions: the options page saved unchanged (row 15)', async () => {
    const path = `/region/${DEMO.musterstadt}/options`;
    // On mount the page copies the options into its fields and asks what it may change.
    const options = await tabs.dana.get(path);
    expectShape(options, schemas.RegionOptionsReadSchema);
    const permissions = await tabs.dana.get(`${path}/permissions`);
    expectShape(permissions, schemas.RegionOptionPermissionsSchema);
    expect(permissions.json).toMatchObject({
      maySetRegionOptionsReportButtons: true,
      maySetRegionOptionsRegionPickupRule: true,
    });
    const page = { isAddressChangeNotificationEnabled: false, ...(options.json as PageFields) };
    // Save: setRegionOptions(regionId, …the page's fields in the order of its parameters).
    const saved = await tabs.dana.post(path, {
      enableReportButton: page.isReportButtonEnabled,
      enableMediationButton: page.isMediationButtonEnabled,
      regionPickupRuleActive: page.regionPickupRuleActive,
      regionPickupRuleTimespan: page.regionPickupRuleTimespanDays,
      regionPickupRuleLimit: page.regionPickupRuleLimitNumber,
      regionPickupRuleLimitDay: page.regionPickupRuleLimitDayNumber,
      regionPickupRuleInactive: page.regionPickupRuleInactiveHours,
      selectedReportReasonOptions: page.selectedReportReasonOptions,
      enableReportReasonOther: page.isReportReasonOtherEnabled,
      enableAddressChangeNotification: page.isAddressChangeNotificationEnabled,
    });
    expect(saved.status).toBe(200);
    expect((await tabs.dana.get(path)).json).toEqual(options.json);
  });

  it('client/src/api/regions.js getRegionData (row 16)', async () => {
    const region = await tabs.orga.get(`/regions/${DEMO.musterstadt}`);
    expectShape(region, schemas.RegionSchema);
    expect(region.json).toMatchObject({ id: DEMO.musterstadt, name: 'Musterstadt' });
  });

  it('client/src/api/banana.js sendBanana (row 17)', async () => {
    const message =
      'Danke für jede frühe Abholung in diesem Winter, für die geschleppten Kisten und die gute Laune, die du immer mitbringst!';
    const given = await tabs.dana.post(`/users/${userIds.bob}/bananas`, { message });
    expectShape(given, schemas.BananaSchema);
    expect(given.json).toMatchObject({ message, user: { id: userIds.dana } });
    expect((await tabs.bob.get(`/users/${userIds.bob}/bananas`)).json).toContainEqual(
      expect.objectContaining({ message }),
    );
  });

  it('client/src/api/stores.js listStoreTeamMembershipRequests (row 18)', async () => {
    const requests = await tabs.alice.get(`/stores/${DEMO.storeId}/requests`);
    expectShape(requests, schemas.StoreTeamRequestListSchema);
    expect(requests.json).toMatchObject([
      { user: { id: userIds.bob, name: 'Bob Beispiel' }, firstName: 'Bob' },
    ]);
  });
});

/** The fields of the platform's options page that its read fills (Object.assign). */
type PageFields = Pick<
  schemas.RegionOptionsRead,
  | 'isReportButtonEnabled'
  | 'isMediationButtonEnabled'
  | 'regionPickupRuleActive'
  | 'regionPickupRuleTimespanDays'
  | 'regionPickupRuleLimitNumber'
  | 'regionPickupRuleLimitDayNumber'
  | 'regionPickupRuleInactiveHours'
  | 'selectedReportReasonOptions'
  | 'isReportReasonOtherEnabled'
>;

/**
 * Every mail address and phone number among the strings of a search index that is not `own`.
 * The region and working-group `email` entries are the platform's mailboxes of those units
 * (docs/domain.md §3.6), not a person's address. Timestamps and upload ids are digits too, so they
 * are taken out before looking for phone numbers.
 */
function strangersContactsIn(index: schemas.SearchIndex, own: string): string[] {
  const unitMailboxes = [...index.regions, ...index.workingGroups].map((unit) => unit.email);
  const allowed = new Set([own, ...unitMailboxes]);
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const mails = value.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [];
      found.push(...mails.filter((mail) => !allowed.has(mail)));
      const rest = value
        .replace(/\d{4}-\d{2}-\d{2}([T ][\d:.]+)?(Z|[+-]\d{2}:?\d{2})?/g, ' ')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ' ');
      const phones = rest.match(/\+?\d[\d ()/.-]{5,}\d/g) ?? [];
      found.push(...phones.filter((phone) => phone.replace(/\D/g, '').length >= 7));
    } else if (value && typeof value === 'object') {
      Object.values(value).forEach(visit);
    }
  };
  visit(index);
  return found;
}
