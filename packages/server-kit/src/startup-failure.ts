import { inspect } from 'node:util';
import { isDatabaseUnavailable } from '@foodshare/domain';
import { ConfigError } from './config/load-config.ts';
import { redactUrl } from './kv/redis-connection.ts';
import { StateStoreUnavailableError } from './kv/redis-store.ts';

/**
 * A start-up failure whose cause and fix are known: told in one line, without a stack.
 * `message` is that line, cause first, then a colon and what to do.
 */
export class StartupFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupFailure';
  }
}

/** What a start was about to use, for the line that names what failed. */
export interface StartupSettings {
  HOST?: string;
  PORT?: number;
  DATABASE_URL?: string;
  REDIS_URL?: string;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function listenFailure(error: unknown, settings: StartupSettings): string | undefined {
  if ((error as { syscall?: unknown } | null)?.syscall !== 'listen') return undefined;
  const { port = settings.PORT } = error as { port?: number };
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return `port ${port} is taken: stop the other process or set PORT`;
    case 'EACCES':
      return `port ${port} needs privileges this user lacks: set PORT to one above 1023`;
    case 'EADDRNOTAVAIL':
      return `HOST ${settings.HOST ?? ''} is not an address of this machine: set HOST (127.0.0.1, or 0.0.0.0 in a container)`;
    default:
      return undefined;
  }
}

// SQLSTATEs PostgreSQL answers a connection with that DATABASE_URL, not the server, must fix.
function databaseRefusal(code: string | undefined, url: string): string | undefined {
  switch (code) {
    case '28P01':
    case '28000':
      return `PostgreSQL at ${url} refused the user or password: fix them in DATABASE_URL`;
    case '3D000':
      return `the database of ${url} does not exist: create it (createdb) or fix DATABASE_URL`;
    default:
      return undefined;
  }
}

function databaseFailure(error: unknown, settings: StartupSettings): string | undefined {
  if (!settings.DATABASE_URL) return undefined;
  const url = redactUrl(settings.DATABASE_URL);
  const refusal = databaseRefusal(codeOf(error), url);
  if (refusal) return refusal;
  if (!isDatabaseUnavailable(error)) return undefined;
  const reason = codeOf(error) ?? (error instanceof Error ? error.message : String(error));
  return `no PostgreSQL answers at ${url} (${reason}): start it or set DATABASE_URL`;
}

/**
 * The line that names a known start-up failure's cause and its fix, or `undefined` when the
 * error is none of them: a bug, which keeps its stack.
 */
export function startupFailureLine(error: unknown, settings: StartupSettings): string | undefined {
  if (error instanceof StartupFailure) return error.message;
  if (error instanceof ConfigError) {
    return `bad configuration: ${error.problems.join('; ')}: fix these environment variables`;
  }
  if (error instanceof StateStoreUnavailableError && settings.REDIS_URL) {
    return `no Redis answers at ${redactUrl(settings.REDIS_URL)}: start it or set REDIS_URL`;
  }
  return listenFailure(error, settings) ?? databaseFailure(error, settings);
}

/**
 * Ends a start that failed: a known cause as one line on stderr, `[name] cause: fix`, anything
 * else with its stack; exit code 1 either way. Exits as soon as the line is written, since
 * what the start opened (connections, timers) would otherwise keep the process alive.
 */
export async function exitOnStartupFailure(
  name: string,
  error: unknown,
  settings: StartupSettings,
): Promise<never> {
  const line = startupFailureLine(error, settings);
  const text = line ? `[${name}] ${line}\n` : `[${name}] failed to start: ${inspect(error)}\n`;
  await new Promise<void>((resolve) => process.stderr.write(text, () => resolve()));
  process.exit(1);
}
