import { createHash } from 'node:crypto';
import { addressBucket } from '@foodshare/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuthError, tooManyRequests } from '../../oauth-errors.ts';
import {
  authenticateClient,
  claimedClientId,
  presentsSecret,
  type AuthenticatedClient,
  type ClientCredentialsInput,
} from './client-authentication.ts';

const WINDOW_MS = 60_000;

const retryAfterSeconds = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));

// Client ids in keys are hashed: the claimed one is whatever the request sent, of any length.
const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

/** Keys of the counters, exported for tests that fill a budget without sending every request. */
export const clientRateKeys = {
  /** A confidential client's requests, after it authenticated. */
  client: (clientId: string) => `oauth:token-rate:${clientId}`,
  /** A public client's requests from one address (IPv4, or IPv6 /64). */
  publicClientAtAddress: (clientId: string, address: string) =>
    `oauth:token-rate:${clientId}:${addressBucket(address)}`,
  /** Failed authentications claiming one client id from one address. */
  failures: (clientId: string | undefined, address: string) =>
    `oauth:client-auth-failures:${digest(clientId ?? '')}:${addressBucket(address)}`,
};

/**
 * RFC 6749 2.3 client authentication that counts failures per claimed client_id and address
 * (RFC 6749 2.3.1: endpoints taking client passwords MUST resist brute force). Past the limit a
 * request is refused with 429 before its secret is checked, so even a right guess is not
 * confirmed (as at login, server-kit login-throttle.ts). Keyed by address too, so a stranger's
 * failures do not lock out the client itself (unless the stranger shares its address); the
 * window is a minute, so no lockout lasts.
 */
export async function authenticateClientWithinLimits(
  app: FastifyInstance,
  request: FastifyRequest,
  input: ClientCredentialsInput,
): Promise<AuthenticatedClient> {
  const limit = app.oauth.config.TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE;
  const key = clientRateKeys.failures(claimedClientId(input), request.ip);
  const authenticate = () =>
    authenticateClient(request.em, input, app.oauth.secrets.clientSecretPepper);
  return presentsSecret(input)
    ? authenticateCountingFirst(app, key, limit, authenticate)
    : authenticateCountingFailures(app, key, limit, authenticate);
}

const isAuthenticationFailure = (error: unknown) =>
  error instanceof OAuthError && error.error === 'invalid_client';

/**
 * A request with a secret is a guess. As the login throttle does, it is counted with one atomic
 * increment before its secret is checked, so parallel guesses cannot all read "below the limit":
 * a secret is checked only while the failed and in-flight checks stay within the limit. Only
 * failures keep their count: a success, a refusal or another error gives back exactly its own
 * increment (not a reset, which would wipe out the counts of concurrent guesses). Checks in
 * flight count meanwhile, so a burst of more than the limit of one client's requests from one
 * address may see a 429 for a moment too.
 */
async function authenticateCountingFirst(
  app: FastifyInstance,
  key: string,
  limit: number,
  authenticate: () => Promise<AuthenticatedClient>,
): Promise<AuthenticatedClient> {
  const giveBack = () => app.kv.increment(key, WINDOW_MS, -1);
  const attempt = await app.kv.increment(key, WINDOW_MS);
  if (attempt.count > limit) {
    await giveBack();
    throw tooManyRequests(retryAfterSeconds(attempt.ttlMs));
  }
  try {
    const client = await authenticate();
    await giveBack();
    return client;
  } catch (error) {
    if (!isAuthenticationFailure(error)) await giveBack();
    throw error;
  }
}

/**
 * A request without a secret guesses nothing, so a race of parallel ones confirms nothing either:
 * its failure is counted afterwards, and the parallel requests of a public client from one
 * address (many users behind one NAT) are not refused for being in flight together.
 */
async function authenticateCountingFailures(
  app: FastifyInstance,
  key: string,
  limit: number,
  authenticate: () => Promise<AuthenticatedClient>,
): Promise<AuthenticatedClient> {
  const failures = await app.kv.getWithTtl(key);
  if (failures !== null && Number(failures.value) >= limit) {
    throw tooManyRequests(retryAfterSeconds(failures.ttlMs));
  }
  try {
    return await authenticate();
  } catch (error) {
    if (isAuthenticationFailure(error)) await app.kv.increment(key, WINDOW_MS);
    throw error;
  }
}

/**
 * The checklist's per-client limit on token requests, in fixed one-minute windows. A
 * confidential client's budget is its own: only a holder of its secret reaches this point. A
 * public client proves nothing by its id, so its budget is per address: one sender's flood
 * spends only that sender's budget, not that of every user of the app.
 */
export async function enforceTokenRateLimit(
  app: FastifyInstance,
  request: FastifyRequest,
  client: AuthenticatedClient,
): Promise<void> {
  const { config } = app.oauth;
  const [key, limit] = client.confidential
    ? [clientRateKeys.client(client.clientId), config.TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE]
    : [
        clientRateKeys.publicClientAtAddress(client.clientId, request.ip),
        config.TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE,
      ];
  const { count, ttlMs } = await app.kv.increment(key, WINDOW_MS);
  if (count > limit) throw tooManyRequests(retryAfterSeconds(ttlMs));
}
