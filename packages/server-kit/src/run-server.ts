import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type MikroORM, pendingMigrations } from '@foodshare/domain';
import type { FastifyInstance } from 'fastify';
import type { CommonEnv } from './config/common-env.ts';
import { stopGracefully } from './graceful-stop.ts';
import { redactUrl } from './kv/redis-connection.ts';
import { exitOnStartupFailure, StartupFailure } from './startup-failure.ts';

/** How long a stop waits for open connections to be used once more (and told to close). */
const DRAIN_MS = 1_000;

/**
 * Follows a server's connections so that a stop can let them end cleanly. Node's own close()
 * destroys idle keep-alive connections at once (a request already on its way over one is
 * reset) and stops enforcing the request timeout (a body that trickles in holds the stop for
 * the whole grace period).
 *
 * A request costs one WeakMap write (its connection's latest response), not a listener of its
 * own. For plain HTTP only, as both servers are (TLS ends at the proxy): under TLS a request's
 * socket is not the one `connection` reports.
 */
export function trackRequests(server: Server) {
  const connections = new Set<Socket>();
  const latestResponse = new WeakMap<Socket, ServerResponse>();
  let stopping = false;
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // Prepended, so that it sees a request before the app can answer it: while stopping, every
  // answer ends its connection, which a keep-alive client would otherwise hold open.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (stopping) response.shouldKeepAlive = false;
    latestResponse.set(request.socket, response);
  });
  return {
    /**
     * Answers still being written, and any given from now on, close their connection; then
     * waits, at most `DRAIN_MS`, for the open connections to finish and go (a request on a
     * keep-alive connection meanwhile is still answered). Then cuts the requests whose body
     * has still not fully arrived.
     */
    async drain(): Promise<void> {
      stopping = true;
      for (const socket of connections) {
        const response = latestResponse.get(socket);
        if (response && !response.writableEnded) response.shouldKeepAlive = false;
      }
      const deadline = Date.now() + DRAIN_MS;
      while (Date.now() < deadline && connections.size > 0) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      for (const socket of connections) {
        if (latestResponse.get(socket)?.req.complete === false) socket.destroy();
      }
    },
  };
}

/**
 * How long a stop goes on serving before PostgreSQL and Redis close, counted from its start:
 * the drain (`DRAIN_MS`), the answers still being written, and the requests under way, those
 * whose client has gone included, each of which may make a few of the bounded waits on the
 * stores (about a second each by default). Within the 10 s of graceful-stop.ts, with time
 * left to close.
 */
const STOP_SERVING_MS = 5_000;

/**
 * What both stops (runServer, scripts/start.ts) do before the apps close PostgreSQL and Redis:
 * 1. drain the server's connections, stop listening and let the connections end;
 * 2. wait until the apps have finished every request they took.
 * Step 2 includes requests whose client has gone. The connections no longer show them, but
 * their handlers run on and would fail halfway on closed stores (plugins/requests-under-way.ts).
 * All of it happens within `STOP_SERVING_MS` of the start. Connections still open then are cut,
 * and what is still under way is logged.
 */
export async function stopServing(
  server: Server,
  requests: ReturnType<typeof trackRequests>,
  apps: FastifyInstance[],
): Promise<void> {
  const deadline = Date.now() + STOP_SERVING_MS;
  await requests.drain();
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    closed,
    new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
  ]);
  clearTimeout(timer);
  server.closeAllConnections();
  await Promise.all(
    apps.map(async (app) => {
      const left = await app.requestsUnderWay.settled(Math.max(0, deadline - Date.now()));
      if (left > 0) {
        app.log.warn({ requestsUnderWay: left }, 'closing with requests still under way');
      }
    }),
  );
}

/**
 * Listens. Before that, the database must answer and hold every migration. On SIGTERM or
 * SIGINT it stops:
 * - answers given meanwhile close their connection;
 * - open connections get a moment to be used once more;
 * - a request body still trickling in is cut;
 * - the requests under way finish, for a few seconds at most ({@link stopServing});
 * - then PostgreSQL and Redis close (the app's onClose hooks).
 * A second signal, or 10 s, forces the exit, so an orchestrator's grace period is never
 * outlived.
 */
async function runServer(
  app: FastifyInstance,
  settings: { HOST: string; PORT: number; DATABASE_URL: string },
): Promise<void> {
  const requests = trackRequests(app.server);
  await app.ready();
  await requireMigratedDatabase(app.orm, settings.DATABASE_URL);
  const { service, version, commit } = app.release;
  app.log.info({ version, commit }, `starting ${service} ${version} (${commit.slice(0, 12)})`);
  await app.listen({ host: settings.HOST, port: settings.PORT });
  stopGracefully(async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await stopServing(app.server, requests, [app]);
    // Its server is closed already: Fastify's own close finds it so and goes on.
    await app.close();
  });
}

// A service never changes the schema itself (docs: the migrate job, `pnpm cli db migrate`):
// started on an older schema its queries would fail one request at a time.
async function requireMigratedDatabase(orm: MikroORM, databaseUrl: string): Promise<void> {
  const pending = await pendingMigrations(orm);
  if (pending.length === 0) return;
  throw new StartupFailure(
    `the database at ${redactUrl(databaseUrl)} lacks ${pending.length} migration(s), from ${pending[0]}: run \`pnpm cli db migrate\` (images: the cli's \`db migrate\`)`,
  );
}

type ServiceSettings = CommonEnv & { PORT: number };

/**
 * What a service's server.ts runs: the configuration from the environment, the app, then
 * {@link runServer}. A start that fails for a known cause (configuration, port, PostgreSQL,
 * Redis, migrations) ends in one line on stderr naming it and its fix, with exit code 1.
 */
export async function startService<Config extends ServiceSettings>(service: {
  /** Prefix of the failure line: `api`, `auth`. */
  name: string;
  /** process.env: only server.ts reads it. */
  env: NodeJS.ProcessEnv;
  loadConfig: (env: NodeJS.ProcessEnv) => Config;
  buildApp: (config: Config) => Promise<FastifyInstance>;
}): Promise<void> {
  let config: Config | undefined;
  try {
    config = service.loadConfig(service.env);
    await runServer(await service.buildApp(config), config);
  } catch (error) {
    await exitOnStartupFailure(service.name, error, config ?? {});
  }
}
