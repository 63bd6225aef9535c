import { loadConfig as loadApiConfig } from '@foodshare/api/config';
import { loadConfig as loadAuthConfig } from '@foodshare/auth/config';
import { DEVELOPMENT_CLIENT_SECRET_PEPPER } from '@foodshare/domain';
import { ensureDatabase, freePort, withDatabaseName } from '@foodshare/testing';
import { prepareDatabase } from '../prepare-database.ts';
import { type Instance, type Service, startInstance } from './instance.ts';
import { type Proxy, startProxy } from './proxy.ts';

export interface ClusterOptions {
  instances: Record<Service, number>;
  /** Where the proxy listens; port 0: a free port, the kernel's pick. */
  host: string;
  port: number;
  /**
   * The instances' environment (DATABASE_URL and REDIS_URL required). BASE_URL defaults to
   * `http://localhost:<port>`: the proxy is the one origin, and the issuer of the tokens.
   */
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  /** Bound of each instance's start and of the proxy's (default 60 s: a busy machine). */
  readyTimeoutMs?: number;
}

export interface Cluster {
  /** The proxy as reached on loopback. */
  origin: string;
  /** The public origin the instances were given (BASE_URL). */
  baseUrl: string;
  proxy: Proxy;
  instances: Record<Service, Instance[]>;
  /** Stops the proxy, then every instance (SIGTERM); true when each exited with 0. */
  stop(): Promise<boolean>;
}

/** Creates the database when missing, migrates it, and loads the demo data when it is empty. */
async function prepare(env: Record<string, string | undefined>, log: (line: string) => void) {
  // Both configurations are checked before anything starts, naming every bad variable.
  loadApiConfig(env);
  const auth = loadAuthConfig(env);
  const url = new URL(auth.DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  await ensureDatabase(withDatabaseName(auth.DATABASE_URL, 'postgres'), name);
  const loaded = await prepareDatabase(
    auth.DATABASE_URL,
    { clientSecretPepper: auth.CLIENT_SECRET_PEPPER ?? DEVELOPMENT_CLIENT_SECRET_PEPPER },
    auth,
  );
  if (loaded) log('[cluster] loaded the demo data (see README: demo accounts)');
}

async function stopAll(processes: { stop(): Promise<number | null> }[]): Promise<boolean> {
  const codes = await Promise.all(processes.map((child) => child.stop()));
  return codes.every((code) => code === 0);
}

/**
 * The services as a deployment runs them, several instances each, behind Caddy on one
 * origin: the database migrated (and the demo data loaded into an empty one) first, as the
 * migrate job of docker/compose.yml does, then every instance, then the proxy.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const port = options.port === 0 ? await freePort() : options.port;
  const baseUrl = options.env.BASE_URL ?? `http://localhost:${port}`;
  const env = { ...options.env, BASE_URL: baseUrl };
  await prepare(env, options.log);

  const names = (['api', 'auth'] as const).flatMap((service) =>
    Array.from({ length: options.instances[service] }, (_, index) => ({
      service,
      name: `${service}-${index + 1}`,
    })),
  );
  // Side by side: the instances' start is mostly loading code, which a second core speeds up.
  const started = await Promise.allSettled(
    names.map(({ service, name }) =>
      startInstance(service, name, {
        env,
        log: options.log,
        readyTimeoutMs,
      }),
    ),
  );
  const instances = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll(instances);
    throw failed.reason;
  }
  const byService = {
    api: instances.filter((instance) => instance.service === 'api'),
    auth: instances.filter((instance) => instance.service === 'auth'),
  };
  let proxy: Proxy;
  try {
    proxy = await startProxy({
      host: options.host,
      port,
      ...byService,
      log: options.log,
      readyTimeoutMs,
    });
  } catch (error) {
    await stopAll(instances);
    throw error;
  }
  return {
    origin: proxy.origin,
    baseUrl,
    proxy,
    instances: byService,
    // The proxy first, so that no request reaches an instance that is stopping. The instances
    // as they are now: a rolling update (roll.ts) replaces them in these lists.
    async stop() {
      const proxyClean = await stopAll([proxy]);
      return (await stopAll([...byService.api, ...byService.auth])) && proxyClean;
    },
  };
}
