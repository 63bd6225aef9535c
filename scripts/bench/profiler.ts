// CPU profiles of a child process over chosen stretches of time, through its inspector (the child
// runs with `--inspect=127.0.0.1:0`): `pnpm bench --profile` records one per scenario, over its
// measured seconds only. A profile of the whole process (node --cpu-prof) mixes in the start, the
// logins and every other scenario, which hid where a single read spends its time.

/** The line a child started with `--inspect` prints on stderr, with its WebSocket address. */
export const INSPECTOR_LINE = /^Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)$/;

/** A V8 CPU profile, as Chrome's DevTools and `.cpuprofile` files hold it. */
export interface CpuProfile {
  nodes: unknown[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface Profiler {
  start(): Promise<void>;
  /** The profile since `start`. */
  stop(): Promise<CpuProfile>;
  close(): void;
}

/** Each inspector call is answered within this, or fails (a child that hangs must not hold the run). */
const CALL_TIMEOUT_MS = 30_000;

/** Sampling interval: finer than --cpu-prof's 1 ms default, for scenarios of a few seconds. */
const SAMPLING_INTERVAL_US = 200;

export async function connectProfiler(address: string): Promise<Profiler> {
  const socket = new WebSocket(address);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`no inspector at ${address}`)), {
      once: true,
    });
  });
  let nextId = 1;
  const pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message);
  });

  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the inspector did not answer ${method} in time`));
      }, CALL_TIMEOUT_MS);
      pending.set(id, (message) => {
        clearTimeout(timer);
        pending.delete(id);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });

  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
  return {
    async start() {
      await call('Profiler.start');
    },
    async stop() {
      const { profile } = (await call('Profiler.stop')) as { profile: CpuProfile };
      return profile;
    },
    close() {
      socket.close();
    },
  };
}
