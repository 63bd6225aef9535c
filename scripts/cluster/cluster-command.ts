import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface ClusterCommand {
  child: ChildProcess;
  /** The proxy, as the command printed it. */
  origin: string;
  /** BASE_URL, the issuer. */
  baseUrl: string;
  /** Each instance's own origin by name (`api-1`), as the command printed them. */
  instances: Map<string, string>;
  output(): string;
  /** SIGTERM, then the exit code (null after a kill past `timeoutMs`). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * `pnpm cluster` as a user runs it, with the environment given (DATABASE_URL, REDIS_URL) on
 * a free port; waits, at most `timeoutMs`, for its "listening on" line.
 */
export async function runClusterCommand(
  env: Record<string, string>,
  timeoutMs = 90_000,
  args: string[] = [],
): Promise<ClusterCommand> {
  const child = spawn(
    process.execPath,
    ['--conditions=development', path.join(root, 'scripts', 'cluster.ts'), ...args],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = async (stopTimeoutMs = 30_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  try {
    const line = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "listening on" within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (\S+) \(proxy (\S+); ([^)]*)\)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`pnpm cluster exited (${code}):\n${output}`));
      });
    });
    const instances = new Map(
      (line[3] ?? '').split(', ').map((entry) => entry.split(' ') as [string, string]),
    );
    return {
      child,
      baseUrl: line[1] ?? '',
      origin: line[2] ?? '',
      instances,
      output: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
