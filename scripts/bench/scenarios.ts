// Every scenario `pnpm bench` measures: the references, each row of docs/spec.md §4.1, the
// companion reads, one write per write route that can be repeated, and the OAuth endpoints.
import type autocannon from 'autocannon';
import type { Scenario } from './measure.ts';
import type { OAuthInputs, Session } from './sessions.ts';

export interface DemoIds {
  alice: number;
  bob: number;
  carla: number;
  storeId: number;
  conversationId: number;
  chainId: number;
  musterstadt: number;
  workGroup: number;
  forumThreadId: number;
  quizId: number;
  questionId: number;
}

/** What the OAuth scenarios send, on our stack or on the bench peer. */
export interface OAuthContext {
  origin: string;
  oauth: OAuthInputs;
  /** Single-use codes for the code exchange; taken from the end. */
  codes: string[];
  /**
   * Live refresh tokens: a request takes one, its answer puts the rotated one back (a refresh
   * token works once).
   */
  refreshTokens: string[];
  /** Fills `refreshTokens` up again, with tokens of new code exchanges. */
  refillRefreshTokens: () => Promise<void>;
  /** A bearer token userinfo answers. */
  accessToken: string;
}

export interface ScenarioContext extends OAuthContext {
  referenceOrigin: string;
  referenceToken: string;
  sessions: Record<'alice' | 'orga' | 'kim' | 'dana' | 'carla', Session>;
  ids: DemoIds;
}

const DAY = 86_400_000;

/** A state-changing request without a body: the session and its CSRF token, no content type. */
function bodyless(session: Session): Record<string, string> {
  const headers = { ...session.writeHeaders };
  delete headers['content-type'];
  return headers;
}

export function referenceScenarios(context: ScenarioContext): Scenario[] {
  const base = context.referenceOrigin;
  return [
    { name: 'reference: http', reference: null, url: `${base}/http` },
    { name: 'reference: session-row', reference: null, url: `${base}/session-row` },
    {
      name: 'reference: verify-row',
      reference: null,
      url: `${base}/verify-row`,
      headers: { authorization: `Bearer ${context.referenceToken}` },
    },
    { name: 'reference: sign2', reference: null, url: `${base}/sign2` },
    // The framework's own share: the http and session-row work in a bare Fastify route.
    { name: 'reference: fastify', reference: 'http', url: `${base}/fastify/http` },
    {
      name: 'reference: fastify session-row',
      reference: 'session-row',
      url: `${base}/fastify/session-row`,
    },
  ];
}

/**
 * A client's repeat of a read it keeps (the search index): it sends the ETag of its copy and
 * expects 304. The tag is fetched just before the run, so it is the current one.
 */
function revalidation(name: string, url: string, session: Session): Scenario {
  const scenario: Scenario = {
    name,
    reference: 'session-row',
    url,
    read: true,
    expectStatus: 304,
    headers: { cookie: session.cookie },
    prepare: async () => {
      const response = await fetch(url, { headers: { cookie: session.cookie } });
      const etag = response.headers.get('etag');
      if (!response.ok || etag === null) throw new Error(`${url} answered no ETag`);
      scenario.headers = { cookie: session.cookie, 'if-none-match': etag };
    },
  };
  return scenario;
}

export function readScenarios(context: ScenarioContext): Scenario[] {
  const { origin, sessions, ids } = context;
  const as = (session: Session) => ({ headers: { cookie: session.cookie } });
  const now = Date.now();
  const from = new Date(now - 30 * DAY).toISOString();
  const to = new Date(now).toISOString();
  const read = (name: string, path: string, session: Session): Scenario => ({
    name,
    reference: 'session-row',
    url: `${origin}${path}`,
    read: true,
    ...as(session),
  });
  return [
    { name: 'GET /health/live', reference: 'http', url: `${origin}/health/live`, read: true },
    read('GET /api/users/current', '/api/users/current', sessions.alice),
    // Rows of docs/spec.md §4.1, reads.
    read(
      `GET /api/regions/${ids.musterstadt} (orga)`,
      `/api/regions/${ids.musterstadt}`,
      sessions.orga,
    ),
    read(`GET /api/chains/${ids.chainId} (kim)`, `/api/chains/${ids.chainId}`, sessions.kim),
    read('GET /api/resources/own', '/api/resources/own', sessions.alice),
    read(
      `GET /api/stores/${ids.storeId}/requests`,
      `/api/stores/${ids.storeId}/requests`,
      sessions.alice,
    ),
    read(
      'GET store log 30 days, 3 types',
      `/api/stores/${ids.storeId}/log/${from}/${to}/actions/11,12,14`,
      sessions.alice,
    ),
    read(
      `GET /api/users/${ids.bob}/reports (orga)`,
      `/api/users/${ids.bob}/reports`,
      sessions.orga,
    ),
    read('GET /api/search/index', '/api/search/index', sessions.alice),
    revalidation(
      'GET /api/search/index (If-None-Match)',
      `${origin}/api/search/index`,
      sessions.alice,
    ),
    // Companion reads.
    read(`GET /api/users/${ids.bob}/bananas`, `/api/users/${ids.bob}/bananas`, sessions.alice),
    read(
      `GET /api/conversations/${ids.conversationId}`,
      `/api/conversations/${ids.conversationId}`,
      sessions.alice,
    ),
    read(
      `GET /api/conversations/${ids.conversationId}/messages`,
      `/api/conversations/${ids.conversationId}/messages`,
      sessions.alice,
    ),
    read(
      `GET /api/forum/threads/${ids.forumThreadId}/posts`,
      `/api/forum/threads/${ids.forumThreadId}/posts`,
      sessions.alice,
    ),
    read(
      `GET /api/chains/${ids.chainId}/kams (kim)`,
      `/api/chains/${ids.chainId}/kams`,
      sessions.kim,
    ),
    read(
      `GET /api/region/${ids.musterstadt}/options (dana)`,
      `/api/region/${ids.musterstadt}/options`,
      sessions.dana,
    ),
    read(
      `GET /api/groups/${ids.workGroup}/applications`,
      `/api/groups/${ids.workGroup}/applications`,
      sessions.alice,
    ),
    read(
      `GET /api/quiz/${ids.quizId}/questions/${ids.questionId}/answers (orga)`,
      `/api/quiz/${ids.quizId}/questions/${ids.questionId}/answers`,
      sessions.orga,
    ),
    read(
      'GET /api/user/current/passport/generations',
      '/api/user/current/passport/generations',
      sessions.alice,
    ),
    // The growing lists again with a page of 10 at both sizes: the answer is the same size, so
    // large/small shows the cost of the history behind the page alone (an index-ordered page
    // stays flat; a sort of the whole history would not).
    read(
      `GET /api/users/${ids.bob}/bananas?limit=10`,
      `/api/users/${ids.bob}/bananas?limit=10`,
      sessions.alice,
    ),
    read(
      `GET /api/users/${ids.bob}/reports?limit=10 (orga)`,
      `/api/users/${ids.bob}/reports?limit=10`,
      sessions.orga,
    ),
    read(
      `GET /api/stores/${ids.storeId}/requests?limit=10`,
      `/api/stores/${ids.storeId}/requests?limit=10`,
      sessions.alice,
    ),
    read(
      'GET store log 30 days, 3 types, limit=10',
      `/api/stores/${ids.storeId}/log/${from}/${to}/actions/11,12,14?limit=10`,
      sessions.alice,
    ),
  ];
}

/**
 * One write per write route that can be repeated without running out of rows. Not measured:
 * hiding a forum post and deleting a quiz answer (each works once per row).
 */
export function writeScenarios(context: ScenarioContext): Scenario[] {
  const { origin, sessions, ids } = context;
  let edit = 0;
  const bananaMessage =
    'Danke für die Abholung am Samstag! Du warst pünktlich, hast alles sauber verteilt und ' +
    'warst zu allen freundlich. Eine Banane dafür.';
  return [
    {
      name: `POST /api/conversations/${ids.conversationId}/messages`,
      reference: 'session-row',
      method: 'POST',
      url: `${origin}/api/conversations/${ids.conversationId}/messages`,
      headers: sessions.alice.writeHeaders,
      body: JSON.stringify({ body: 'Ich bringe morgen Kisten mit.' }),
    },
    {
      name: `POST /api/conversations/${ids.conversationId}/readStatus`,
      reference: 'session-row',
      method: 'POST',
      url: `${origin}/api/conversations/${ids.conversationId}/readStatus?read=1`,
      headers: bodyless(sessions.alice),
    },
    {
      name: `PATCH /api/chains/${ids.chainId} (kim)`,
      reference: 'session-row',
      url: `${origin}/api/chains/${ids.chainId}`,
      requests: [
        {
          method: 'PATCH',
          headers: sessions.kim.writeHeaders,
          // A patch that changes nothing is refused: each one writes new notes.
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            body: JSON.stringify({ notes: `Notiz ${++edit}` }),
          }),
        },
      ],
    },
    {
      name: `POST /api/region/${ids.musterstadt}/options (dana)`,
      reference: 'session-row',
      method: 'POST',
      url: `${origin}/api/region/${ids.musterstadt}/options`,
      headers: sessions.dana.writeHeaders,
      body: JSON.stringify({
        enableReportButton: true,
        enableMediationButton: false,
        selectedReportReasonOptions: 2,
        enableReportReasonOther: true,
        regionPickupRuleActive: true,
        regionPickupRuleTimespan: 7,
        regionPickupRuleLimit: 3,
        regionPickupRuleLimitDay: 1,
        regionPickupRuleInactive: 24,
      }),
    },
    {
      name: `DELETE /api/groups/${ids.workGroup}/applications/${ids.carla}`,
      reference: 'session-row',
      method: 'DELETE',
      url: `${origin}/api/groups/${ids.workGroup}/applications/${ids.carla}`,
      headers: {
        cookie: sessions.alice.cookie,
        'x-csrf-token': sessions.alice.writeHeaders['x-csrf-token']!,
      },
    },
    {
      name: 'POST /api/users/current/quiz-sessions/1/confirmation (carla)',
      reference: 'session-row',
      method: 'POST',
      url: `${origin}/api/users/current/quiz-sessions/1/confirmation`,
      headers: {
        cookie: sessions.carla.cookie,
        'x-csrf-token': sessions.carla.writeHeaders['x-csrf-token']!,
      },
    },
    {
      name: 'POST /api/user/current/passport (PDF)',
      reference: 'session-row',
      method: 'POST',
      url: `${origin}/api/user/current/passport`,
      headers: {
        cookie: sessions.alice.cookie,
        'x-csrf-token': sessions.alice.writeHeaders['x-csrf-token']!,
      },
    },
    {
      // Give and take back in turn, on one connection: a pair holds one banana at a time.
      name: `DELETE + POST /api/users/${ids.bob}/bananas (1 conn.)`,
      reference: 'session-row',
      url: `${origin}/api/users/${ids.bob}/bananas`,
      connections: 1,
      // The cycle starts by taking back the banana given here.
      prepare: async () => {
        await fetch(`${origin}/api/users/${ids.bob}/bananas`, {
          method: 'POST',
          headers: sessions.alice.writeHeaders,
          body: JSON.stringify({ message: bananaMessage }),
        });
      },
      requests: [
        {
          method: 'DELETE',
          path: `/api/users/${ids.bob}/bananas/${ids.alice}`,
          headers: {
            cookie: sessions.alice.cookie,
            'x-csrf-token': sessions.alice.writeHeaders['x-csrf-token']!,
          },
        },
        {
          method: 'POST',
          path: `/api/users/${ids.bob}/bananas`,
          headers: sessions.alice.writeHeaders,
          body: JSON.stringify({ message: bananaMessage }),
        },
      ],
    },
  ];
}

export function oauthScenarios(context: OAuthContext): Scenario[] {
  const { origin, oauth, codes, refreshTokens, refillRefreshTokens } = context;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  return [
    {
      name: 'GET /oauth/authorize (remembered consent)',
      reference: 'session-row',
      url: oauth.authorizeUrl,
      headers: { cookie: oauth.cookie },
      expectStatus: 302,
    },
    {
      name: 'POST /oauth/token (authorization_code)',
      reference: 'sign2',
      url: `${origin}/oauth/token`,
      amount: codes.length,
      requests: [
        {
          method: 'POST',
          headers: form,
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            body: oauth.exchangeForm(codes.pop() ?? 'spent'),
          }),
        },
      ],
    },
    {
      name: 'POST /oauth/token (refresh_token)',
      reference: 'sign2',
      url: `${origin}/oauth/token`,
      prepare: refillRefreshTokens,
      requests: [
        {
          method: 'POST',
          headers: form,
          // A refresh token works once: each request takes a live one from the pool and its
          // answer puts the rotated one back. (Not autocannon's per-connection context: it is
          // cleared after every pass through this one-request list, which lost every chain.)
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            body: oauth.refreshForm(refreshTokens.pop() ?? 'spent'),
          }),
          onResponse: (status: number, body: string) => {
            if (status === 200) {
              refreshTokens.unshift((JSON.parse(body) as { refresh_token: string }).refresh_token);
            }
          },
        },
      ],
    },
    {
      name: 'GET /oauth/userinfo',
      reference: 'verify-row',
      url: `${origin}/oauth/userinfo`,
      headers: { authorization: `Bearer ${context.accessToken}` },
    },
    {
      name: 'GET /.well-known/jwks.json',
      reference: 'http',
      url: `${origin}/.well-known/jwks.json`,
    },
    {
      name: 'GET /.well-known/openid-configuration',
      reference: 'http',
      url: `${origin}/.well-known/openid-configuration`,
    },
  ];
}

/** The name of a scenario's twin on the bench peer. */
export const peerNameOf = (name: string) => `peer: ${name}`;

/**
 * The OAuth scenarios the bench peer (peer-server.ts) serves the same way, on the peer: all but
 * authorize, whose sign-in the peer does not have.
 */
export function peerScenarios(context: OAuthContext): Scenario[] {
  return oauthScenarios(context)
    .filter((scenario) => !scenario.name.startsWith('GET /oauth/authorize'))
    .map((scenario) => ({ ...scenario, name: peerNameOf(scenario.name) }));
}
