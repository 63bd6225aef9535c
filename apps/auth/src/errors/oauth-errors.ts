import { challenge } from '@foodshare/server-kit/oauth-grants';
import { Type, type Static } from 'typebox';

/** RFC 6749 5.2, RFC 6750 3.1 and OIDC Core 3.1.2.6 error codes this server answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'temporarily_unavailable'
  | 'server_error';

/**
 * An OAuth protocol error. Services throw it; the endpoint turns it into the RFC's JSON body or
 * an error redirect. `expose: false` marks an internal failure whose detail must not reach the
 * client: it is answered as `server_error` (error-boundary.ts).
 */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly description: string;
  readonly status: number;
  readonly expose: boolean;
  readonly headers: Record<string, string>;

  constructor(options: {
    error: OAuthErrorCode;
    description: string;
    status?: number;
    expose?: boolean;
    headers?: Record<string, string>;
  }) {
    super(options.description);
    this.name = 'OAuthError';
    this.error = options.error;
    this.description = options.description;
    this.status = options.status ?? 400;
    this.expose = options.expose ?? true;
    this.headers = options.headers ?? {};
  }
}

export const invalidRequest = (description: string) =>
  new OAuthError({ error: 'invalid_request', description });

/**
 * RFC 6749 5.2: 401 and, when the client tried the Authorization header, a `WWW-Authenticate`
 * challenge for the scheme it used (`viaBasic`); `answerOAuthError` sends the error's headers.
 */
export const invalidClient = (description = 'Client authentication failed', viaBasic = false) =>
  new OAuthError({
    error: 'invalid_client',
    description,
    status: 401,
    headers: viaBasic ? { 'www-authenticate': 'Basic realm="oauth", charset="UTF-8"' } : {},
  });

export const invalidGrant = (description: string) =>
  new OAuthError({ error: 'invalid_grant', description });

export const unauthorizedClient = (description: string) =>
  new OAuthError({ error: 'unauthorized_client', description });

export const unsupportedGrantType = (description = 'Unsupported grant_type') =>
  new OAuthError({ error: 'unsupported_grant_type', description });

export const unsupportedResponseType = (description = 'Only response_type=code is supported') =>
  new OAuthError({ error: 'unsupported_response_type', description });

export const invalidScope = (description: string) =>
  new OAuthError({ error: 'invalid_scope', description });

export const accessDenied = (description: string) =>
  new OAuthError({ error: 'access_denied', description, status: 403 });

/** RFC 8628 3.5: the user has not decided yet; the device polls again after its interval. */
export const authorizationPending = () =>
  new OAuthError({
    error: 'authorization_pending',
    description: 'The user has not yet approved the device',
  });

/** RFC 8628 3.5: polled too soon; the device adds 5 seconds to its interval. */
export const slowDown = () =>
  new OAuthError({ error: 'slow_down', description: 'Polling too fast: wait 5 seconds longer' });

/** RFC 8628 3.5: the device code expired; the device starts over. */
export const expiredToken = () =>
  new OAuthError({ error: 'expired_token', description: 'The device code has expired' });

export const loginRequired = (description = 'Login required') =>
  new OAuthError({ error: 'login_required', description });

export const consentRequired = (description = 'Consent required') =>
  new OAuthError({ error: 'consent_required', description });

export const interactionRequired = (description = 'Interaction required') =>
  new OAuthError({ error: 'interaction_required', description });

/** RFC 6750 3.1: 401 with a Bearer challenge naming the error. */
export const invalidToken = (description = 'The access token is invalid') =>
  new OAuthError({
    error: 'invalid_token',
    description,
    status: 401,
    headers: { 'www-authenticate': bearerChallenge('invalid_token', description) },
  });

/** RFC 6750 3.1: the token is fine but lacks a scope the resource needs. */
export const insufficientScope = (description: string) =>
  new OAuthError({
    error: 'insufficient_scope',
    description,
    status: 403,
    headers: { 'www-authenticate': bearerChallenge('insufficient_scope', description) },
  });

/**
 * RFC 6750 3.1: a request without any bearer token gets the bare challenge, no error code in it.
 */
export const bearerTokenMissing = () =>
  new OAuthError({
    error: 'invalid_token',
    description: 'A bearer token in the Authorization header is required',
    status: 401,
    headers: { 'www-authenticate': 'Bearer realm="oauth"' },
  });

export const tooManyRequests = (retryAfterSeconds: number) =>
  new OAuthError({
    error: 'temporarily_unavailable',
    description: `Too many requests. Try again in ${retryAfterSeconds} seconds.`,
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

/** The 429 of a window that ends in `ttlMs`: try again then, and not sooner than in a second. */
export const tooManyRequestsUntil = (ttlMs: number) =>
  tooManyRequests(Math.max(1, Math.ceil(ttlMs / 1000)));

export const serverError = () =>
  new OAuthError({ error: 'server_error', description: 'Internal server error', status: 500 });

/** RFC 6750 3: the Bearer challenge of an error. */
export function bearerChallenge(error: string, description?: string): string {
  return challenge('Bearer', { realm: 'oauth', error, error_description: description });
}

/** RFC 6749 5.2 error body, also used by RFC 7009 and RFC 6750 answers. */
export const OAuthErrorBodySchema = Type.Object(
  {
    error: Type.String({ description: 'The RFC error code' }),
    error_description: Type.Optional(Type.String()),
  },
  { title: 'OAuthError' },
);
export type OAuthErrorBody = Static<typeof OAuthErrorBodySchema>;
