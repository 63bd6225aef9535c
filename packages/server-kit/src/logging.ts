import type { FastifyServerOptions } from 'fastify';

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

export function loggerOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
}
