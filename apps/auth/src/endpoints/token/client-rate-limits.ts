import { createHash } from 'node:crypto';
import { addressBucket } from '@foodshare/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuthError, tooManyRequests } from '../../oauth-errors.ts';
import {
  authenticateClient,
  claimedClientId,
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
 * confirmed. Keyed by address too, so a stranger's failures do not lock out the client itself
 * (unless the stranger shares its address); the window is a minute, so no lockout lasts.
 */
export async function authenticateClientWithinLimits(
  app: FastifyInstance,
  request: FastifyRequest,
  input: ClientCredentialsInput,
): Promise<AuthenticatedClient> {
  const limit = app.oauth.config.TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE;
  const key = clientRateKeys.failures(claimedClientId(input), request.ip);
  const failures = await app.kv.getWithTtl(key);
  if (failures !== null && Number(failures.value) >= limit) {
    throw tooManyRequests(retryAfterSeconds(failures.ttlMs));
  }
  try {
    return await authenticateClient(request.em, input, app.oauth.secrets.clientSecretPepper);
  } catch (error) {
    if (error instanceof OAuthError && error.error === 'invalid_client') {
      await app.kv.increment(key, WINDOW_MS);
    }
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
