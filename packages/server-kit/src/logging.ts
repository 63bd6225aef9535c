import { hostname } from 'node:os';
import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import PinoPretty from 'pino-pretty';

// Credentials must never reach log storage, whichever field carries them.
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers.dpop',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
  '*.code_verifier',
  '*.token',
];

export type LogFormat = 'pretty' | 'json';

/**
 * LOG_FORMAT when set; otherwise readable lines for a person at a terminal during development,
 * and JSON, one object a line, for everything that reads logs with a program.
 */
export function logFormat(
  settings: { LOG_FORMAT?: LogFormat | undefined; NODE_ENV: string },
  stdoutIsTerminal: boolean,
): LogFormat {
  if (settings.LOG_FORMAT) return settings.LOG_FORMAT;
  return stdoutIsTerminal && settings.NODE_ENV !== 'production' ? 'pretty' : 'json';
}

export interface LoggerSettings {
  /** Written into every line, so that the lines of both services tell apart in one place. */
  service: string;
  level: string;
  format: LogFormat;
}

interface LogEntry {
  service?: string;
  method?: string;
  url?: string;
  statusCode?: number;
  responseTime?: number;
}

// `[api] GET /api/x 200 1.2 ms` for a request, `[api] message` for anything else.
function prettyMessage(entry: Record<string, unknown>, messageKey: string): string {
  const { service, method, url, statusCode, responseTime } = entry as LogEntry;
  return method
    ? `[${service}] ${method} ${url} ${statusCode} ${responseTime} ms`
    : `[${service}] ${String(entry[messageKey])}`;
}

// One line per entry: `12:00:00.000 INFO: [api] GET /api/x 200 1.2 ms {"reqId":…}`, other
// fields after the message; the time in the machine's zone.
function prettyStream(destination: DestinationStream | undefined) {
  return PinoPretty({
    destination: destination ?? 1,
    sync: true,
    colorize: destination === undefined && process.stdout.isTTY,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,method,url,statusCode,responseTime',
    messageFormat: prettyMessage,
  });
}

/**
 * Pino's options for Fastify; `stream` replaces standard output (tests read their logs).
 * Without the pretty format the lines stay JSON, with epoch milliseconds as pino writes them.
 */
export function loggerOptions(
  settings: LoggerSettings,
  stream?: DestinationStream,
): NonNullable<FastifyServerOptions['logger']> {
  const destination = settings.format === 'pretty' ? prettyStream(stream) : stream;
  return {
    level: settings.level,
    base: { service: settings.service, pid: process.pid, hostname: hostname() },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(destination ? { stream: destination } : {}),
  };
}
