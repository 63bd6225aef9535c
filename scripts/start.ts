// The zero-set-up start: both services in one process behind one origin, for a developer
// machine. Deployments run each app on its own (apps/*/src/server.ts) behind a proxy.
//
//   pnpm start            http://localhost:8080 (PORT changes it)
//
// Without DATABASE_URL an embedded PostgreSQL runs under .data/postgres; without a Redis
// answering at REDIS_URL (default 127.0.0.1:6379) state is kept in process.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { buildApp as buildApiApp } from '@foodshare/api/app';
import { loadConfig as loadApiConfig } from '@foodshare/api/config';
import { buildApp as buildAuthApp } from '@foodshare/auth/app';
import { loadConfig as loadAuthConfig } from '@foodshare/auth/config';
import { DEVELOPMENT_CLIENT_SECRET_PEPPER, embeddedDatabase, openOrm } from '@foodshare/domain';
import {
  ConfigError,
  databasePooling,
  databaseTimeouts,
  exitOnStartupFailure,
  openKeyValueStore,
  redisConnection,
  redisTimeouts,
  StartupFailure,
  type StartupSettings,
  stopGracefully,
  stopServing,
  trackRequests,
} from '@foodshare/server-kit';
import { ensureDatabase, startEmbeddedPostgres } from '@foodshare/testing';
import { prepareDatabase } from './prepare-database.ts';
import { startOrigin, startPort } from './start-settings.ts';

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.log(`[start] ${message}`);

/**
 * Both services' configurations, every bad variable of either named at once. `port` is
 * `undefined` when PORT is no port (the api's schema names it then).
 */
function loadConfigs(env: NodeJS.ProcessEnv, port: number | undefined) {
  const problems = new Set<string>();
  if (port === undefined) problems.add('PORT: must be an integer from 0 to 65535');
  const attempt = <Config>(load: (env: NodeJS.ProcessEnv) => Config): Config | undefined => {
    try {
      return load(env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const problem of error.problems) problems.add(problem);
      return undefined;
    }
  };
  const api = attempt(loadApiConfig);
  const auth = attempt(loadAuthConfig);
  if (!api || !auth || problems.size > 0) throw new ConfigError([...problems]);
  return { api, auth };
}

/** DATABASE_URL, or else the embedded PostgreSQL's, which the CLI finds the same way. */
function plannedDatabase(): { url: string; embedded?: ReturnType<typeof embeddedDatabase> } {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  try {
    const embedded = embeddedDatabase(process.env, root);
    return { url: embedded.url, embedded };
  } catch (error) {
    // EMBEDDED_POSTGRES_PORT that is no port.
    if (error instanceof RangeError) throw new ConfigError([error.message]);
    throw error;
  }
}

async function startEmbedded(embedded: ReturnType<typeof embeddedDatabase>) {
  log(
    `DATABASE_URL is not set: starting the embedded PostgreSQL under .data/postgres (port ${embedded.port})`,
  );
  // PostgreSQL says why it did not start in its log; the package rejects without a reason.
  const said: string[] = [];
  try {
    const server = await startEmbeddedPostgres({
      dataDir: embedded.dataDir,
      port: embedded.port,
      password: embedded.password,
      onLog: (text) => said.push(...text.split('\n')),
    });
    await ensureDatabase(server.url, embedded.database);
    return () => server.stop();
  } catch (error) {
    const reason =
      error instanceof Error
        ? error.message.split('\n')[0]
        : (said
            .findLast((line) => /FATAL|ERROR/.test(line))
            ?.replace(/^.*?(FATAL|ERROR):\s*/, '') ?? 'it exited');
    throw new StartupFailure(
      `the embedded PostgreSQL did not start on port ${embedded.port} (${reason}): stop what uses the port or set EMBEDDED_POSTGRES_PORT, or set DATABASE_URL`,
      { cause: error },
    );
  }
}

// Bound first, so that the default BASE_URL (the issuer in every token and in discovery)
// names the port really listened on, PORT=0 included. Until both services are ready, 503.
type Service = Awaited<ReturnType<typeof buildApiApp | typeof buildAuthApp>>;
let services: { api: Service; auth: Service } | undefined = undefined;
// The same split as the reverse proxy of a deployment (docker/Caddyfile), which routes
// /metrics to neither service: the metrics name every client and its token counts, and are for
// a scraper inside the deployment, not for whoever reaches the origin.
function serviceFor(request: IncomingMessage, ready: { api: Service; auth: Service }) {
  const url = request.url ?? '/';
  // The path as the services' router matches it: percent-escapes decoded.
  const raw = url.split(/[?#]/)[0] ?? '/';
  let pathname = raw;
  try {
    pathname = decodeURIComponent(raw);
  } catch {
    // Not decodable: the router refuses it too (400), so it names no route.
  }
  if (pathname === '/metrics' || pathname.startsWith('/metrics/')) return undefined;
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/health/')
    ? ready.api
    : ready.auth;
}

/** The start's own answers, in the shape and with the headers of the services' problems. */
function answerProblem(
  response: ServerResponse,
  problem: { status: number; title: string; code: string; detail: string },
  headers: Record<string, string> = {},
) {
  const requestId = randomUUID();
  response
    .writeHead(problem.status, {
      'content-type': 'application/problem+json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
      ...headers,
    })
    .end(JSON.stringify({ type: 'about:blank', ...problem, requestId }));
}

// Request timeouts are checked every second rather than every 30 s (Node's default).
const server = createServer({ connectionsCheckingInterval: 1_000 }, (request, response) => {
  if (!services) {
    answerProblem(
      response,
      {
        status: 503,
        title: 'Service Unavailable',
        code: 'STARTING',
        detail: 'The server is starting. Try again shortly.',
      },
      { 'retry-after': '1' },
    );
    return;
  }
  const service = serviceFor(request, services);
  if (service) {
    service.routing(request, response);
  } else {
    answerProblem(response, {
      status: 404,
      title: 'Not Found',
      code: 'NOT_FOUND',
      detail: 'No route matches this method and path.',
    });
  }
});
const requests = trackRequests(server);

function listen(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

// What the start learned so far, for the line that names what failed; and what it started
// that a failed start has to stop again (the embedded PostgreSQL would outlive the process).
const settings: StartupSettings = {};
let stopDatabase: (() => Promise<void>) | undefined;

async function start(): Promise<void> {
  const port = startPort(process.env);
  const host = process.env.HOST || '127.0.0.1';
  const database = plannedDatabase();
  // Checked before anything starts (the embedded PostgreSQL takes seconds); loaded again
  // once bound, when the default BASE_URL has to name the port PORT=0 got.
  const planned = { ...process.env, DATABASE_URL: database.url };
  loadConfigs({ ...planned, BASE_URL: startOrigin(process.env, port ?? 0) }, port);
  Object.assign(settings, { HOST: host, PORT: port, DATABASE_URL: database.url });

  const boundPort = await listen(port ?? 0, host);
  const env = { ...planned, BASE_URL: startOrigin(process.env, boundPort) };
  const { api: apiConfig, auth: authConfig } = loadConfigs(env, boundPort);
  settings.REDIS_URL = apiConfig.REDIS_URL;
  // The same bounds on receiving a request as each service has when it runs on its own.
  server.requestTimeout = apiConfig.REQUEST_TIMEOUT_MS;
  server.headersTimeout = apiConfig.HEADERS_TIMEOUT_MS;
  server.keepAliveTimeout = apiConfig.KEEP_ALIVE_TIMEOUT_MS;

  if (database.embedded) stopDatabase = await startEmbedded(database.embedded);
  // The demo clients' secret is hashed with the pepper the auth service verifies with: the
  // configured CLIENT_SECRET_PEPPER, or the development one it falls back to
  // (apps/auth/src/auth-services.ts).
  const demoData = {
    clientSecretPepper: authConfig.CLIENT_SECRET_PEPPER ?? DEVELOPMENT_CLIENT_SECRET_PEPPER,
  };
  if (await prepareDatabase(database.url, demoData, authConfig)) {
    log('loaded the demo data (see README: demo accounts)');
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

  stopGracefully(async ({ signal, err }) => {
    if (err) console.error(err);
    log(`stopping (${signal ?? 'error'})`);
    await stopServing(server, requests, [api, auth]);
    await Promise.all([api.close(), auth.close()]);
    await kv.close();
    await orm.close();
    await stopDatabase?.();
  });
  // Said once a stop is handled: whoever reads it may stop the start at once.
  log(`listening on ${env.BASE_URL} (port ${boundPort}, store: ${kv.kind})`);
}

try {
  await start();
} catch (error) {
  await stopDatabase?.().catch(() => undefined);
  await exitOnStartupFailure('start', error, settings);
}
