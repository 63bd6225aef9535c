import closeWithGrace from 'close-with-grace';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

/** How long a stop may take before the process exits anyway (an orchestrator's grace period). */
const GRACE_MS = 10_000;
// pnpm runs a script through a shell: at Ctrl-C the terminal signals the whole process group
// and pnpm passes the signal on once more, so one stop arrives twice within milliseconds.
const SAME_STOP_MS = 1_000;

export interface StopReason {
  signal?: StopSignal;
  /** An uncaught error that ended the process. */
  err?: Error;
}

/**
 * Runs `stop` once at SIGINT or SIGTERM and then exits with 0, so that neither pnpm nor an
 * orchestrator reports a clean stop as a failure; exits with 1 when `stop` throws or takes
 * longer than 10 s. An uncaught error runs `stop` too and exits with 1. Another signal, a
 * second or more after the first, exits with 1 at once.
 */
export function stopGracefully(stop: (reason: StopReason) => Promise<void>): void {
  let first: { signal: StopSignal; at: number } | undefined;
  const handle = closeWithGrace({ delay: GRACE_MS, skip: [...STOP_SIGNALS] }, ({ err }) =>
    stop(err ? { err } : first ? { signal: first.signal } : {}),
  );
  const onSignal = (signal: StopSignal) => {
    if (!first) {
      first = { signal, at: Date.now() };
      handle.close();
      return;
    }
    if (Date.now() - first.at < SAME_STOP_MS) return;
    process.stderr.write(`second ${signal}: exiting without waiting\n`);
    process.exit(1);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
}
