// The zero-set-up start: both services in one process behind one origin, for a developer
// machine. Deployments run each app on its own (apps/*/src/server.ts) behind a proxy.
//
//   pnpm start            http://localhost:8080 (PORT changes it)
//
// Without DATABASE_URL an embedded PostgreSQL runs under .data/postgres; without a Redis
// answering at REDIS_URL (default 127.0.0.1:6379) state is kept in process.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { buildApp as buildApiApp } from '@foodshare/api/app';
import { loadConfig as loadApiConfig } from '@foodshare/api/config';
import { buildApp as buildAuthApp } from '@foodshare/auth/app';
import { loadConfig as loadAuthConfig } from '@foodshare/auth/config';
import {
  DEVELOPMENT_CLIENT_SECRET_PEPPER,
  embeddedDatabase,
  loadDemoDataIfEmpty,
  migrateDatabase,
  openOrm,
} from '@foodshare/domain';
import {
  databasePooling,
  databaseTimeouts,
  openKeyValueStore,
  redisConnection,
  redisTimeouts,
  trackRequests,
} from '@foodshare/server-kit';
import { ensureDatabase, startEmbeddedPostgres } from '@foodshare/testing';
import closeWithGrace from 'close-with-grace';

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.log(`[start] ${message}`);

// The CLI finds the same database through embeddedDatabase() while this runs.
async function databaseUrl(): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const embedded = embeddedDatabase(process.env, root);
  log(
    `DATABASE_URL is not set: starting the embedded PostgreSQL under .data/postgres (port ${embedded.port})`,
  );
  const server = await startEmbeddedPostgres({
    dataDir: embedded.dataDir,
    port: embedded.port,
    password: embedded.password,
  });
  await ensureDatabase(server.url, embedded.database);
  return { url: embedded.url, stop: () => server.stop() };
}

// Checked before anything starts (the embedded PostgreSQL takes seconds), and strictly:
// Number() reads "abc" as NaN and "" as 0, a random port.
function parsePort(raw: string): number {
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (port >= 0 && port <= 65535) return port;
  console.error(`[start] PORT must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  process.exit(1);
}
const port = parsePort(process.env.PORT ?? '8080');
const host = process.env.HOST ?? '127.0.0.1';

// Bound first, so that the default BASE_URL (the issuer in every token and in discovery)
// names the port really listened on, PORT=0 included. Until both services are ready, 503.
type Service = Awaited<ReturnType<typeof buildApiApp | typeof buildAuthApp>>;
let services: { api: Service; auth: Service } | undefined = undefined;
// The same split as the reverse proxy of a deployment (docker/Caddyfile).
function serviceFor(request: IncomingMessage, ready: { api: Service; auth: Service }) {
  const url = request.url ?? '/';
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/health/')
    ? ready.api
    : ready.auth;
}

// Answers still being written when a stop is asked for end their connection, so that a
// keep-alive client cannot hold the shutdown open.
const unfinished = new Set<ServerResponse>();
let closing = false;
// Request timeouts are checked every second rather than every 30 s (Node's default).
const server = createServer({ connectionsCheckingInterval: 1_000 }, (request, response) => {
  if (!services) {
    response.writeHead(503, { 'retry-after': '1' }).end();
    return;
  }
  if (closing) response.shouldKeepAlive = false;
  unfinished.add(response);
  response.once('close', () => unfinished.delete(response));
  serviceFor(request, services).routing(request, response);
});
const requests = trackRequests(server);
await new Promise<void>((resolve) => server.listen(port, host, resolve));
const address = server.address();
const boundPort = typeof address === 'object' && address ? address.port : port;

const database = await databaseUrl();
const env = {
  ...process.env,
  DATABASE_URL: database.url,
  BASE_URL: process.env.BASE_URL ?? `http://localhost:${boundPort}`,
};
const apiConfig = loadApiConfig(env);
const authConfig = loadAuthConfig(env);
// The same bounds on receiving a request as each service has when it runs on its own.
server.requestTimeout = apiConfig.REQUEST_TIMEOUT_MS;
server.headersTimeout = apiConfig.HEADERS_TIMEOUT_MS;
server.keepAliveTimeout = apiConfig.KEEP_ALIVE_TIMEOUT_MS;

// Migrations and the demo data on a connection of their own, without a request's bounds: on
// a busy machine either may take longer than a request may wait.
await migrateDatabase(database.url);
// The demo clients' secret is hashed with the pepper the auth service verifies with: the
// configured CLIENT_SECRET_PEPPER, or the development one it falls back to (plugins/oauth-core).
const demoData = {
  clientSecretPepper: authConfig.CLIENT_SECRET_PEPPER ?? DEVELOPMENT_CLIENT_SECRET_PEPPER,
};
const setupOrm = await openOrm({ url: database.url, poolSize: 1 });
try {
  if (await loadDemoDataIfEmpty(setupOrm.em.fork(), demoData))
    log('loaded the demo data (see README: demo accounts)');
} finally {
  await setupOrm.close();
}
const orm = await openOrm({
  url: database.url,
  timeouts: databaseTimeouts(apiConfig),
  ...databasePooling(apiConfig),
});

const kv = await openKeyValueStore({
  redis: redisConnection(apiConfig),
  keyPrefix: apiConfig.REDIS_KEY_PREFIX,
  timeouts: redisTimeouts(apiConfig),
  allowMemoryFallback: true,
  log,
});

const api = await buildApiApp(apiConfig, { orm, kv });
const auth = await buildAuthApp(authConfig, { orm, kv });
await Promise.all([api.ready(), auth.ready()]);
services = { api, auth };
log(`listening on ${env.BASE_URL} (port ${boundPort}, store: ${kv.kind})`);

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) console.error(err);
  log(`stopping (${signal ?? 'error'})`);
  closing = true;
  for (const response of unfinished) response.shouldKeepAlive = false;
  await requests.drain();
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await closed;
  await Promise.all([api.close(), auth.close()]);
  await kv.close();
  await orm.close();
  await database.stop?.();
});
