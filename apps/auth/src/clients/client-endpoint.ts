import { addressBucket, NUL_CHARACTER_KEYWORD } from '@foodshare/server-kit';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import type { AuthServices } from '../auth-services.ts';
import {
  invalidRequest,
  OAuthErrorBodySchema,
  tooManyRequestsUntil,
  type OAuthError,
} from '../errors/oauth-errors.ts';
import {
  authenticateClientWithinLimits,
  type AuthenticatedClient,
  type Budget,
  type ClientLimitServices,
} from './client-authentication.ts';

/**
 * The error answers of the endpoints a client calls with its credentials (token, revocation,
 * introspection, pushed authorization requests): a bad request, failed authentication, an
 * exhausted budget, and the `server_error` that hides an internal failure.
 */
export const clientEndpointErrorResponses = {
  400: OAuthErrorBodySchema,
  401: OAuthErrorBodySchema,
  429: OAuthErrorBodySchema,
  500: OAuthErrorBodySchema,
};

/**
 * Their answers name tokens or requests, which a cache would keep beyond a revocation (RFC 6749
 * 5.1, RFC 9126 2.2); `pragma` for HTTP/1.0 caches.
 */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** RFC 6749 3.2 / RFC 7009 2.1: parameters are sent as application/x-www-form-urlencoded. */
export function assertFormEncoded(request: FastifyRequest): void {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw invalidRequest('The request body must be application/x-www-form-urlencoded');
  }
}

/**
 * The `invalid_request` for a form that failed its schema (the handler runs with
 * `attachValidation`), described by what failed. The form fields are optional strings, so a
 * type error is a parameter sent twice, which arrives as an array (RFC 6749 3.2: at most once);
 * the shared validator refuses U+0000 anywhere (server-kit validation.ts). The parameter is named
 * only when its name is plain: error_description allows few characters (RFC 6749 5.2).
 */
export function invalidForm(error: { validation?: unknown }): OAuthError {
  const issues = Array.isArray(error.validation)
    ? (error.validation as FastifySchemaValidationError[])
    : [];
  const issue = issues.find((each) => each.keyword === NUL_CHARACTER_KEYWORD) ?? issues[0];
  const name = issue?.instancePath.split('/')[1];
  const parameter = name && /^[a-z_]{1,40}$/.test(name) ? name : undefined;
  if (issue?.keyword === NUL_CHARACTER_KEYWORD) {
    return invalidRequest(
      `${parameter ?? 'A parameter'} must not contain the NUL character (U+0000)`,
    );
  }
  if (issue?.keyword === 'type') {
    return invalidRequest(
      parameter ? `${parameter} must be sent once` : 'Each parameter must be sent once',
    );
  }
  return invalidRequest('The request parameters are invalid');
}

/** The parameters every form of a token-handling client endpoint carries. */
export interface ClientTokenForm {
  token?: string;
  client_id?: string;
  client_secret?: string;
}

/**
 * The first steps of revocation (RFC 7009 2.1) and introspection (RFC 7662 2.1), in order:
 * 1. a form-encoded body;
 * 2. a form that passed its schema (the route runs with `attachValidation`);
 * 3. the client's authentication, as at the token endpoint and under the same failure count,
 *    so that secret guessing cannot move here (docs/oauth.md §6.8).
 * Answers the client and the token named. Each endpoint checks the token where its RFC says.
 */
export async function authenticateClientForm(
  services: ClientLimitServices,
  request: FastifyRequest & { body: ClientTokenForm },
): Promise<{ client: AuthenticatedClient; token: string | undefined }> {
  assertFormEncoded(request);
  if (request.validationError) throw invalidForm(request.validationError);
  const { token, client_id: clientId, client_secret: clientSecret } = request.body;
  const client = await authenticateClientWithinLimits(services, request, {
    authorization: request.headers.authorization,
    clientId,
    clientSecret,
  });
  return { client, token };
}

// A client's budgets are spent in fixed one-minute windows.
const BUDGET_WINDOW_MS = 60_000;

/** Keys of the budgets, exported for tests that fill a budget without sending every request. */
export const clientBudgetKeys = {
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
  /** A confidential client's device polls (RFC 8628 3.4), a budget apart from its other grants. */
  devicePolls: (clientId: string) => `oauth:device-poll-rate:${clientId}`,
  /** A public client's device polls from one address. */
  publicClientDevicePollsAtAddress: (clientId: string, address: string) =>
    `oauth:device-poll-rate:${clientId}:${addressBucket(address)}`,
};

/**
 * Which budget a request spends: token requests; pushed authorization requests; and a device's
 * polls, apart so that pending devices (a poll every few seconds each) never use up what the
 * client's code exchanges and refreshes need.
 */
const BUDGET_KEYS = {
  token: { confidential: clientBudgetKeys.client, public: clientBudgetKeys.publicClientAtAddress },
  par: {
    confidential: clientBudgetKeys.pushed,
    public: clientBudgetKeys.publicClientPushedAtAddress,
  },
  device: {
    confidential: clientBudgetKeys.devicePolls,
    public: clientBudgetKeys.publicClientDevicePollsAtAddress,
  },
};

/**
 * The checklist's per-client limit on token requests, in fixed one-minute windows; pushed
 * authorization requests (`par`) and device polls (`device`) have the same limits in budgets of
 * their own. A
 * confidential client's budget is its own: only a holder of its secret reaches this point. A
 * public client proves nothing by its id, so its budget is per address: one sender's flood
 * spends only that sender's budget, not that of every user of the app. Spent by client
 * authentication in the step that ends it (`authenticateClientWithinLimits`).
 */
export function tokenBudget(
  { config }: Pick<AuthServices, 'config'>,
  request: FastifyRequest,
  client: AuthenticatedClient,
  endpoint: keyof typeof BUDGET_KEYS = 'token',
): Budget {
  const keys = BUDGET_KEYS[endpoint];
  return client.confidential
    ? {
        key: keys.confidential(client.clientId),
        limit: config.TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE,
        windowMs: BUDGET_WINDOW_MS,
      }
    : {
        key: keys.public(client.clientId, request.ip),
        limit: config.TOKEN_REQUESTS_PER_PUBLIC_CLIENT_AND_IP_PER_MINUTE,
        windowMs: BUDGET_WINDOW_MS,
      };
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
  const { count, ttlMs } = await kv.increment(
    clientBudgetKeys.introspection(client.clientId),
    BUDGET_WINDOW_MS,
  );
  if (count > config.TOKEN_REQUESTS_PER_CLIENT_PER_MINUTE) throw tooManyRequestsUntil(ttlMs);
}
