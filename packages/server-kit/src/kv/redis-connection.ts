import { Redis, type RedisOptions } from 'ioredis';

export interface RedisEndpoint {
  host: string;
  port: number;
}

/** A Redis reached through Sentinel: the sentinels name the current master. */
export interface RedisSentinelSettings {
  sentinels: RedisEndpoint[];
  /** The master's name in the sentinels' configuration (`sentinel monitor <name> ...`). */
  masterName: string;
  /** The sentinels' own password (their `requirepass`), not the data nodes'. */
  password?: string | undefined;
}

/**
 * Where the services' Redis is. The URL gives the credentials, the database and TLS; with
 * `sentinel` its host and port are ignored, the sentinels say where the master is.
 */
export interface RedisConnection {
  url: string;
  sentinel?: RedisSentinelSettings | undefined;
}

// A host (name, IPv4, or IPv6 in brackets) and a port, as REDIS_SENTINELS lists them.
const ENDPOINT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/;

/** `host:port,host:port` as endpoints, or undefined when any item is not one. */
export function parseRedisEndpoints(list: string): RedisEndpoint[] | undefined {
  const endpoints: RedisEndpoint[] = [];
  for (const raw of list.split(',')) {
    const match = ENDPOINT.exec(raw.trim());
    const port = Number(match?.[2]);
    if (!match?.[1] || port < 1 || port > 65535) return undefined;
    endpoints.push({ host: match[1].replace(/^\[(.*)\]$/, '$1'), port });
  }
  return endpoints;
}

/**
 * The one way a Redis client of ours is made: to a single server at the URL, or to whichever
 * server the sentinels name master. `options` are the client's waits and key prefix.
 */
export function redisClient(connection: RedisConnection, options: RedisOptions): Redis {
  return new Redis(connection.url, { ...options, ...sentinelOptions(connection, options) });
}

/**
 * How long a sentinel may take to answer. Sentinels are only asked while (re)connecting, never
 * on a request's path, so the bound is generous: at one command timeout a busy boot timed out
 * its subscriptions to +switch-master.
 */
export function sentinelCommandTimeoutMs(commandMs: number): number {
  return commandMs * 5;
}

function sentinelOptions(connection: RedisConnection, options: RedisOptions): RedisOptions {
  const { sentinel } = connection;
  if (!sentinel) return {};
  return {
    sentinels: sentinel.sentinels,
    name: sentinel.masterName,
    ...(sentinel.password ? { sentinelPassword: sentinel.password } : {}),
    // A sentinel that does not answer must not hold the reconnecting for ever.
    ...(options.commandTimeout
      ? { sentinelCommandTimeout: sentinelCommandTimeoutMs(options.commandTimeout) }
      : {}),
    // A master that stops answering without closing its sockets (paused, cut off) would hold
    // the connection until the kernel gives up; the sentinels' +switch-master drops it at once.
    failoverDetector: true,
    // rediss:// asks for TLS to the data nodes; ioredis leaves it off in Sentinel mode otherwise.
    enableTLSForSentinelMode: connection.url.startsWith('rediss:'),
  };
}

/** Where the client connects, its passwords masked, for messages and logs. */
export function describeRedis(connection: RedisConnection): string {
  const { sentinel } = connection;
  if (!sentinel) return redactUrl(connection.url);
  const sentinels = sentinel.sentinels.map(({ host, port }) => `${host}:${port}`).join(',');
  return `master "${sentinel.masterName}" of the sentinels ${sentinels}`;
}

/** The URL with its password masked, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
