import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A process of the cluster: its name in the logs, and how to end it. */
export interface ClusterProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null after a signal) once the process has ended. */
  readonly exited: Promise<number | null>;
  running(): boolean;
  /**
   * Sends `signal` (default SIGTERM) and waits for the exit; after `graceMs` it kills. A
   * process that has ended already is left alone.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

// Every process started and not yet ended, for a stop asked for while the cluster is still
// starting, and for the last resort of a cluster process that exits without stopping them.
const started = new Set<ClusterProcess>();

/** The processes started here that still run. */
export function runningProcesses(): ClusterProcess[] {
  return [...started];
}

/**
 * Starts `command` with its output written line by line through `log`, each line prefixed
 * with `[name]`, so that the interleaved logs of many instances can be told apart. The child
 * runs in a process group of its own: a Ctrl-C in the terminal reaches only the cluster,
 * which then stops its processes in order (a second signal would make a service skip its
 * graceful stop).
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: {
    env: Record<string, string | undefined>;
    cwd?: string;
    log: (line: string) => void;
    /** Run once the process has ended, before `exited` resolves: removing its scratch files. */
    afterExit?: () => Promise<void>;
  },
): ClusterProcess {
  const child = spawn(command, args, {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => options.log(`[${name}] ${line}`));
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    // A command that cannot be started at all (not installed) exits with 127, as in a shell.
    child.once('error', (error) => {
      options.log(`[${name}] ${error.message}`);
      resolve(127);
    });
  }).then(async (code) => {
    await options.afterExit?.().catch(() => undefined);
    return code;
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const clusterProcess: ClusterProcess = {
    name,
    child,
    exited,
    running,
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (running()) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
  started.add(clusterProcess);
  void exited.then(() => started.delete(clusterProcess));
  return clusterProcess;
}
