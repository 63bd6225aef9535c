import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitFor } from './disposable-servers.ts';

// A Redis master, one replica and three sentinels of a failover test's own, on free loopback
// ports: the test kills the master and watches the sentinels promote the replica, without
// touching the Redis every other test shares. `redis-server --sentinel` rather than the
// redis-sentinel binary, so that the redis-server package alone is enough.

export interface DisposableSentinelRedis {
  /** The master's name in the sentinels' configuration. */
  masterName: string;
  /** The sentinels as REDIS_SENTINELS lists them. */
  sentinels: string;
  /** The port of the server the sentinels name master now. */
  masterPort(): Promise<number>;
  /**
   * Waits until the master has handed everything written so far to the replica (WAIT), so that
   * a failover cannot lose it; the number of replicas that confirmed.
   */
  replicate(timeoutMs?: number): Promise<number>;
  /** SIGKILL on the current master: its sockets close and nothing answers at its port. */
  killMaster(): Promise<number>;
  /** CLIENT KILL of every client of the current master: their connections cut, as by the network. */
  dropClients(): Promise<void>;
  /**
   * SIGSTOP on the sentinel at `index` (of `sentinels`): it accepts connections but answers
   * nothing, as a sentinel on a starved host; the function returned sends SIGCONT.
   */
  pauseSentinel(index: number): () => void;
  /**
   * `SENTINEL FAILOVER` asked of the sentinel at `index`: it promotes the replica without
   * waiting for the master to fail, and the sentinels announce `+switch-master`.
   */
  failover(index: number): Promise<void>;
  /**
   * What each sentinel reports (the master it names, whether it is in TILT: a sentinel whose
   * clock or scheduling jumped by more than 2 s acts on nothing for 30 s), for a failing test.
   */
  status(): Promise<string>;
  /** Kills every server and sentinel and deletes their folder. */
  dispose(): Promise<void>;
}

export interface SentinelTimings {
  /** How long a master may be silent before a sentinel thinks it down. */
  downAfterMs: number;
  /** Sentinel's failover-timeout: how long before a stuck failover is tried again. */
  failoverTimeoutMs: number;
}

const MASTER_NAME = 'mymaster';
const QUORUM = 2;
const SENTINEL_COUNT = 3;
// Nothing written to disk: a test's servers leave no dump behind and lose nothing by it.
const NO_PERSISTENCE = ['--save', '', '--appendonly', 'no'];

/** One command to the server at `port`, on a connection of its own that gives up quickly. */
async function ask(port: number, command: string, ...args: string[]): Promise<unknown> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 500,
    commandTimeout: 2_000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.call(command, ...args);
  } finally {
    client.disconnect();
  }
}

function sentinelConfig(port: number, masterPort: number, timings: SentinelTimings): string {
  return [
    `port ${port}`,
    'bind 127.0.0.1',
    `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} ${QUORUM}`,
    `sentinel down-after-milliseconds ${MASTER_NAME} ${timings.downAfterMs}`,
    `sentinel failover-timeout ${MASTER_NAME} ${timings.failoverTimeoutMs}`,
    `sentinel parallel-syncs ${MASTER_NAME} 1`,
    '',
  ].join('\n');
}

export async function startDisposableSentinelRedis(
  timings: SentinelTimings = { downAfterMs: 1_000, failoverTimeoutMs: 3_000 },
): Promise<DisposableSentinelRedis> {
  // Sentinels rewrite their configuration file as they learn: each needs one it may write.
  const dir = await mkdtemp(path.join(tmpdir(), 'foodshare-sentinel-'));
  const servers = new Map<number, ChildProcess>();
  const start = (port: number, args: string[]) => {
    const child = spawn('redis-server', [...args, ...NO_PERSISTENCE, '--dir', dir], {
      stdio: 'ignore',
    });
    servers.set(port, child);
  };
  const dispose = async () => {
    await Promise.all(
      [...servers.values()].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }),
    );
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const [masterPort, replicaPort, ...sentinelPorts] = await Promise.all(
      Array.from({ length: 2 + SENTINEL_COUNT }, () => freePort()),
    );
    if (masterPort === undefined || replicaPort === undefined) throw new Error('no ports');
    const dataNode = (port: number) => ['--port', String(port), '--bind', '127.0.0.1'];
    start(masterPort, dataNode(masterPort));
    start(replicaPort, [...dataNode(replicaPort), '--replicaof', '127.0.0.1', String(masterPort)]);
    await waitFor('the replica in sync with the master', async () => {
      const info = String(await ask(replicaPort, 'INFO', 'replication'));
      return info.includes('master_link_status:up');
    });
    for (const port of sentinelPorts) {
      const file = path.join(dir, `sentinel-${port}.conf`);
      await writeFile(file, sentinelConfig(port, masterPort, timings));
      start(port, [file, '--sentinel']);
    }
    // A failover needs a quorum that knows the master down and a majority to elect a leader:
    // every sentinel must know the replica and the other sentinels before the test kills.
    await waitFor(
      'the sentinels knowing the replica and each other',
      async () => {
        for (const port of sentinelPorts) {
          const replicas = await ask(port, 'SENTINEL', 'REPLICAS', MASTER_NAME);
          const others = await ask(port, 'SENTINEL', 'SENTINELS', MASTER_NAME);
          if (!Array.isArray(replicas) || replicas.length !== 1) return false;
          if (!Array.isArray(others) || others.length !== SENTINEL_COUNT - 1) return false;
        }
        return true;
      },
      15_000,
    );

    const masterPortNow = async () => {
      for (const port of sentinelPorts) {
        const address = await ask(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME).catch(
          () => undefined,
        );
        if (Array.isArray(address)) return Number(address[1]);
      }
      throw new Error('no sentinel names a master');
    };
    return {
      masterName: MASTER_NAME,
      sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
      masterPort: masterPortNow,
      async replicate(timeoutMs = 2_000) {
        return Number(await ask(await masterPortNow(), 'WAIT', '1', String(timeoutMs)));
      },
      async killMaster() {
        const port = await masterPortNow();
        const master = servers.get(port);
        if (!master) throw new Error(`no server of ours on port ${port}`);
        const exited = once(master, 'exit');
        master.kill('SIGKILL');
        await exited;
        return port;
      },
      async dropClients() {
        await ask(await masterPortNow(), 'CLIENT', 'KILL', 'TYPE', 'normal');
      },
      pauseSentinel(index) {
        const sentinel = servers.get(sentinelPorts[index] ?? 0);
        if (!sentinel) throw new Error(`no sentinel ${index}`);
        sentinel.kill('SIGSTOP');
        return () => sentinel.kill('SIGCONT');
      },
      async failover(index) {
        const port = sentinelPorts[index];
        if (port === undefined) throw new Error(`no sentinel ${index}`);
        await ask(port, 'SENTINEL', 'FAILOVER', MASTER_NAME);
      },
      async status() {
        const lines = await Promise.all(
          sentinelPorts.map(async (port) => {
            const info = String(await ask(port, 'INFO', 'sentinel').catch((e: Error) => e.message));
            const tilt = /sentinel_tilt:(\d)/.exec(info)?.[1] ?? '?';
            const master = /master0:name=[^,]+,status=([^,]+),address=([^,]+)/.exec(info);
            return `sentinel ${port}: master ${master?.[2] ?? '?'} (${master?.[1] ?? '?'}), tilt ${tilt}`;
          }),
        );
        return lines.join('; ');
      },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
