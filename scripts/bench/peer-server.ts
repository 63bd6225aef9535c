// The bench peer: node-oidc-provider (certified, the most complete OpenID provider in Node) set
// up to do the work our authorization server does at the token endpoint, so that `pnpm bench`
// measures both in the same rounds (docs/benchmarks.md §1.1): the demo's confidential client
// (client_secret_post, as the bench's exchanges send it) and its public client, PKCE S256,
// RS256 JWT access tokens (through resource indicators: a code authorized for BENCH_RESOURCE
// gets a JWT), refresh tokens rotated at every use, Redis storage (peer-redis-adapter.ts), and
// accounts read from our `users` table with their regions, for the same claims (the scope
// `regions`, `groups` in the access token).
//
// Its interactions are not measured: the one page (`/interaction/<uid>`) signs in the user the
// authorization request names in `login_hint` and grants what it asks, so that the bench gets
// a session whose later authorizations redirect with a code at once, as ours do after a
// remembered consent.
//
// Run as a child process (so that it gets a core of its own, as the stack does):
//   node scripts/bench/peer-server.ts   (DATABASE_URL, REDIS_URL, REDIS_KEY_PREFIX)
// prints one JSON line {port} and serves until SIGTERM.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { DEMO_CLIENT_SECRET, DEMO_REDIRECT_URI, DemoClientId, RegionType } from '@foodshare/domain';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@foodshare/testing';
import { Redis } from 'ioredis';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Account, type Configuration, type JWKS } from 'oidc-provider';
import pg from 'pg';
import { PeerRedisAdapter } from './peer-redis-adapter.ts';

/** The API a code is authorized for when its access token is to be a JWT. */
export const BENCH_RESOURCE = 'urn:foodshare:bench-api';
/** The scope of that API, asked for beside the OpenID scopes. */
export const BENCH_RESOURCE_SCOPE = 'api';

const HOUR = 3600;
const DAY = 24 * HOUR;

// The user and the three region lists our claims for `openid profile email regions` are made
// of, read as ours reads them (apps/auth/src/claims/user-claims.ts): the same work in PostgreSQL.
const ACCOUNT_ROW = `select u.id, u.first_name, u.last_name, u.email,
       array(select m.region_id from region_memberships m
              where m.user_id = u.id and m.active order by m.region_id) as region_ids,
       array(select a.region_id from region_admins a
              where a.user_id = u.id order by a.region_id) as admin_region_ids,
       array(select r.id from regions r
              where r.type = ${RegionType.WorkingGroup}
                and r.id in (select m.region_id from region_memberships m
                              where m.user_id = u.id and m.active
                             union all
                             select a.region_id from region_admins a where a.user_id = u.id)
              order by r.id) as workgroup_ids
  from users u where u.id = $1 and u.activated`;

interface AccountRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  region_ids: number[];
  admin_region_ids: number[];
  workgroup_ids: number[];
}

/** The `groups` claim as ours makes it (docs/oauth.md §5.4). */
function groupsOf(row: AccountRow): string[] {
  const workgroups = new Set(row.workgroup_ids);
  const kind = (id: number) => (workgroups.has(id) ? 'workgroup' : 'region');
  const groups = new Set(row.region_ids.map((id) => `${kind(id)}:${id}`));
  for (const id of row.admin_region_ids) {
    groups.add(`${kind(id)}:${id}:${workgroups.has(id) ? 'admin' : 'ambassador'}`);
  }
  return [...groups].sort();
}

/** An account of the peer, with the groups its JWT access tokens carry, as ours do. */
interface PeerAccount extends Account {
  groups: string[];
}

export interface PeerBackends {
  databaseUrl?: string;
  redisUrl?: string;
  keyPrefix?: string;
}

export interface PeerServer {
  server: Server;
  port: number;
  origin: string;
  close(): Promise<void>;
}

async function signingKeys(): Promise<JWKS> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { keys: [{ ...(await exportJWK(privateKey)), kid: 'peer', alg: 'RS256', use: 'sig' }] };
}

function configuration(pool: pg.Pool, redis: Redis, jwks: JWKS): Configuration {
  const grants = ['authorization_code', 'refresh_token'];
  return {
    adapter: (name: string) => new PeerRedisAdapter(redis, name),
    clients: [
      {
        client_id: DemoClientId.confidential,
        client_secret: DEMO_CLIENT_SECRET,
        redirect_uris: [DEMO_REDIRECT_URI],
        grant_types: grants,
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        client_id: DemoClientId.public,
        redirect_uris: [DEMO_REDIRECT_URI],
        grant_types: grants,
        token_endpoint_auth_method: 'none',
      },
    ],
    claims: {
      openid: ['sub'],
      profile: ['name', 'given_name', 'family_name'],
      email: ['email'],
      regions: ['region_ids', 'region_ambassador', 'groups'],
    },
    // Ours puts `groups` in the access token too (docs/oauth.md §5.4).
    extraTokenClaims: (ctx) => {
      const account = ctx.oidc?.account as PeerAccount | undefined;
      return account ? { groups: account.groups } : undefined;
    },
    async findAccount(_ctx, id): Promise<PeerAccount | undefined> {
      if (!/^[0-9]{1,9}$/.test(id)) return undefined;
      const { rows } = await pool.query<AccountRow>({
        name: 'peer-account',
        text: ACCOUNT_ROW,
        values: [Number(id)],
      });
      const row = rows[0];
      if (!row) return undefined;
      const groups = groupsOf(row);
      return {
        accountId: String(row.id),
        groups,
        claims: () => ({
          sub: String(row.id),
          name: `${row.first_name} ${row.last_name}`,
          given_name: row.first_name,
          family_name: row.last_name,
          email: row.email,
          region_ids: row.region_ids.map(String),
          region_ambassador: row.admin_region_ids.map(String),
          groups,
        }),
      };
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A refresh keeps the API of its code, so refreshed access tokens are JWTs too.
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: BENCH_RESOURCE_SCOPE,
          audience: BENCH_RESOURCE,
          accessTokenTTL: HOUR,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Our refresh tokens go to every client of the refresh grant and rotate at every use.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    jwks,
    pkce: { required: () => true },
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      userinfo: '/oauth/userinfo',
      jwks: '/.well-known/jwks.json',
    },
    ttl: {
      AccessToken: HOUR,
      AuthorizationCode: 600,
      IdToken: HOUR,
      RefreshToken: 30 * DAY,
      Grant: 30 * DAY,
      Interaction: HOUR,
      Session: 14 * DAY,
    },
  };
}

/**
 * The stand-in for a login and consent page: signs in the account of `login_hint` and grants
 * the scopes and the API the authorization request asked for.
 */
async function finishInteraction(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { params, grantId } = await provider.interactionDetails(request, response);
  const text = (name: string) => (typeof params[name] === 'string' ? params[name] : '');
  const accountId = text('login_hint');
  const grant =
    (grantId === undefined ? undefined : await provider.Grant.find(grantId)) ??
    new provider.Grant({ accountId, clientId: text('client_id') });
  grant.addOIDCScope(text('scope'));
  if (typeof params.resource === 'string') {
    grant.addResourceScope(params.resource, BENCH_RESOURCE_SCOPE);
  }
  await provider.interactionFinished(
    request,
    response,
    { login: { accountId }, consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: false },
  );
}

/** Deletes what the peer stored: its keys carry their own prefix, unlike the client's calls. */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 })) {
    const batch = (keys as string[]).map((key) => key.slice(prefix.length));
    if (batch.length > 0) await redis.unlink(...batch);
  }
}

/** The peer on a free loopback port, its issuer that port's origin. */
export async function startPeerServer(backends: PeerBackends = {}): Promise<PeerServer> {
  const keyPrefix = backends.keyPrefix ?? 'bench:peer:';
  const pool = new pg.Pool({
    connectionString: backends.databaseUrl ?? DEFAULT_DATABASE_URL,
    max: 10,
  });
  const redis = new Redis(backends.redisUrl ?? DEFAULT_REDIS_URL, { keyPrefix });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const provider = new Provider(origin, configuration(pool, redis, await signingKeys()));
  provider.on('server_error', (_ctx, error) => console.error(`peer: ${String(error)}`));
  const handle = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.startsWith('/interaction/')) return void handle(request, response);
    finishInteraction(provider, request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  return {
    server,
    port,
    origin,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deleteKeys(redis, keyPrefix);
      await redis.quit();
      await pool.end();
    },
  };
}

if (import.meta.main) {
  const peer = await startPeerServer({
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    keyPrefix: process.env.REDIS_KEY_PREFIX,
  });
  console.log(JSON.stringify({ port: peer.port }));
  process.once('SIGTERM', () => void peer.close().then(() => process.exit(0)));
}
