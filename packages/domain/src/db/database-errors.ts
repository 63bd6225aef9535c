// What tells that the database, not the request, is at fault: the server is gone, restarting,
// full, or did not answer in time. Such a failure is worth retrying later; any other is a bug.

// SQLSTATE class 08 (connection exception) and the operator-intervention and resource states.
const UNAVAILABLE_SQLSTATES = new Set([
  '53300', // too_many_connections
  '57014', // query_canceled: the statement timeout
  '57P01', // admin_shutdown: a stop, or pg_terminate_backend
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
]);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// pg and pg-pool say these without a code.
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /is not queryable$/,
  /^Client has already been connected/,
  /^Cannot use a pool after calling end on the pool$/,
];

function isUnavailableError(error: { code?: unknown; message?: unknown }): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || NETWORK_CODES.has(code)) {
    return true;
  }
  const message = typeof error.message === 'string' ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/** Whether the error, or one it was caused by (up to a few levels deep), satisfies the test. */
function inCauseChain(
  error: unknown,
  test: (error: { code?: unknown; message?: unknown }) => boolean,
) {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (test(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether an error (or one it was caused by) says the database cannot be reached now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return inCauseChain(error, isUnavailableError);
}

// SQLSTATE class 40 states in which PostgreSQL rolled a transaction back only because another
// one ran at the same time: the same request sent again is expected to succeed.
const CONFLICT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/**
 * Whether an error (or one it was caused by) is a deadlock or serialization failure: the
 * request met a concurrent one, and nothing was written; worth retrying at once.
 */
export function isDatabaseConflict(error: unknown): boolean {
  return inCauseChain(
    error,
    ({ code }) => typeof code === 'string' && CONFLICT_SQLSTATES.has(code),
  );
}
