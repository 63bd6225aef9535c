import { DEMO_PASSWORD, Role, WellKnownUnit } from '@foodshare/domain';
import type { SignedInClient } from '@foodshare/server-kit/test-support';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { ApiTester } from '../compat/api-tester.ts';
import {
  BODY_ENCODINGS,
  type BodyEncoding,
  type PlatformCall,
  platformRequest,
} from '../compat/platform-client.ts';
import {
  describe,
  expect,
  ids,
  type SignIn,
  test as apiTest,
  type UserClient,
} from '../test-support/fixtures.ts';
import { platformWireFormat } from './platform-wire-format.ts';

/** The api fixtures, the platform's row helpers on the app's ORM, and its clients' requests. */
const it = apiTest
  .extend('community', { scope: 'file' }, ({ app }) => ApiTester.over(app, app.orm))
  .extend(
    'call',
    { scope: 'file' },
    ({ app }) =>
      (client: SignedInClient | null, request: PlatformCall) =>
        platformRequest(app, client, request),
  );

type Call = (
  client: SignedInClient | null,
  request: PlatformCall,
) => ReturnType<typeof platformRequest>;
const JSON_UTF8 = { 'content-type': 'application/json; charset=utf-8' };
const BANANA =
  'Danke für die verlässliche Hilfe bei jeder einzelnen Abholung, auch bei Regen und Schnee! '
    .repeat(2)
    .slice(0, 120);

type Body = NonNullable<PlatformCall['body']>;

/** One route that takes a body, freshly set up for each call (hiding or giving works once). */
interface BodyRoute {
  name: string;
  setup(fixtures: { as: SignIn; community: ApiTester }): Promise<{
    method: 'POST' | 'PATCH';
    url: string;
    /** May act. */
    allowed: SignedInClient;
    /** May not act: answered `refusedStatus` whatever the body. */
    refused: SignedInClient;
    refusedStatus: number;
    /** A path naming nothing, answered one of `statuses` before the body is looked at. */
    unknown: { url: string; statuses: number[]; client: SignedInClient };
    valid: Body;
    /** A key the route knows, with a value it refuses. */
    invalid: Body;
  }>;
}

describe('the wire conventions of the platform’s own clients', () => {
  const routes: BodyRoute[] = [
    {
      name: 'PATCH /api/forum/post/{postId}/hide',
      async setup({ as, community }) {
        const postId = await community.forumPost(ids.forumThreadId, ids.users.carla);
        return {
          method: 'PATCH',
          url: `/api/forum/post/${postId}/hide`,
          allowed: await as('dana'),
          refused: await as('bob'),
          refusedStatus: 403,
          unknown: {
            url: '/api/forum/post/999999/hide',
            statuses: [404],
            client: await as('dana'),
          },
          valid: { reason: 'Werbung' },
          invalid: { reason: '' },
        };
      },
    },
    {
      name: 'POST /api/conversations/{conversationId}/messages',
      async setup({ as, community }) {
        const [a, b] = [await community.user(Role.Foodsaver), await community.user(Role.Foodsaver)];
        const conversation = await community.conversation([a, b]);
        const outsider = await as(await community.user(Role.Foodsaver));
        return {
          method: 'POST',
          url: `/api/conversations/${conversation}/messages`,
          allowed: await as(a),
          refused: outsider,
          refusedStatus: 403,
          // Whether a conversation exists is the conversation rules' business (the platform
          // answers 403); here it only matters that the body is not judged first.
          unknown: {
            url: '/api/conversations/999999/messages',
            statuses: [403, 404],
            client: outsider,
          },
          valid: { body: 'Hallo zusammen' },
          invalid: { body: '   ' },
        };
      },
    },
    {
      name: 'PATCH /api/chains/{chainId}',
      async setup({ as, community }) {
        const chainId = await community.chain();
        return {
          method: 'PATCH',
          url: `/api/chains/${chainId}`,
          allowed: await as('orga'),
          refused: await as('bob'),
          refusedStatus: 403,
          unknown: { url: '/api/chains/999999', statuses: [404], client: await as('orga') },
          valid: { name: `Neue Kette ${chainId}`, allowPress: true, estimatedStoreCount: 12 },
          invalid: { status: 9 },
        };
      },
    },
    {
      name: 'POST /api/region/{regionId}/options',
      async setup({ as, community }) {
        const region = await community.region('Wirestadt');
        const ambassador = await community.user(Role.Ambassador);
        await community.addAdmin(region, ambassador);
        return {
          method: 'POST',
          url: `/api/region/${region}/options`,
          allowed: await as(ambassador),
          refused: await as('bob'),
          refusedStatus: 403,
          unknown: { url: '/api/region/999999/options', statuses: [404], client: await as('orga') },
          valid: { enableReportButton: true, regionPickupRuleTimespan: 7 },
          invalid: { regionPickupRuleTimespan: 99 },
        };
      },
    },
    {
      name: 'POST /api/users/{recipientId}/bananas',
      async setup({ as, community }) {
        const recipient = await community.user(Role.Foodsaver);
        const self = await as(recipient);
        return {
          method: 'POST',
          url: `/api/users/${recipient}/bananas`,
          allowed: await as(await community.user(Role.Foodsaver)),
          // Nobody gives themself a banana.
          refused: self,
          refusedStatus: 403,
          unknown: { url: '/api/users/999999/bananas', statuses: [404], client: self },
          valid: { message: BANANA },
          invalid: { message: 'b'.repeat(5001) },
        };
      },
    },
  ];

  describe.each(routes)('$name', (route) => {
    it.for(BODY_ENCODINGS)(
      'answers 200 to a body sent as %s',
      async (encoding, { as, community, call }) => {
        const { method, url, allowed, valid } = await route.setup({ as, community });
        const response = await call(allowed, { method, url, body: valid, encoding });
        expect(response.statusCode, response.body).toBe(200);
      },
    );

    it.for(BODY_ENCODINGS)(
      'ignores keys it does not know, sent as %s',
      async (encoding, { as, community, call }) => {
        const { method, url, allowed, valid } = await route.setup({ as, community });
        const body = { ...valid, modificationDate: '2024-05-17 12:34:56', id: 'x', 'a\u0000b': 1 };
        const response = await call(allowed, { method, url, body, encoding });
        expect(response.statusCode, response.body).toBe(200);
      },
    );

    it.for(BODY_ENCODINGS)(
      'still refuses a known key’s bad value, sent as %s',
      async (encoding, { as, community, call }) => {
        const { method, url, allowed, invalid } = await route.setup({ as, community });
        const response = await call(allowed, { method, url, body: invalid, encoding });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
        const paths = response.json<{ errors: { path: string }[] }>().errors.map((e) => e.path);
        expect(paths.some((path) => path.startsWith(`/body/${Object.keys(invalid)[0]}`))).toBe(
          true,
        );
      },
    );

    it('answers an empty JSON body from a caller who may act with 400: it is no body', async ({
      as,
      community,
      call,
    }) => {
      const { method, url, allowed } = await route.setup({ as, community });
      const response = await call(allowed, { method, url, rawPayload: '', headers: JSON_UTF8 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('answers a body that is not JSON from a caller who may act with 400', async ({
      as,
      community,
      call,
    }) => {
      const { method, url, allowed } = await route.setup({ as, community });
      const response = await call(allowed, {
        method,
        url,
        rawPayload: '{"x": ',
        headers: JSON_UTF8,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'MALFORMED_BODY' });
    });

    describe('decides whether the caller may act before it judges the body', () => {
      const bodies: [string, Partial<PlatformCall>][] = [
        ['a known key with a bad value', {}],
        ['no body', { rawPayload: '', headers: JSON_UTF8 }],
        ['a body that is not JSON', { rawPayload: '{"x": ', headers: JSON_UTF8 }],
        ['a form', { body: { x: '1' }, encoding: 'form' }],
      ];

      it.for(bodies)(
        '401 without a session, with %s',
        async ([_what, sent], { as, community, call }) => {
          const { method, url, invalid } = await route.setup({ as, community });
          const response = await call(null, { method, url, body: invalid, ...sent });
          expect(response.statusCode).toBe(401);
        },
      );

      it.for(bodies)(
        '404 or 403 for a path naming nothing, with %s',
        async ([_what, sent], { as, community, call }) => {
          const { method, unknown, invalid } = await route.setup({ as, community });
          const request = { method, url: unknown.url, body: invalid, ...sent };
          const response = await call(unknown.client, request);
          expect(unknown.statuses).toContain(response.statusCode);
        },
      );

      it.for(bodies)(
        '403 for a caller who may not act, with %s',
        async ([_what, sent], { as, community, call }) => {
          const { method, url, refused, refusedStatus, invalid } = await route.setup({
            as,
            community,
          });
          const response = await call(refused, { method, url, body: invalid, ...sent });
          expect(response.statusCode).toBe(refusedStatus);
        },
      );
    });
  });

  describe('an empty JSON body is no body', () => {
    it('marks a conversation read (the web client’s readStatus call)', async ({
      as,
      community,
      call,
    }) => {
      const member = await community.user(Role.Foodsaver);
      const conversation = await community.conversation([member]);
      const response = await call(await as(member), {
        method: 'POST',
        url: `/api/conversations/${conversation}/readStatus?read=1`,
        rawPayload: '',
        headers: JSON_UTF8,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ conversationId: conversation, hasUnread: false });
    });

    it('confirms a passed quiz (the web client’s confirmation call)', async ({
      as,
      community,
      call,
    }) => {
      const user = await community.user(Role.Foodsharer);
      await community.sql(
        `insert into quiz_sessions (user_id, quiz_id, status, started_at)
         values (?, 1, 1, now() - interval '1 hour')`,
        [user],
      );
      const response = await call(await as(user), {
        method: 'POST',
        url: '/api/users/current/quiz-sessions/1/confirmation',
        rawPayload: '',
        headers: JSON_UTF8,
      });
      expect(response.statusCode, response.body).toBe(200);
      const rows = await community.sql<{ role: number }[]>('select role from users where id = ?', [
        user,
      ]);
      expect(rows[0]!.role).toBe(Role.Foodsaver);
    });

    it('logs out, and a white-space body is no body either', async ({ as, call }) => {
      const response = await call(await as(ids.users.bob), {
        method: 'POST',
        url: '/api/logout',
        rawPayload: ' \n',
        headers: JSON_UTF8,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({});
    });

    it('removes a banana with the `{}` body the web client’s remove() sends', async ({
      as,
      community,
      call,
    }) => {
      const [recipient, sender] = [
        await community.user(Role.Foodsaver),
        await community.user(Role.Foodsaver),
      ];
      await community.sql(
        'insert into bananas (recipient_id, sender_id, message) values (?, ?, ?)',
        [recipient, sender, BANANA],
      );
      const response = await call(await as(recipient), {
        method: 'DELETE',
        url: `/api/users/${recipient}/bananas/${sender}`,
        rawPayload: '{}',
        headers: JSON_UTF8,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({});
    });
  });

  describe('forms, read as PHP reads them', () => {
    const kamsOf = async (community: ApiTester, chainId: number) =>
      (
        await community.sql<{ user_id: number }[]>(
          'select user_id from store_chain_kams where chain_id = ? order by user_id',
          [chainId],
        )
      ).map((row) => row.user_id);

    async function twoGroupMembers(community: ApiTester): Promise<[number, number]> {
      const members: number[] = [];
      for (let i = 0; i < 2; i += 1) {
        const member = await community.user(Role.Foodsaver);
        await community.addMember(WellKnownUnit.StoreChainGroup, member);
        members.push(member);
      }
      return [members[0]!, members[1]!];
    }

    const patchChain = (call: Call, orga: UserClient, chainId: number, payload: string) =>
      call(orga, {
        method: 'PATCH',
        url: `/api/chains/${chainId}`,
        rawPayload: payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

    it.for<[string, (a: number, b: number) => string]>([
      ['indexed', (a: number, b: number) => `kams%5B0%5D=${a}&kams%5B1%5D=${b}`],
      ['appended', (a: number, b: number) => `kams[]=${a}&kams[]=${b}`],
    ])('takes an array of integers written %s', async ([_how, form], { as, community, call }) => {
      const chainId = await community.chain();
      const [a, b] = await twoGroupMembers(community);
      const response = await patchChain(call, await as('orga'), chainId, form(a, b));
      expect(response.statusCode, response.body).toBe(200);
      expect(await kamsOf(community, chainId)).toEqual([a, b].sort((x, y) => x - y));
    });

    it.for<[string, boolean]>([
      ['1', true],
      ['true', true],
      ['0', false],
      ['false', false],
    ])(
      'reads the boolean %s as %s and numbers from their digits',
      async ([text, value], { as, community, call }) => {
        const chainId = await community.chain();
        await community.sql('update store_chains set allow_press = ? where id = ?', [
          !value,
          chainId,
        ]);
        const response = await patchChain(
          call,
          await as('orga'),
          chainId,
          `allowPress=${text}&status=3&estimatedStoreCount=0042`,
        );
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().chain).toMatchObject({
          allowPress: value,
          status: 3,
          estimatedStoreCount: 42,
        });
      },
    );

    it.for<[string, string, string]>([
      ['a boolean written yes', 'allowPress=yes', '/body/allowPress'],
      ['a decimal for an integer', 'status=1.5', '/body/status'],
      ['letters for an integer', 'estimatedStoreCount=viele', '/body/estimatedStoreCount'],
      ['a single value for an array', 'kams=5', '/body/kams'],
    ])(
      'refuses %s with 400, naming the key',
      async ([_what, form, path], { as, community, call }) => {
        const chainId = await community.chain();
        const response = await patchChain(call, await as('orga'), chainId, form);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(JSON.stringify(response.json().errors)).toContain(path);
      },
    );

    it('reads region options from 0/1 and numeric strings', async ({ as, community, call }) => {
      const region = await community.region('Formstadt');
      const response = await call(await as('orga'), {
        method: 'POST',
        url: `/api/region/${region}/options`,
        rawPayload:
          'enableReportButton=1&enableMediationButton=0&regionPickupRuleActive=true' +
          '&regionPickupRuleTimespan=7&regionPickupRuleLimit=4&regionPickupRuleLimitDay=2',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        enableReportButton: true,
        enableMediationButton: false,
        regionPickupRuleActive: true,
        regionPickupRuleTimespan: 7,
        regionPickupRuleLimit: 4,
        regionPickupRuleLimitDay: 2,
      });
    });

    it.for<[string, Record<string, string>]>([
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['an Origin of another site', { origin: 'https://evil.example' }],
    ])(
      'refuses a form login a browser marks as from another site (%s)',
      async ([_what, headers], { call }) => {
        const response = await call(null, {
          method: 'POST',
          url: '/api/login',
          body: { email: 'bob@example.org', password: DEMO_PASSWORD },
          encoding: 'form',
          headers,
        });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
        expect(response.headers['set-cookie']).toBeUndefined();
      },
    );

    it('takes a form login from its own origin', async ({ app, call }) => {
      const response = await call(null, {
        method: 'POST',
        url: '/api/login',
        body: { email: 'bob@example.org', password: DEMO_PASSWORD },
        encoding: 'form',
        headers: { origin: new URL(app.config.BASE_URL).origin, 'sec-fetch-site': 'same-origin' },
      });
      expect(response.statusCode, response.body).toBe(200);
    });

    it('logs in with a form', async ({ call }) => {
      const response = await call(null, {
        method: 'POST',
        url: '/api/login',
        body: { email: 'bob@example.org', password: DEMO_PASSWORD, rememberMe: false },
        encoding: 'form',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: ids.users.bob });
    });
  });

  describe('a JSON body is read as it is, never coerced (but where a route says so)', () => {
    it.for<
      [
        string,
        (community: ApiTester) => Promise<{ url: string; method: 'PATCH' | 'POST'; body: Body }>,
      ]
    >([
      [
        'a number for a chain’s boolean',
        async (community) => ({
          method: 'PATCH',
          url: `/api/chains/${await community.chain()}`,
          body: { allowPress: 1 },
        }),
      ],
      [
        'a numeric string for a chain’s integer',
        async (community) => ({
          method: 'PATCH',
          url: `/api/chains/${await community.chain()}`,
          body: { estimatedStoreCount: '7' },
        }),
      ],
      [
        // The one route that reads JSON text as numbers (docs/domain.md §3.15) reads only
        // whole numbers.
        'a fraction as text for a region option’s integer',
        async (community) => ({
          method: 'POST',
          url: `/api/region/${await community.region('Jsonstadt')}/options`,
          body: { regionPickupRuleTimespan: '7.5' },
        }),
      ],
    ])('refuses %s', async ([_what, make], { as, community, call }) => {
      const { method, url, body } = await make(community);
      const response = await call(await as('orga'), { method, url, body, encoding: 'json' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });

  it('keeps the domain’s 422 after the body’s shape: a banana under 100 characters', async ({
    as,
    community,
    call,
  }) => {
    const recipient = await community.user(Role.Foodsaver);
    const sender = await as(await community.user(Role.Foodsaver));
    const url = `/api/users/${recipient}/bananas`;
    for (const encoding of BODY_ENCODINGS satisfies readonly BodyEncoding[]) {
      const response = await call(sender, {
        method: 'POST',
        url,
        body: { message: 'Danke' },
        encoding,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ code: 'BANANA_MESSAGE_TOO_SHORT' });
    }
    const self = await as(recipient);
    const own = await call(self, { method: 'POST', url, body: { message: 'Danke' } });
    expect(own.statusCode).toBe(403);
  });

  it('answers other content types with 415', async ({ as, call }) => {
    const response = await call(await as('dana'), {
      method: 'PATCH',
      url: `/api/forum/post/${ids.visiblePostId}/hide`,
      rawPayload: 'reason=x',
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
  });

  describe('every success is 200', () => {
    it('in every response schema of every operation the document lists', async ({ call }) => {
      const document = (await call(null, { method: 'GET', url: '/api/openapi.json' })).json<{
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      }>();
      const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
      );
      expect(operations.length).toBeGreaterThan(25);
      for (const { path, method, operation } of operations) {
        const successes = Object.keys(operation.responses).filter((status) =>
          status.startsWith('2'),
        );
        expect(successes, `${method} ${path}`).toEqual(['200']);
      }
    });

    /** Boots a bare app with the platform's wire format and one route declaring `status`. */
    async function bootWith(method: 'GET' | 'POST', status: string): Promise<void> {
      const bare = Fastify().setValidatorCompiler(TypeBoxValidatorCompiler);
      platformWireFormat(bare, 'http://localhost:8080');
      try {
        await bare.register(async (scope) => {
          scope.route({
            method,
            url: '/thing',
            schema: { response: { 200: Type.Object({}), [status]: Type.Object({}) } },
            handler: () => ({}),
          });
        });
        await bare.ready();
      } finally {
        await bare.close();
      }
    }

    it.each([
      ['POST', '201'],
      ['POST', '204'],
      ['POST', '2XX'],
      ['GET', '204'],
      ['GET', '301'],
      ['POST', '304'],
    ] as const)('refuses to boot a %s route that declares %s', async (method, status) => {
      await expect(bootWith(method, status)).rejects.toThrow(/every success answers 200/);
    });

    it('boots a GET that answers 304 to a conditional request', async () => {
      await expect(bootWith('GET', '304')).resolves.toBeUndefined();
    });
  });
});
