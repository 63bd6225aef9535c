import { hash } from 'node:crypto';
import { clientSecretMatches, type EntityManager } from '@foodshare/domain';
import { addressBucket } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth-services.ts';
import { clientRowVersionKey } from '@foodshare/server-kit/oauth-grants';
import {
  type ClientRow,
  findActiveClientWithSecrets,
  type RegisteredClient,
} from './registered-clients.ts';
import {
  invalidClient,
  invalidRequest,
  OAuthError,
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
  if (!plausibleCredential(input.clientId)) throw invalidClient('Client authentication failed');
  if (input.clientSecret !== undefined) {
    return { clientId: input.clientId, secret: input.clientSecret, method: 'client_secret_post' };
  }
  return { clientId: input.clientId, secret: null, method: 'none' };
}

/**
 * RFC 6749 2.3 and 3.2.1: confidential clients authenticate with their secret
 * (client_secret_basic or client_secret_post), public clients identify themselves by client_id
 * and prove possession of the code by PKCE. Any failure is 401 invalid_client, with a Basic
 * challenge when the Authorization header was tried (RFC 6749 5.2).
 */
function authenticateOnRow(
  row: ClientRow | null,
  presented: PresentedCredentials,
  pepper: string,
): AuthenticatedClient {
  const viaBasic = presented.method === 'client_secret_basic';
  const failed = () => invalidClient('Client authentication failed', viaBasic);
  if (!row) throw failed();
  const { client, secrets } = row;
  if (client.confidential) {
    if (presented.secret === null) throw failed();
    // During a rotation both secrets work, so a client can switch without a failed request.
    if (!clientSecretMatches(secrets, presented.secret, pepper, new Date())) throw failed();
  } else if (presented.secret !== null && presented.secret !== '') {
    // A public client has no secret (an empty Basic password is how some libraries say so);
    // a secret sent anyway means a misconfigured or forged client.
    throw failed();
  }
  return { ...client, authenticatedBy: presented.method };
}

/** The client authenticated on a remembered row, or null when the credentials do not match it. */
function authenticatedOn(
  row: ClientRow,
  presented: PresentedCredentials,
  { secrets }: Pick<ClientLimitServices, 'secrets'>,
): AuthenticatedClient | null {
  try {
    return authenticateOnRow(row, presented, secrets.clientSecretPepper);
  } catch (error) {
    if (isAuthenticationFailure(error)) return null;
    throw error;
  }
}

/**
 * Reads the client's row, remembers it under `version` (read before it: a change committed after
 * that read announces another value), and authenticates.
 */
async function authenticateOnStoredRow(
  services: ClientLimitServices,
  em: EntityManager,
  presented: PresentedCredentials,
  version: string | null,
): Promise<AuthenticatedClient> {
  const row = await findActiveClientWithSecrets(em, presented.clientId);
  if (row) services.clientRows.remember(presented.clientId, row, version);
  else services.clientRows.forget(presented.clientId);
  return authenticateOnRow(row, presented, services.secrets.clientSecretPepper);
}

// Failed authentications are counted per claimed client id and address, in one-minute windows.
const FAILURE_WINDOW_MS = 60_000;

/** What client authentication uses. */
export type ClientLimitServices = Pick<AuthServices, 'config' | 'secrets' | 'kv' | 'clientRows'>;

// Client ids in keys are hashed: the claimed one is whatever the request sent, of any length.
const digest = (value: string) => hash('sha256', value, 'base64url');

/** Failed authentications claiming one client id from one address. */
const failuresKey = (clientId: string | undefined, address: string) =>
  `oauth:client-auth-failures:${digest(clientId ?? '')}:${addressBucket(address)}`;

/** A budget an authenticated request spends from (`tokenBudget` in client-endpoint.ts). */
export interface Budget {
  key: string;
  limit: number;
  windowMs: number;
}

export interface ClientLimitOptions {
  /** The budget the request spends once its client authenticated, in the guard's own step. */
  budget?: (client: AuthenticatedClient) => Budget;
  /**
   * Sent right behind the guard's step, before anything awaits: the request's first reads travel
   * in the same round trip (the token endpoint's code or refresh family). Their answers must not
   * be used unless authentication succeeds.
   */
  alongside?: (client: AuthenticatedClient) => void;
}

/**
 * RFC 6749 2.3 client authentication that counts failures per claimed client_id and address
 * (RFC 6749 2.3.1: endpoints taking client passwords MUST resist brute force). The secret is
 * checked in the process (an HMAC, on the client's row as this instance remembers it or as read
 * now), and its outcome is then answered only through one atomic step in the key-value store,
 * which reads the failure count first:
 * - past the limit, any request is refused with 429, so even a right guess is not confirmed (as
 *   at login, server-kit login-throttle.ts);
 * - a failure below it is counted in the same step, so of any number of parallel guesses at most
 *   the limit are answered 401, and none of them can read "below the limit" for another;
 * - a success spends the client's budget in the same step (`budget`), so that a correct request
 *   pays one round trip for both, and parallel correct requests never wait for each other.
 * Keyed by address too, so a stranger's failures do not lock out the client itself (unless the
 * stranger shares its address); the window is a minute, so no lockout lasts. A remembered row
 * whose version changed meanwhile is read again and the client authenticated again on it, before
 * anything else uses it (docs/oauth.md §6.4).
 */
export async function authenticateClientWithinLimits(
  services: ClientLimitServices,
  request: FastifyRequest,
  input: ClientCredentialsInput,
  options: ClientLimitOptions = {},
): Promise<AuthenticatedClient> {
  const limit = services.config.TOKEN_CLIENT_AUTH_FAILURES_PER_CLIENT_AND_IP_PER_MINUTE;
  const { kv } = services;
  let presented: PresentedCredentials | null = null;
  let malformed: unknown = null;
  try {
    presented = presentedCredentials(input);
  } catch (error) {
    if (!isAuthenticationFailure(error)) throw error;
    malformed = error;
  }
  // Malformed credentials claim no client id: their failures count under the empty one.
  const guard = () => ({ key: failuresKey(presented?.clientId, request.ip), limit });
  const counted = async (): Promise<void> => {
    const failures = guard();
    const failure = await kv.incrementUnlessReached(failures.key, FAILURE_WINDOW_MS, failures);
    if (failure.reached) throw tooManyRequestsUntil(failure.ttlMs);
  };
  const refuse = async (error: unknown): Promise<never> => {
    await counted();
    throw error;
  };
  const readAndAuthenticate = async (presented: PresentedCredentials) =>
    authenticateOnStoredRow(
      services,
      request.em,
      presented,
      await kv.get(clientRowVersionKey(presented.clientId)),
    );

  // A secret that does not match the row this instance remembers. Past the limit it is refused
  // as a right one is, without reading the row; below it the stored row decides (it may hold a
  // new secret), and only a failure there is counted.
  const authenticateAfterMismatch = async (presented: PresentedCredentials) => {
    const [failures, version] = await Promise.all([
      kv.getWithTtl(guard().key),
      kv.get(clientRowVersionKey(presented.clientId)),
    ]);
    refuseWhenReached(failures, limit);
    return authenticateOnStoredRow(services, request.em, presented, version);
  };

  if (presented === null) return refuse(malformed);
  const recalled = services.clientRows.recall(presented.clientId);
  const onRecalled = recalled ? authenticatedOn(recalled.row, presented, services) : null;
  let client: AuthenticatedClient;
  try {
    if (onRecalled) client = onRecalled;
    else if (recalled) client = await authenticateAfterMismatch(presented);
    else client = await readAndAuthenticate(presented);
  } catch (error) {
    if (!isAuthenticationFailure(error)) throw error;
    return refuse(error);
  }
  // The remembered row the client authenticated on, whose version the last round trip checks.
  const checked = onRecalled ? recalled : undefined;
  const budget = options.budget?.(client);
  const failures = guard();
  const step = budget
    ? kv.incrementUnlessReached(budget.key, budget.windowMs, failures)
    : kv.getWithTtl(failures.key);
  // Whether the remembered row is still the stored one, in the same round trip.
  const version = checked ? kv.get(clientRowVersionKey(client.clientId)) : null;
  options.alongside?.(client);
  const [outcome, stored] = await Promise.all([step, version]);
  if (checked && stored !== checked.version) {
    // The row changed since it was read: the client authenticates again on the row stored now.
    // Its budget was spent by the row as remembered (under the other key, once, if the client
    // changed between public and confidential).
    try {
      client = await authenticateOnStoredRow(services, request.em, presented, stored);
    } catch (error) {
      if (!isAuthenticationFailure(error)) throw error;
      return refuse(error);
    }
  }
  if (outcome === null || 'value' in outcome) {
    refuseWhenReached(outcome, limit);
    return client;
  }
  if (outcome.reached) throw tooManyRequestsUntil(outcome.ttlMs);
  if (budget && outcome.count > budget.limit) throw tooManyRequestsUntil(outcome.ttlMs);
  return client;
}

/** 429 when the failures counted so far (read, not counted) reached the limit. */
function refuseWhenReached(failures: { value: string; ttlMs: number } | null, limit: number) {
  if (failures && Number(failures.value) >= limit) throw tooManyRequestsUntil(failures.ttlMs);
}

const isAuthenticationFailure = (error: unknown) =>
  error instanceof OAuthError && error.error === 'invalid_client';
