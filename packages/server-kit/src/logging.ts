import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

// Credentials must never reach log storage, whichever field carries them.
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
  '*.code_verifier',
  '*.token',
];

/** Pino's options for Fastify; `stream` replaces standard output (tests read their logs). */
export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  };
}
