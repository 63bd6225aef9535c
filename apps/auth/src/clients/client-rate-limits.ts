import { hash } from 'node:crypto';
import { addressBucket, type KeyValueStore } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth-services.ts';
import { OAuthError, tooManyRequests } from '../errors/oauth-errors.ts';
import {
  authenticateClient,
  claimedClientId,
  presentsSecret,
  type AuthenticatedClient,
  type ClientCredentialsInput,
} from './client-authentication.ts';

const WINDOW_MS = 60_000;

/** What client authentication and the clients' budgets use. */
export type ClientLimitServices = Pick<AuthServices, 'config' | 'secrets' | 'kv'>;

const retryAfterSeconds = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));

// Client ids in keys are hashed: the claimed one is whatever the request sent, of any length.
const digest = (value: string) => hash('sha256', value, 'base64url');

/** Keys of the counters, exported for tests that fill a budget without sending every request. */
export const clientRateKeys = {
  /** A confidential client's requests, after it authenticated. */
  client: (clientId: string) => `oauth:token-rate:${clientId}`,
  /** A confidential client's introspection requests, a budget apart from its token requests. */
  introspection: (clientId: string) => `oauth:introspection-rate:${clientId}`,
  /** A confidential client's pushed authorization requests (RFC 9126). */
  pushed: (clientId: string) => `oauth:par-rate:${clientId}`,
  /** A public client's pushed authorization requests from one address. */
  publicClientPushedAtAddress: (clientId: string, address: string) =>
    `oauth:par-rate:${clientId}:${addressBucket(address)}`,
  /** A public client's requests from one address (IPv4, or IPv6 /64). */
  publicClientAtAddress: (clientId: string, address: string) =>
    `oauth:token-rate:${clientId}:${addressBucket(address)}`,
  /** Failed authentications claiming one client id from one address. */
  failures: (clientId: string | undefined, address: string) =>
    `oauth:client-auth-failures:${digest(clientId ?? '')}:${addressBucket(address)}`,
  /**
   * Secret checks of one claimed client id from one address that are in flight or failed: the
   * places under the failure limit, of which a check must hold one.
   */
  checks: (clientId: string | undefined, address: string) =>
    `oauth:client-auth-checks:${digest(clientId ?? '')}:${addressBucket(address)}`,
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
  services: ClientLimitServices,
  request: FastifyRequest,
  input: ClientCredentialsInput,
  spend?: SpendOnceAuthenticated,
): Promise<AuthenticatedClient> {
  const limit = services.config.TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE;
  const clientId = claimedClientId(input);
  const keys = {
    failures: clientRateKeys.failures(clientId, request.ip),
    checks: clientRateKeys.checks(clientId, request.ip),
  };
  const authenticate = () =>
    authenticateClient(request.em, input, services.secrets.clientSecretPepper);
  return presentsSecret(input)
    ? authenticateWithAGuessPlace(services.kv, keys, limit, authenticate, spend)
    : authenticateCountingFailures(services.kv, keys.failures, limit, authenticate, spend);
}

/**
 * What an authenticated request spends from its client's budget (`enforceTokenRateLimit`):
 * called right after the check's place is given back, so both travel in one round trip.
 */
export type SpendOnceAuthenticated = (client: AuthenticatedClient) => Promise<void>;

/** Waits for both, sent together; the first one's failure wins, as if they ran in turn. */
async function bothSettled(first: Promise<unknown>, second: Promise<unknown>): Promise<void> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
}

const isAuthenticationFailure = (error: unknown) =>
  error instanceof OAuthError && error.error === 'invalid_client';

/**
 * How long a request with a secret waits for a place while other checks are in flight. A check
 * is two indexed reads and an HMAC, so places free up within milliseconds; a longer wait means
 * checks are stuck (a database in trouble), and the request is sent away to try again.
 */
const MAX_WAIT_FOR_A_PLACE_MS = 5_000;
const waitBeforeTryingAgain = () =>
  new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 15));

/**
 * A request with a secret is a guess, and only `limit` guesses may be checked per window. Its
 * check must hold one of `limit` places, taken by one atomic increment so that parallel guesses
 * cannot all read "below the limit"; a failure keeps its place (and is counted as a failure),
 * anything else gives back exactly its own increment (not a reset, which would wipe out the
 * counts of concurrent guesses). When every place is held only because checks are in flight,
 * the request waits for one rather than being refused: a busy client's own correct requests in
 * parallel are delayed by milliseconds, never answered 429. Only `limit` failures refuse.
 */
async function authenticateWithAGuessPlace(
  kv: KeyValueStore,
  keys: { failures: string; checks: string },
  limit: number,
  authenticate: () => Promise<AuthenticatedClient>,
  spend: SpendOnceAuthenticated | undefined,
): Promise<AuthenticatedClient> {
  const giveBack = () => kv.increment(keys.checks, WINDOW_MS, -1);
  const deadline = Date.now() + MAX_WAIT_FOR_A_PLACE_MS;
  for (;;) {
    // The failures read and the place taken in one atomic step: none is taken past the limit.
    const place = await kv.incrementUnlessReached(keys.checks, WINDOW_MS, {
      key: keys.failures,
      limit,
    });
    if (place.reached) throw tooManyRequests(retryAfterSeconds(place.ttlMs));
    if (place.count <= limit) break;
    await giveBack();
    if (Date.now() >= deadline) throw tooManyRequests(1);
    await waitBeforeTryingAgain();
  }
  let client: AuthenticatedClient;
  try {
    client = await authenticate();
  } catch (error) {
    if (isAuthenticationFailure(error)) await kv.increment(keys.failures, WINDOW_MS);
    else await giveBack();
    throw error;
  }
  await bothSettled(giveBack(), spend?.(client) ?? Promise.resolve());
  return client;
}

/**
 * A request without a secret guesses nothing, so a race of parallel ones confirms nothing either:
 * its failure is counted afterwards, and the parallel requests of a public client from one
 * address (many users behind one NAT) are not refused for being in flight together.
 */
async function authenticateCountingFailures(
  kv: KeyValueStore,
  key: string,
  limit: number,
  authenticate: () => Promise<AuthenticatedClient>,
  spend: SpendOnceAuthenticated | undefined,
): Promise<AuthenticatedClient> {
  const failures = await kv.getWithTtl(key);
  if (failures !== null && Number(failures.value) >= limit) {
    throw tooManyRequests(retryAfterSeconds(failures.ttlMs));
  }
  let client: AuthenticatedClient;
  try {
    client = await authenticate();
  } catch (error) {
    if (isAuthenticationFailure(error)) await kv.increment(key, WINDOW_MS);
    throw error;
  }
  await spend?.(client);
  return client;
}

/**
 * The checklist's per-client limit on token requests, in fixed one-minute windows; pushed
 * authorization requests (`par`) have the same limits in budgets of their own. A
 * confidential client's budget is its own: only a holder of its secret reaches this point. A
 * public client proves nothing by its id, so its budget is per address: one sender's flood
 * spends only that sender's budget, not that of every user of the app.
 */
export async function enforceTokenRateLimit(
  { config, kv }: Pick<AuthServices, 'config' | 'kv'>,
  request: FastifyRequest,
  client: AuthenticatedClient,
  endpoint: 'token' | 'par' = 'token',
): Promise<void> {
  const keys =
    endpoint === 'token'
      ? { confidential: clientRateKeys.client, public: clientRateKeys.publicClientAtAddress }
      : { confidential: clientRateKeys.pushed, public: clientRateKeys.publicClientPushedAtAddress };
  const [key, limit] = client.confidential
    ? [keys.confidential(client.clientId), config.TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE]
    : [
        keys.public(client.clientId, request.ip),
        config.TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE,
      ];
  await spendFromBudget(kv, key, limit);
}

/**
 * The same per-client limit on introspection (RFC 7662), which only confidential clients reach.
 * Its own budget: a resource server that introspects every request it serves must not use up the
 * budget of its token requests (often the same client), nor they its.
 */
export async function enforceIntrospectionRateLimit(
  { config, kv }: Pick<AuthServices, 'config' | 'kv'>,
  client: AuthenticatedClient,
): Promise<void> {
  await spendFromBudget(
    kv,
    clientRateKeys.introspection(client.clientId),
    config.TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE,
  );
}

async function spendFromBudget(kv: KeyValueStore, key: string, limit: number): Promise<void> {
  const { count, ttlMs } = await kv.increment(key, WINDOW_MS);
  if (count > limit) throw tooManyRequests(retryAfterSeconds(ttlMs));
}
