import { hash } from 'node:crypto';
import { clientSecretMatches, type EntityManager } from '@foodshare/domain';
import { addressBucket, type KeyValueStore } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth-services.ts';
import { findActiveClientWithSecrets, type RegisteredClient } from './registered-clients.ts';
import {
  invalidClient,
  invalidRequest,
  OAuthError,
  tooManyRequests,
  tooManyRequestsUntil,
} from '../errors/oauth-errors.ts';

export type ClientAuthenticationMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface AuthenticatedClient extends RegisteredClient {
  authenticatedBy: ClientAuthenticationMethod;
}

/** What a token or revocation request says about its client. */
export interface ClientCredentialsInput {
  authorization: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

interface PresentedCredentials {
  clientId: string;
  secret: string | null;
  method: ClientAuthenticationMethod;
}

/** RFC 6749 2.3.1: Basic credentials are form-url-encoded before base64 ("+" is a space). */
function formUrlDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

// Longer than any client id or secret this server issues; a longer value names no client.
const MAX_BASIC_PART_LENGTH = 512;

/**
 * A client id or secret as far as it can be one: control characters (U+0000 above all, which
 * PostgreSQL text cannot hold) and oversized values are malformed credentials, not a lookup.
 */
function plausibleCredential(value: string | null): value is string {
  if (value === null || value.length > MAX_BASIC_PART_LENGTH) return false;
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f]/.test(value);
}

function parseBasic(authorization: string): { clientId: string; secret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const clientId = formUrlDecode(decoded.slice(0, colon));
  const secret = formUrlDecode(decoded.slice(colon + 1));
  return clientId && plausibleCredential(clientId) && plausibleCredential(secret)
    ? { clientId, secret }
    : null;
}

function presentedCredentials(input: ClientCredentialsInput): PresentedCredentials {
  const basic = input.authorization?.match(/^Basic\b/i) ? input.authorization : undefined;
  if (basic !== undefined) {
    // RFC 6749 2.3: a client must not use more than one authentication method per request.
    if (input.clientSecret !== undefined) {
      throw invalidRequest('Use only one client authentication method');
    }
    const credentials = parseBasic(basic);
    if (!credentials) throw invalidClient('Malformed Basic credentials', true);
    if (input.clientId !== undefined && input.clientId !== credentials.clientId) {
      throw invalidRequest('client_id differs from the Basic credentials');
    }
    return { ...credentials, method: 'client_secret_basic' };
  }
  if (!input.clientId) throw invalidClient('client_id is required');
  if (input.clientSecret !== undefined) {
    return { clientId: input.clientId, secret: input.clientSecret, method: 'client_secret_post' };
  }
  return { clientId: input.clientId, secret: null, method: 'none' };
}

/**
 * The client_id a request claims, before anything is checked; undefined when the credentials
 * are malformed or name no client. For counting failed authentications per claimed client.
 */
export function claimedClientId(input: ClientCredentialsInput): string | undefined {
  try {
    return presentedCredentials(input).clientId;
  } catch {
    return undefined;
  }
}

/**
 * Whether the request presents a secret that authentication would check: only such a request
 * is a guess. None is checked without a non-empty secret (the empty one is the same guess each
 * time, and how some libraries say that a public client has none), nor for malformed credentials.
 */
export function presentsSecret(input: ClientCredentialsInput): boolean {
  try {
    const { secret } = presentedCredentials(input);
    return secret !== null && secret !== '';
  } catch {
    return false;
  }
}

/**
 * RFC 6749 2.3 and 3.2.1: confidential clients authenticate with their secret
 * (client_secret_basic or client_secret_post), public clients identify themselves by client_id
 * and prove possession of the code by PKCE. Any failure is 401 invalid_client, with a Basic
 * challenge when the Authorization header was tried (RFC 6749 5.2).
 */
export async function authenticateClient(
  em: EntityManager,
  input: ClientCredentialsInput,
  pepper: string,
  now = Date.now(),
): Promise<AuthenticatedClient> {
  const presented = presentedCredentials(input);
  const viaBasic = presented.method === 'client_secret_basic';
  const failed = () => invalidClient('Client authentication failed', viaBasic);
  const found = await findActiveClientWithSecrets(em, presented.clientId);
  if (!found) throw failed();
  const { client, secrets } = found;
  if (client.confidential) {
    if (presented.secret === null) throw failed();
    // During a rotation both secrets work, so a client can switch without a failed request.
    if (!clientSecretMatches(secrets, presented.secret, pepper, new Date(now))) throw failed();
  } else if (presented.secret !== null && presented.secret !== '') {
    // A public client has no secret (an empty Basic password is how some libraries say so);
    // a secret sent anyway means a misconfigured or forged client.
    throw failed();
  }
  return { ...client, authenticatedBy: presented.method };
}

// Failed authentications are counted per claimed client id and address, in one-minute windows.
const FAILURE_WINDOW_MS = 60_000;

/** What client authentication uses. */
export type ClientLimitServices = Pick<AuthServices, 'config' | 'secrets' | 'kv'>;

// Client ids in keys are hashed: the claimed one is whatever the request sent, of any length.
const digest = (value: string) => hash('sha256', value, 'base64url');

const failureKeys = {
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
    failures: failureKeys.failures(clientId, request.ip),
    checks: failureKeys.checks(clientId, request.ip),
  };
  const authenticate = () =>
    authenticateClient(request.em, input, services.secrets.clientSecretPepper);
  return presentsSecret(input)
    ? authenticateWithAGuessPlace(services.kv, keys, limit, authenticate, spend)
    : authenticateCountingFailures(services.kv, keys.failures, limit, authenticate, spend);
}

/**
 * What an authenticated request spends from its client's budget (`enforceTokenRateLimit` in
 * client-endpoint.ts). It is called right after the check's place is given back, so both travel
 * in one round trip.
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
 * A request with a secret is a guess, and only `limit` guesses may be checked per window.
 * Each check holds one of `limit` places, taken by one atomic increment, so that parallel
 * guesses cannot all read "below the limit". A failure keeps its place and counts as a
 * failure. Anything else gives back exactly its own increment; a reset would wipe out the
 * counts of concurrent guesses. When every place is held only by checks in flight, the request
 * waits for a place instead of being refused. So a busy client's correct parallel requests are
 * delayed by milliseconds, never answered 429. Only `limit` failures refuse.
 */
async function authenticateWithAGuessPlace(
  kv: KeyValueStore,
  keys: { failures: string; checks: string },
  limit: number,
  authenticate: () => Promise<AuthenticatedClient>,
  spend: SpendOnceAuthenticated | undefined,
): Promise<AuthenticatedClient> {
  const giveBack = () => kv.increment(keys.checks, FAILURE_WINDOW_MS, -1);
  const deadline = Date.now() + MAX_WAIT_FOR_A_PLACE_MS;
  for (;;) {
    // The failures read and the place taken in one atomic step: none is taken past the limit.
    const place = await kv.incrementUnlessReached(keys.checks, FAILURE_WINDOW_MS, {
      key: keys.failures,
      limit,
    });
    if (place.reached) throw tooManyRequestsUntil(place.ttlMs);
    if (place.count <= limit) break;
    await giveBack();
    if (Date.now() >= deadline) throw tooManyRequests(1);
    await waitBeforeTryingAgain();
  }
  let client: AuthenticatedClient;
  try {
    client = await authenticate();
  } catch (error) {
    if (isAuthenticationFailure(error)) await kv.increment(keys.failures, FAILURE_WINDOW_MS);
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
    throw tooManyRequestsUntil(failures.ttlMs);
  }
  let client: AuthenticatedClient;
  try {
    client = await authenticate();
  } catch (error) {
    if (isAuthenticationFailure(error)) await kv.increment(key, FAILURE_WINDOW_MS);
    throw error;
  }
  await spend?.(client);
  return client;
}
