import { DemoRegionId } from '@foodshare/domain';
import { type ApiClient, describe, expect, ids, it } from './test-support/fixtures.ts';

const { users } = ids;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Anonymous calls of every row of docs/spec.md §4.1, each with something else wrong too: a path
 * value that names nothing (404 for a caller with a session), a body or query string of the
 * wrong shape (400), or a body that is not even JSON. The session is checked first: always 401.
 */
const anonymousCalls: [row: number, what: string, method: Method, url: string, body?: unknown][] = [
  [1, 'a post id that is no id', 'GET', '/api/forum/post/abc/hide'],
  [1, 'a blank hide reason (PATCH)', 'PATCH', `/api/forum/post/${ids.visiblePostId}/hide`, {}],
  [2, 'a conversation id that is no id', 'POST', '/api/conversations/x/messages', { body: 'Hi' }],
  [2, 'a blank body', 'POST', `/api/conversations/${ids.conversationId}/messages`, { body: '' }],
  [
    2,
    'a NUL in the body',
    'POST',
    `/api/conversations/${ids.conversationId}/messages`,
    { body: '\u0000' },
  ],
  [
    2,
    'a body that is no JSON',
    'POST',
    `/api/conversations/${ids.conversationId}/messages`,
    '{"body":',
  ],
  [3, 'user id 0', 'GET', '/api/users/0/reports'],
  [3, 'a user id beyond 32 bits', 'GET', '/api/users/4294967296/reports'],
  [4, 'ids with leading zeros', 'DELETE', '/api/groups/05/applications/01'],
  [4, 'an unknown group', 'DELETE', `/api/groups/999999/applications/${users.carla}`],
  [5, 'quiz id 0', 'POST', '/api/users/current/quiz-sessions/0/confirmation'],
  [6, 'an unknown query parameter', 'GET', '/api/search/index?everything=1'],
  [7, 'an unexpected body', 'POST', '/api/user/current/passport', { photo: 'x' }],
  [8, 'dates that are no dates', 'GET', `/api/stores/${ids.storeId}/log/yesterday/today/actions/1`],
  [
    8,
    'a negative limit',
    'GET',
    `/api/stores/${ids.storeId}/log/2026-01-01T00:00:00Z/2026-01-02T00:00:00Z/actions/1,2?limit=-1`,
  ],
  [
    8,
    'action ids that are no list',
    'GET',
    `/api/stores/${ids.storeId}/log/2026-01-01T00:00:00Z/2026-01-02T00:00:00Z/actions/1,,2`,
  ],
  [9, 'chain id 0', 'GET', '/api/chains/0'],
  [10, 'read=2', 'POST', `/api/conversations/${ids.conversationId}/readStatus?read=2`],
  [10, 'a conversation id that is no id', 'POST', '/api/conversations/-1/readStatus?read=1'],
  [11, 'an empty patch', 'PATCH', `/api/chains/${ids.chainId}`, {}],
  [11, 'a status out of range', 'PATCH', `/api/chains/${ids.chainId}`, { status: 9 }],
  [11, 'chain id 0', 'PATCH', '/api/chains/0', { name: 'Markt' }],
  [12, 'a limit that is no number', 'GET', '/api/resources/own?limit=many'],
  [13, 'ids that are no ids', 'DELETE', '/api/users/abc/bananas/0'],
  [14, 'ids that are no ids', 'DELETE', '/api/quiz/a/questions/b/answers/c'],
  [15, 'a region id that is no id', 'POST', '/api/region/x/options', { enableReportButton: true }],
  [
    15,
    'an unknown option',
    'POST',
    `/api/region/${DemoRegionId.Musterstadt}/options`,
    { colour: 'red' },
  ],
  [16, 'region id 0', 'GET', '/api/regions/0'],
  [17, 'a message that is no string', 'POST', `/api/users/${users.bob}/bananas`, { message: 5 }],
  [
    17,
    'a recipient id with a leading zero',
    'POST',
    `/api/users/0${users.bob}/bananas`,
    { message: 'x' },
  ],
  [18, 'store id 0', 'GET', '/api/stores/0/requests'],
];

/** A request without a session, or with the raw `cookie` header given. */
function call(client: ApiClient, method: Method, url: string, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = cookie === undefined ? {} : { cookie };
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  return client.request(method, url, {
    headers,
    ...(body === undefined ? {} : { payload: body as string | object }),
  });
}

describe('a session is required before anything else', () => {
  it('covers every row of docs/spec.md §4.1', () => {
    expect(new Set(anonymousCalls.map(([row]) => row))).toEqual(
      new Set(Array.from({ length: 18 }, (_, index) => index + 1)),
    );
  });

  it.for(anonymousCalls)(
    'row %i, anonymous with %s: 401',
    async ([_row, _what, method, url, body], { anonymous }) => {
      const response = await call(anonymous, method, url, body);
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(response.json()).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    },
  );

  it.for(anonymousCalls)(
    'row %i, with an unknown session cookie and %s: 401',
    async ([_row, _what, method, url, body], { anonymous }) => {
      const response = await call(anonymous, method, url, body, 'fs_session=not-a-session');
      expect(response.statusCode).toBe(401);
    },
  );

  it('answers 401 on every documented route but login and logout, whatever the input', async ({
    anonymous,
  }) => {
    const document = (await anonymous.get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      if (path === '/api/login' || path === '/api/logout') continue;
      for (const method of Object.keys(operations)) {
        const url = `${path.replace(/\{[^}]+\}/g, 'x')}?x=%00`;
        const upper = method.toUpperCase() as Method;
        const response = await call(
          anonymous,
          upper,
          url,
          upper === 'GET' ? undefined : { x: '\u0000' },
        );
        expect(response.statusCode, `${upper} ${path}`).toBe(401);
        checked.push(`${upper} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(18);
  });

  it('keeps login, logout, the documentation and the health checks open', async ({ anonymous }) => {
    const login = await call(anonymous, 'POST', '/api/login', { email: 'nobody' });
    expect(login.statusCode).toBe(400);
    expect((await call(anonymous, 'POST', '/api/logout')).statusCode).toBe(200);
    expect((await call(anonymous, 'GET', '/api/openapi.json')).statusCode).toBe(200);
    expect((await call(anonymous, 'GET', '/api/docs/')).statusCode).toBe(200);
    expect((await call(anonymous, 'GET', '/health/live')).statusCode).toBe(200);
    expect((await call(anonymous, 'GET', '/api/no-such-route')).statusCode).toBe(404);
  });
});
