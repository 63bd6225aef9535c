import type { Redis, RedisOptions } from 'ioredis';
import { assertTtl, type KeyValueStore } from './key-value-store.ts';
import { type RedisConnection, redisClient, sentinelCommandTimeoutMs } from './redis-connection.ts';

// Each script runs atomically in Redis: no other client's command lands between its steps.
// Sent whole with EVAL every time, never by digest (EVALSHA): a digest Redis no longer knows
// (a SCRIPT FLUSH, a failover behind the same address) is answered NOSCRIPT and retried after
// the commands sent behind it, which would break the order KeyValueStore promises.
const SCRIPTS = {
  getWithTtl: `
local value = redis.call('GET', KEYS[1])
if not value then return nil end
return { value, redis.call('PTTL', KEYS[1]) }`,
  // The first increment starts the window; a crash can never leave a counter without one.
  incrementInWindow: `
local by = tonumber(ARGV[2])
if by < 0 and redis.call('EXISTS', KEYS[1]) == 0 then return { 0, -2 } end
local count = redis.call('INCRBY', KEYS[1], by)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`,
  // A flag says which answer it is: the counter itself may be negative (places given back
  // into a window that a later request had already started).
  incrementUnlessReached: `
local guard = tonumber(redis.call('GET', KEYS[2]))
if guard and guard >= tonumber(ARGV[2]) then return { 1, 0, redis.call('PTTL', KEYS[2]) } end
local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { 0, count, redis.call('PTTL', KEYS[1]) }`,
  setUnlessLeasedToOther: `
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`,
  setIfHigher: `
local current = tonumber(redis.call('GET', KEYS[1]))
if current and current >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`,
  addToIndex: `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
} as const;

/** A short pause before starting a client ioredis ended: the failover is done by then. */
const RESTART_AFTER_END_MS = 100;

export interface RedisStoreOptions extends RedisConnection {
  /** Namespaces every key, so that tests and several deployments can share one server. */
  keyPrefix?: string;
  /** Left out (tests, scripts), commands wait for a reconnect as long as ioredis does. */
  timeouts?: RedisTimeouts;
}

export interface RedisTimeouts {
  connectMs: number;
  commandMs: number;
}

/**
 * A server that does not answer (paused, overloaded) fails the command instead of holding the
 * request; while disconnected a command fails at once instead of queueing until a reconnect,
 * and reconnecting goes on in the background.
 */
function boundedWaits(timeouts: RedisTimeouts): RedisOptions {
  return {
    connectTimeout: timeouts.connectMs,
    commandTimeout: timeouts.commandMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  };
}

/** Connecting to and asking each sentinel once, then connecting to the master it names. */
export function sentinelConnectBoundMs(sentinels: number, timeouts: RedisTimeouts): number {
  return (
    sentinels * (timeouts.connectMs + sentinelCommandTimeoutMs(timeouts.commandMs)) +
    timeouts.connectMs
  );
}

/**
 * Redis could not be reached, did not answer in time, or refused the command for a state of its
 * own that passes without us (REFUSALS); worth retrying later.
 */
export class StateStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The key-value store is unavailable', { cause });
    this.name = 'StateStoreUnavailableError';
  }
}

// The error codes of a Redis that refuses commands for a while, whatever they are: out of memory
// under `noeviction` (OOM), a replica since a failover (READONLY), reading its data at boot
// (LOADING), unable to persist (MISCONF), a replica cut off from its master (MASTERDOWN), too
// few replicas (NOREPLICAS), held by a long script (BUSY). The dependency is unavailable: 503
// with Retry-After, as when it does not answer, and serving again once it accepts them.
const REFUSALS = /^(OOM|READONLY|LOADING|MISCONF|MASTERDOWN|NOREPLICAS|BUSY) /;

/** Redis refusing a command for what the command is (a bug of ours), not for its own state. */
function isBugReply(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError' && !REFUSALS.test(error.message);
}

export class RedisKeyValueStore implements KeyValueStore {
  readonly kind = 'redis' as const;
  readonly client: Redis;
  /** How long connect() waits for a master through Sentinel; unbounded without timeouts. */
  private readonly sentinelConnectMs: number | undefined;

  constructor(options: RedisStoreOptions) {
    this.sentinelConnectMs =
      options.sentinel && options.timeouts
        ? sentinelConnectBoundMs(options.sentinel.sentinels.length, options.timeouts)
        : undefined;
    this.client = redisClient(options, {
      keyPrefix: options.keyPrefix ?? '',
      lazyConnect: true,
      // No auto-pipelining: its batches escape the per-command timeout (a request against a
      // paused Redis took twice the timeout, dependency-faults.test.ts). Commands sent without
      // awaiting in between still share one round trip.
      ...(options.timeouts ? boundedWaits(options.timeouts) : { maxRetriesPerRequest: 2 }),
    });
    // Without a listener an 'error' event would end the process; the failing commands say it.
    this.client.on('error', () => undefined);
    this.client.on('end', () => this.restartAfterEnd());
  }

  /** Set once connect() succeeded; a client that never connected is not restarted. */
  private connected = false;
  /** Set by close(): the one end of the client that is ours. */
  private closing = false;
  private restartTimer: NodeJS.Timeout | undefined;

  /**
   * ioredis reconnects by itself after any lost connection, but gives up for good (status
   * `end`) when it is told to disconnect while it reconnects through the sentinels: the
   * +switch-master of the very failover it is reconnecting through does that, and the service
   * then answered 503 until restarted (redis-sentinel-reconnect.test.ts). Started again here.
   */
  private restartAfterEnd(): void {
    if (this.closing || !this.connected) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      // A failed start ends the client again and comes back here.
      this.client.connect().catch(() => undefined);
    }, RESTART_AFTER_END_MS);
    // Nothing to keep a process alive for that has nothing else to do.
    this.restartTimer.unref();
  }

  /** Commands that failed because Redis could not be reached, did not answer, or refused. */
  unavailableFailures = 0;

  /** Whether this tick's commands are being gathered into one socket write (`coalesce`). */
  private gathering = false;

  /**
   * The commands sent in one synchronous stretch (one round trip, KeyValueStore's ordering) leave
   * in one socket write: the socket is corked at the first of them and uncorked on the next tick.
   * ioredis writes each command on its own otherwise, a system call each, which the token
   * endpoint's profile showed as its largest cost after the RSA signatures
   * (docs/benchmarks.md §2.2). Unlike ioredis's auto-pipelining, every command keeps its own
   * timeout and order: only the write is shared.
   */
  private coalesce(): void {
    if (this.gathering || this.client.status !== 'ready') return;
    const { stream } = this.client;
    stream.cork();
    this.gathering = true;
    process.nextTick(() => {
      this.gathering = false;
      stream.uncork();
    });
  }

  /** Every command goes through here, so that a lost or refusing Redis is one kind of error. */
  private run<T>(command: () => Promise<T>): Promise<T> {
    this.coalesce();
    return command().catch((error: unknown) => {
      if (isBugReply(error)) throw error;
      this.unavailableFailures += 1;
      throw new StateStoreUnavailableError(error);
    });
  }

  async connect(): Promise<this> {
    await this.connectClient();
    this.connected = true;
    return this;
  }

  private async connectClient(): Promise<void> {
    if (this.sentinelConnectMs === undefined) {
      await this.run(() => this.client.connect());
      return;
    }
    // A single server that refuses fails connect() at once; through Sentinel ioredis keeps
    // asking the sentinels until one answers, and connect() would wait as long. Bounded here by
    // what asking each sentinel once and then the master may take, a boot or a CLI command
    // fails the same way instead of hanging.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.client.disconnect();
        reject(
          new StateStoreUnavailableError(
            new Error(`no sentinel named a reachable master within ${this.sentinelConnectMs} ms`),
          ),
        );
      }, this.sentinelConnectMs);
    });
    try {
      await Promise.race([this.run(() => this.client.connect()), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  get(key: string): Promise<string | null> {
    return this.run(() => this.client.get(key));
  }

  async getMany(...keys: string[]): Promise<(string | null)[]> {
    return keys.length === 0 ? [] : this.run(() => this.client.mget(...keys));
  }

  async getWithTtl(key: string): Promise<{ value: string; ttlMs: number } | null> {
    const found = (await this.run(() => this.client.eval(SCRIPTS.getWithTtl, 1, key))) as
      [string, number] | null;
    return found ? { value: found[0], ttlMs: found[1] } : null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.run(() => this.client.set(key, value, 'PX', assertTtl(ttlMs)));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (
      (await this.run(() => this.client.set(key, value, 'PX', assertTtl(ttlMs), 'NX'))) === 'OK'
    );
  }

  async setIfPresent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (
      (await this.run(() => this.client.set(key, value, 'PX', assertTtl(ttlMs), 'XX'))) === 'OK'
    );
  }

  async setIfHigher(key: string, value: number, ttlMs: number): Promise<boolean> {
    const written = await this.run(() =>
      this.client.eval(SCRIPTS.setIfHigher, 1, key, value, assertTtl(ttlMs)),
    );
    return written === 1;
  }

  async setUnlessLeasedToOther(
    key: string,
    value: string,
    ttlMs: number,
    lease: { key: string; holder: string },
  ): Promise<boolean> {
    const written = await this.run(() =>
      this.client.eval(
        SCRIPTS.setUnlessLeasedToOther,
        2,
        key,
        lease.key,
        value,
        assertTtl(ttlMs),
        lease.holder,
      ),
    );
    return written === 1;
  }

  take(key: string): Promise<string | null> {
    return this.run(() => this.client.getdel(key));
  }

  async delete(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.run(() => this.client.del(...keys));
  }

  async ttlMs(key: string): Promise<number | null> {
    const ttl = await this.run(() => this.client.pttl(key));
    if (ttl === -2) return null;
    // -1: a key without a lifetime, which this store never writes.
    return ttl === -1 ? Number.POSITIVE_INFINITY : ttl;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    return (await this.run(() => this.client.pexpire(key, assertTtl(ttlMs)))) === 1;
  }

  async increment(
    key: string,
    windowMs: number,
    by = 1,
  ): Promise<{ count: number; ttlMs: number }> {
    const [count, ttlMs] = (await this.run(() =>
      this.client.eval(SCRIPTS.incrementInWindow, 1, key, assertTtl(windowMs), by),
    )) as [number, number];
    return { count, ttlMs: Math.max(ttlMs, 0) };
  }

  async incrementUnlessReached(
    key: string,
    windowMs: number,
    unless: { key: string; limit: number },
  ): Promise<{ reached: false; count: number; ttlMs: number } | { reached: true; ttlMs: number }> {
    const [reached, count, ttlMs] = (await this.run(() =>
      this.client.eval(
        SCRIPTS.incrementUnlessReached,
        2,
        key,
        unless.key,
        assertTtl(windowMs),
        unless.limit,
      ),
    )) as [number, number, number];
    return reached === 1
      ? { reached: true, ttlMs: Math.max(ttlMs, 0) }
      : { reached: false, count, ttlMs: Math.max(ttlMs, 0) };
  }

  async addToIndex(
    key: string,
    member: string,
    score: number,
    options: { ttlMs: number; pruneBelow: number },
  ): Promise<void> {
    await this.run(() =>
      this.client.eval(
        SCRIPTS.addToIndex,
        1,
        key,
        member,
        score,
        assertTtl(options.ttlMs),
        options.pruneBelow,
      ),
    );
  }

  async indexMembers(key: string, minScore: number): Promise<{ member: string; score: number }[]> {
    const flat = await this.run(() =>
      this.client.zrangebyscore(key, minScore, '+inf', 'WITHSCORES'),
    );
    const members: { member: string; score: number }[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      members.push({ member: flat[i] ?? '', score: Number(flat[i + 1]) });
    }
    return members;
  }

  async removeFromIndex(key: string, ...members: string[]): Promise<void> {
    if (members.length > 0) await this.run(() => this.client.zrem(key, ...members));
  }

  async ping(): Promise<void> {
    await this.run(() => this.client.ping());
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    if (this.client.status === 'end' || this.client.status === 'wait') {
      this.client.disconnect();
      return;
    }
    // A Redis that is gone or paused cannot say goodbye; the socket is closed either way.
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
