// The reference servers of `pnpm bench`: the same work as the services' hot paths done with
// the bare libraries (node:http, ioredis, pg, jose, node:crypto), no framework and no ORM. A
// scenario's figure divided by its reference's says what the framework, the ORM and our own
// code cost on top of the unavoidable I/O and cryptography. Two more routes do the `http` and
// `session-row` work in a bare Fastify app (the services' framework, with nothing of ours):
// measured against those two, they show the share the framework alone takes.
//
// Run as a child process (so that it gets a core of its own, as the stack does):
//   node scripts/bench/reference-server.ts   (DATABASE_URL, REDIS_URL, REDIS_KEY_PREFIX)
// prints one JSON line {port, token} and serves until SIGTERM.
import { createCipheriv, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import pg from 'pg';

export const REFERENCES = {
  http: 'bare node:http, a fixed JSON body',
  'session-row': 'a Redis session read plus one users row through raw pg',
  'verify-row': 'an RS256 JWT verification (jose) plus one users row',
  sign2: 'a Redis round trip, one row, two RS256 signatures and one AES-GCM encryption',
  fastify: 'bare Fastify (no plugin, no logger), a fixed JSON body',
  'fastify session-row': 'the session-row work in a bare Fastify route',
} as const;
export type ReferenceName = keyof typeof REFERENCES;

const USER_ROW = 'select id, first_name, last_name, email, role, verified from users where id = $1';

export interface ReferenceServer {
  server: Server;
  port: number;
  /** A bearer token the verify-row route accepts. */
  token: string;
  close(): Promise<void>;
}

export interface ReferenceBackends {
  databaseUrl?: string;
  redisUrl?: string;
  keyPrefix?: string;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * Starts the reference routes on a free loopback port. Without backends only `/http` answers
 * (the harness's own smoke test uses that).
 */
export async function startReferenceServer(
  backends: ReferenceBackends = {},
): Promise<ReferenceServer> {
  const pool = backends.databaseUrl
    ? new pg.Pool({ connectionString: backends.databaseUrl, max: 10 })
    : undefined;
  const redis = backends.redisUrl
    ? new Redis(backends.redisUrl, { keyPrefix: backends.keyPrefix ?? 'bench:reference:' })
    : undefined;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'reference';
  const sign = (key: CryptoKey, claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
  const token = await sign(privateKey, { sub: '2', scope: 'openid profile' });
  const encryptionKey = randomBytes(32);
  await redis?.set('session', JSON.stringify({ userId: 2, csrf: randomBytes(16).toString('hex') }));

  const userRow = async (id: number) => {
    const result = await pool!.query({ name: 'reference-user', text: USER_ROW, values: [id] });
    return result.rows[0] as Record<string, unknown>;
  };

  const sessionRow = async () => {
    const session = JSON.parse((await redis!.get('session')) ?? '{}') as { userId: number };
    return userRow(session.userId);
  };

  const routes: Record<string, (request: IncomingMessage) => Promise<unknown>> = {
    '/http': () => Promise.resolve({ ok: true }),
    '/session-row': sessionRow,
    '/verify-row': async (request) => {
      const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const { payload } = await jwtVerify(bearer, publicKey, { algorithms: ['RS256'] });
      return userRow(Number(payload.sub));
    },
    '/sign2': async () => {
      const session = JSON.parse((await redis!.get('session')) ?? '{}') as { userId: number };
      const user = await userRow(session.userId);
      const [accessToken, idToken] = await Promise.all([
        sign(privateKey, { sub: String(user.id), scope: 'openid profile' }),
        sign(privateKey, { sub: String(user.id), name: user.first_name }),
      ]);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const sealed = Buffer.concat([cipher.update(randomBytes(32)), cipher.final()]);
      const refreshToken = `${iv.toString('base64url')}.${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
      return { access_token: accessToken, id_token: idToken, refresh_token: refreshToken };
    },
  };

  // Fastify as the services build it, minus everything of ours: routing, hooks (none), reply
  // serialization. Served by the same node:http server, as scripts/start.ts serves the services.
  const fastify = Fastify({ logger: false });
  fastify.get('/fastify/http', () => Promise.resolve({ ok: true }));
  fastify.get('/fastify/session-row', sessionRow);
  await fastify.ready();

  const server = createServer((request, response) => {
    if (request.url?.startsWith('/fastify/')) return fastify.routing(request, response);
    const route = routes[request.url ?? ''];
    if (!route) return send(response, 404, { error: 'not found' });
    route(request).then(
      (body) => send(response, 200, body),
      (error: unknown) => send(response, 500, { error: String(error) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    server,
    port,
    token,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await fastify.close();
      await redis?.quit();
      await pool?.end();
    },
  };
}

if (import.meta.main) {
  const reference = await startReferenceServer({
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    keyPrefix: process.env.REDIS_KEY_PREFIX,
  });
  console.log(JSON.stringify({ port: reference.port, token: reference.token }));
  process.once('SIGTERM', () => void reference.close().then(() => process.exit(0)));
}
